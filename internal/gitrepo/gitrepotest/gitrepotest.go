// Package gitrepotest makes throwaway git repositories for tests.
package gitrepotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// New returns a new repository in a temporary folder holding files (by
// name relative to its top, with forward slashes, → content), all committed
// but those its own .gitignore (one of files) ignores. It skips the test
// when git is not installed.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for name, text := range files {
		Write(t, dir, name, text)
	}
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", ".")
	Git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first")
	return dir
}

// Write writes the file called name (relative to dir, with forward
// slashes), creating its folders.
func Write(t testing.TB, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Git runs git with args in dir, failing the test when it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
