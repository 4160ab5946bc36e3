package configs

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Size caps on the files a config names, so that a wrong path (a log, a
// device such as /dev/zero) fails at once instead of filling memory.
const (
	// MaxConfigBytes bounds the config file: 1 MiB.
	MaxConfigBytes = 1 << 20
	// MaxDocumentBytes bounds each shared-context file and motion document:
	// 8 MiB.
	MaxDocumentBytes = 8 << 20
)

// errNotRegular and errTooLarge say why readFile refused a file.
var (
	errNotRegular = errors.New("not a regular file (a folder, device or pipe); name a file")
	errTooLarge   = errors.New("file too large")
)

// readFile reads the regular file at path, at most limit bytes of it. A
// folder, device, FIFO or socket is refused before it is opened (opening a
// FIFO would wait for a writer), and a file longer than limit is refused
// after reading limit+1 bytes, whatever it claims its size to be.
func readFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: more than %s, the limit", errTooLarge, sizeText(limit))
	}
	return b, nil
}

// sizeText writes a byte count in MiB when it is a whole number of them.
func sizeText(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
