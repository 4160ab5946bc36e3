package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/debatehq/debate/internal/regular"
)

// LockFile is the file in a run folder that the run writing the folder
// holds locked, so that a second run into the same folder is refused.
const LockFile = ".debate.lock"

// maxPIDBytes bounds what is read of LockFile: a pid and a newline.
const maxPIDBytes = 32

// ErrLocked is what Lock returns, wrapped, when another live run holds the
// folder.
var ErrLocked = errors.New("in use by another debate run")

// Lock claims dir, creating it if needed, for one run: it takes an
// exclusive lock on LockFile in it, which the operating system drops when
// the process ends, however it ends, so a crash leaves nothing to clean up.
// When another run holds the folder, Lock fails at once with an error
// wrapping ErrLocked that names the folder. release gives the folder up.
func Lock(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock output folder: %w", err)
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock output folder %s: %w", dir, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock output folder %s: %w", dir, err)
	}
	if held {
		holder := ""
		if b, err := regular.ReadFileNoFollow(path, maxPIDBytes); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				holder = fmt.Sprintf(" (pid %d)", pid)
			}
		}
		f.Close()
		return nil, fmt.Errorf("output folder %s is %w%s; wait for it to end or choose another folder with --output", dir, ErrLocked, holder)
	}
	// The pid is for the message above only; the lock is what counts.
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return func() { unlock(f); f.Close() }, nil
}
