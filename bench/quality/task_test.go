package quality

import (
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/debatehq/debate/internal/regular"
)

// errUnread is what a reader returns that must not be read.
var errUnread = errors.New("read past the tasks asked for")

// TestReadTasksLazily: asked for the first n tasks, the reader stops at the
// n-th line, whatever follows; asked for all, it reads to the end.
func TestReadTasksLazily(t *testing.T) {
	t.Parallel()
	const first = `{"id":"a","question":"1+1?","answer":2}` + "\n"
	tests := []struct {
		name string
		n    int
		want error
	}{
		{"the first task", 1, nil},
		{"all tasks", 0, errUnread},
		{"more tasks than the first", 2, errUnread},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := io.MultiReader(strings.NewReader(first), iotest.ErrReader(errUnread))
			ps, err := readTasks(r, "tasks.jsonl", tt.n)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.want == nil && (len(ps) != 1 || ps[0].ID != "a") {
				t.Errorf("read %+v, want task a", ps)
			}
		})
	}
}

// TestTaskFileBounded: a task file that is a FIFO or a device is refused at
// once, naming it.
func TestTaskFileBounded(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	fifo := filepath.Join(t.TempDir(), "tasks.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		_, err := LoadProblems(path, 1, 0)
		if !errors.Is(err, regular.ErrNotRegular) || !strings.Contains(err.Error(), path) {
			t.Errorf("LoadProblems(%s): %v, want a refusal naming it", path, err)
		}
	}
}
