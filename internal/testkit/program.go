package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// UnderCI reports whether the tests run under CI (the variable CI is set
// to anything), where every tool the tests need is installed and the
// absence of one is a failure rather than a reason to skip.
func UnderCI() bool { return os.Getenv("CI") != "" }

// NeedProgram returns the path of program name on PATH. When there is none
// it ends t: a failure under CI, else a skip; both name what to install.
func NeedProgram(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if UnderCI() {
		t.Fatalf("%s not found under CI (.ci/run installs %s)", name, install)
	} else {
		t.Skipf("%s not found (install %s): skipping %s", name, install, t.Name())
	}
	return ""
}
