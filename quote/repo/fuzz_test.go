package repo

import (
	"path"
	"strings"
	"testing"
)

// FuzzCleanName: whatever path a quote writes, cleanName either refuses it or
// returns a clean path that stays inside the repository.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"main.go", "./a//b.go", `a\..\..\b`, "../x", "/etc/passwd", "C:\\x", "a/../../b", " . ", "..", "a/./b/../c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		c, err := cleanName(name)
		if err != nil {
			return
		}
		if c == "" || c == "." || path.IsAbs(c) || c != path.Clean(c) || c == ".." || strings.HasPrefix(c, "../") || strings.Contains(c, `\`) {
			t.Errorf("cleanName(%q) = %q, a path that is not clean or leaves the repository", name, c)
		}
	})
}
