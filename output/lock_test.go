package output

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestLock: a folder locked by one run is refused to a second, with an
// error naming the folder; once released it can be locked again.
func TestLock(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	dir := t.TempDir() + "/out"
	release, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second lock: %v; want ErrLocked naming %s", err, dir)
	}
	if !strings.Contains(err.Error(), "(pid ") {
		t.Errorf("the error %q does not name the holder's pid", err)
	}
	release()
	again, err := Lock(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
}

// TestLockFreedByKill: the lock of a run killed with SIGKILL is free at
// once; nothing is left behind to refuse the next run.
func TestLockFreedByKill(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolder$")
	cmd.Env = append(os.Environ(), "DEBATE_TEST_LOCK_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("holder said %q, %v", line, err)
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("while the holder lives: %v, want ErrLocked", err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup runs
		t.Fatal(err)
	}
	cmd.Wait()
	release, err := Lock(dir)
	if err != nil {
		t.Fatalf("after kill -9 of the holder: %v", err)
	}
	release()
}

// TestLockHolder is the process TestLockFreedByKill kills: it locks the
// folder, says so, and waits for its stdin to close.
func TestLockHolder(t *testing.T) {
	dir := os.Getenv("DEBATE_TEST_LOCK_DIR")
	if dir == "" {
		t.Skip("run by TestLockFreedByKill")
	}
	if _, err := Lock(dir); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
}
