package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestMissingInputExitsAlike: a file or folder the command line names that
// does not exist ends every command that reads one the same way: exit 2,
// nothing on stdout, and on stderr "debate <command>: …<path>…" followed by
// the pointer to the command's help.
func TestMissingInputExitsAlike(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		cmd  string
		args []string
	}{
		{"run", []string{"run", "--config", missing + ".jsonc"}},
		{"run", []string{"run", "--config", missing + ".jsonc", "--dry-run"}},
		{"validate", []string{"validate", "--config", missing + ".jsonc"}},
		{"merge", []string{"merge", missing, "--output", filepath.Join(t.TempDir(), "out")}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " "), func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, tt.args...)
			if r.code != exitUsage || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and no stdout", r.code, r.stdout, exitUsage)
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			want := `Run "debate help ` + tt.cmd + `" for usage.`
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "debate "+tt.cmd+": ") || !strings.Contains(lines[0], missing) || lines[1] != want {
				t.Errorf("stderr:\n%s\nwant one line \"debate %s: …%s…\" and then %q", r.stderr, tt.cmd, missing, want)
			}
		})
	}
}

// TestUnreadableInputExits: a config or shard file that is a device or a
// pipe is refused at once, naming it, with exit 2 like a missing one.
func TestUnreadableInputExits(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonc")
	shard := filepath.Join(dir, "shard")
	for _, err := range []error{syscall.Mkfifo(fifo, 0o600), os.Mkdir(shard, 0o755), syscall.Mkfifo(filepath.Join(shard, "run.json"), 0o600)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"validate /dev/zero", []string{"validate", "--config", "/dev/zero"}, "/dev/zero: not a regular file"},
		{"validate a FIFO", []string{"validate", "--config", fifo}, fifo + ": not a regular file"},
		{"run a FIFO", []string{"run", "--config", fifo, "--dry-run"}, fifo + ": not a regular file"},
		{"merge a FIFO run.json", []string{"merge", shard, "--output", filepath.Join(dir, "out")}, "run.json: not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", r.code, r.stderr, exitUsage, tt.want)
			}
		})
	}
}

func TestMissingInput(t *testing.T) {
	t.Parallel()
	_, notExist := os.Open(filepath.Join(t.TempDir(), "none"))
	tests := []struct {
		name  string
		err   error
		usage bool
	}{
		{"a missing file", notExist, true},
		{"a wrapped missing file", errors.Join(errors.New("read config"), notExist), true},
		{"another failure", errors.New("disk full"), false},
		{"a usage error already", usagef("bad"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := missingInput(tt.err)
			if got := errors.As(err, new(usageError)); got != tt.usage {
				t.Errorf("missingInput(%v) is a usage error: %v, want %v", tt.err, got, tt.usage)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("missingInput(%v) = %v, which lost the error", tt.err, err)
			}
		})
	}
}
