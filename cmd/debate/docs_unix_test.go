//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDocsFileRegularOnly: docs create --file refuses at once, naming the
// path and what it is, a named pipe (which would block the command), a
// device that never ends and a folder.
func TestDocsFileRegularOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "plan.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	tests := []struct{ name, path, kind string }{
		{"named pipe", fifo, "a named pipe"},
		{"device", os.DevNull, "a device"},
		{"folder", dir, "a folder"},
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		tests = append(tests, struct{ name, path, kind string }{"endless device", "/dev/zero", "a device"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := c.run(t, "docs", "create", "--title", "Plan", "--file", tt.path)
			a.wantError(t, exitInvalid, "INVALID_INPUT")
			if msg := a.str("error", "message"); !strings.Contains(msg, "--file "+tt.path) || !strings.Contains(msg, tt.kind) {
				t.Errorf("message %q, want the path and %q", msg, tt.kind)
			}
		})
	}
}
