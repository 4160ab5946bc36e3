package configs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/debatehq/debate/internal/regular"
)

// TestFilesBounded: a config, shared-context file or motion document that
// is a FIFO, a device, a folder or too large is refused at once with an
// error naming it, never read without end or waited on.
func TestFilesBounded(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, MaxDocumentBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	bigConfig := filepath.Join(dir, "big.jsonc")
	if err := os.WriteFile(bigConfig, []byte("{"+strings.Repeat(" ", MaxConfigBytes)+"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       error
	}{
		{"config FIFO", fifo, regular.ErrNotRegular},
		{"config /dev/zero", "/dev/zero", regular.ErrNotRegular},
		{"config folder", dir, regular.ErrNotRegular},
		{"config too large", bigConfig, regular.ErrTooLarge},
	} {
		_, err := Load(tc.path, Options{Getenv: testEnv})
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v, want %v naming %s", tc.name, err, tc.want, tc.path)
		}
	}
	for _, tc := range []struct{ name, file, want string }{
		{"context FIFO", fifo, "not a regular file"},
		{"context /dev/zero", "/dev/zero", "not a regular file"},
		{"context too large", big, "file too large: more than 8 MiB, the limit"},
	} {
		text := "{" + validBody + "\n  \"sharedContext\": { \"files\": [\"" + tc.file + "\"] },\n}"
		ps := problemsOf(t, loadErr(t, text))
		if len(ps) != 1 || ps[0].Field != "sharedContext.files[0]" || ps[0].Line != 8 || !strings.Contains(ps[0].Message, tc.want) {
			t.Errorf("%s: %v, want one problem at 8: sharedContext.files[0] saying %q", tc.name, ps, tc.want)
		}
	}
	motion := `{
  "protocol": { "proposer": { "model": "m1" }, "opponent": { "model": "m2" }, "arbitrator": { "model": "m3" } },
  "motions": [{ "id": "m1", "title": "T", "motion": "M", "documents": ["/dev/zero"] }],
}`
	ps := problemsOf(t, loadErr(t, motion))
	if len(ps) != 1 || ps[0].Field != "motions[0].documents[0]" || !strings.Contains(ps[0].Message, "not a regular file") {
		t.Errorf("motion document /dev/zero: %v", ps)
	}
}

func loadErr(t *testing.T, text string) error {
	t.Helper()
	_, err := Load(writeConfig(t, text), Options{Getenv: testEnv})
	return err
}
