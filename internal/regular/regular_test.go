package regular

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestRead: a regular file within the limit is read; a longer one, a
// folder, a device and a FIFO are refused at once; a symbolic link counts
// as its target, unless it is not to be followed.
func TestRead(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(path("ok"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path("fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"link": path("ok"), "link-zero": "/dev/zero"} {
		if err := os.Symlink(target, path(name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		path     string
		limit    int64
		follow   error // ReadFile's error
		noFollow error // ReadFileNoFollow's error
	}{
		{"a regular file", path("ok"), 5, nil, nil},
		{"one byte too many", path("ok"), 4, ErrTooLarge, ErrTooLarge},
		{"a FIFO", path("fifo"), 5, ErrNotRegular, ErrNotRegular},
		{"/dev/zero", "/dev/zero", 5, ErrNotRegular, ErrNotRegular},
		{"a folder", dir, 5, ErrNotRegular, ErrNotRegular},
		{"a link to a file", path("link"), 5, nil, ErrSymlink},
		{"a link to /dev/zero", path("link-zero"), 5, ErrNotRegular, ErrSymlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []struct {
				read func(string, int64) ([]byte, error)
				want error
			}{{ReadFile, tc.follow}, {ReadFileNoFollow, tc.noFollow}} {
				b, err := r.read(tc.path, tc.limit)
				if !errors.Is(err, r.want) || (r.want == nil) != (err == nil) {
					t.Errorf("got %v, want %v", err, r.want)
				}
				if err == nil && string(b) != "hello" {
					t.Errorf("read %q", b)
				}
			}
		})
	}
}
