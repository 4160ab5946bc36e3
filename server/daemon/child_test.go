package daemon

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestLaunchFails: a server that ends before it listens is an error that
// says so and quotes the end of its stderr.
func TestLaunchFails(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this system")
	}
	_, err = Launch(context.Background(), exec.Command(sh, "-c", "echo 'open store: disk full' >&2; exit 3"))
	if err == nil || !strings.Contains(err.Error(), "ended before it listened") || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Launch of a server that exits at once: %v", err)
	}
}
