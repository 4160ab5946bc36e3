// Package regular reads the files a user names — configs, templates,
// documents, task files, run folders — refusing what is not a regular file
// (a folder, device, FIFO or socket: /dev/zero never ends, a FIFO waits for
// a writer) and reading at most a given number of bytes, so that a wrong
// path fails at once instead of filling memory or hanging.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Why a file was refused.
var (
	ErrNotRegular = errors.New("not a regular file (a folder, device or pipe); name a file")
	ErrTooLarge   = errors.New("file too large")
	ErrSymlink    = errors.New("a symbolic link, which is not followed")
)

// ReadFile reads the regular file at path (a symbolic link to one counts),
// at most limit bytes of it, its errors naming path (*fs.PathError): a file longer than limit is refused after
// limit+1 bytes, whatever it claims its size to be.
func ReadFile(path string, limit int64) ([]byte, error) {
	return read(path, limit, os.Stat)
}

// ReadFileNoFollow reads the regular file at path as ReadFile does, but
// refuses a symbolic link.
func ReadFileNoFollow(path string, limit int64) ([]byte, error) {
	return read(path, limit, os.Lstat)
}

// Open opens the regular file at path (a symbolic link to one counts) for
// reading, refusing anything else before it is opened.
func Open(path string) (*os.File, error) {
	return open(path, os.Stat)
}

func read(path string, limit int64, stat func(string) (fs.FileInfo, error)) ([]byte, error) {
	f, err := open(path, stat)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %s, the limit", ErrTooLarge, Size(limit))}
	}
	return b, nil
}

// open checks path with stat before opening it (opening a FIFO would wait
// for a writer) and checks that what it opened is the file it checked.
// Its errors are *fs.PathError naming path.
func open(path string, stat func(string) (fs.FileInfo, error)) (*os.File, error) {
	refuse := func(err error) (*os.File, error) { return nil, &fs.PathError{Op: "open", Path: path, Err: err} }
	before, err := stat(path)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return refuse(pe.Err)
	}
	if err != nil {
		return refuse(err)
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return refuse(ErrSymlink)
	}
	if !before.Mode().IsRegular() {
		return refuse(ErrNotRegular)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if after, err := f.Stat(); err != nil || !after.Mode().IsRegular() || !os.SameFile(before, after) {
		f.Close()
		return refuse(ErrNotRegular)
	}
	return f, nil
}

// Size writes a byte count in MiB or KiB when it is a whole number of
// them.
func Size(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
