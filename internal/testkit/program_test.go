package testkit

import (
	"fmt"
	"testing"
)

// ended is a testing.TB that records how a test was ended.
type ended struct {
	testing.TB
	how string
}

func (e *ended) Helper()                      {}
func (e *ended) Name() string                 { return "TestX" }
func (e *ended) Fatalf(f string, args ...any) { e.how = "fail: " + fmt.Sprintf(f, args...) }
func (e *ended) Skipf(f string, args ...any)  { e.how = "skip: " + fmt.Sprintf(f, args...) }

// TestNeedProgram: a program missing fails the test whenever CI is set,
// whatever its value, and skips it otherwise; one on PATH is found.
func TestNeedProgram(t *testing.T) {
	for _, tt := range []struct{ ci, want string }{
		{"", "skip: debate-no-such-program not found (install the-package): skipping TestX"},
		{"true", "fail: debate-no-such-program not found under CI (.ci/run installs the-package)"},
		{"1", "fail: debate-no-such-program not found under CI (.ci/run installs the-package)"},
	} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			e := &ended{}
			NeedProgram(e, "debate-no-such-program", "the-package")
			if e.how != tt.want {
				t.Errorf("ended %q, want %q", e.how, tt.want)
			}
		})
	}
	e := &ended{}
	if path := NeedProgram(e, "go", "Go"); path == "" || e.how != "" {
		t.Errorf("go found at %q, test ended %q", path, e.how)
	}
}
