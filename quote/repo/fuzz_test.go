package repo

import (
	"path"
	"strings"
	"testing"
)

// FuzzClean: whatever path a quote writes, Clean either refuses it or
// returns a clean path that stays inside the repository.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"main.go", "./a//b.go", `a\..\..\b`, "../x", "/etc/passwd", "C:\\x", "a/../../b", " . ", "..", "a/./b/../c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		c, err := Clean(name)
		if err != nil {
			return
		}
		if c == "" || c == "." || path.IsAbs(c) || c != path.Clean(c) || c == ".." || strings.HasPrefix(c, "../") || strings.Contains(c, `\`) {
			t.Errorf("Clean(%q) = %q, a path that is not clean or leaves the repository", name, c)
		}
	})
}
