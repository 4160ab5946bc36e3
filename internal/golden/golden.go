// Package golden compares rendered artifacts with golden files under testdata/
// and rewrites them when tests run with -update.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/linediff"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Assert compares got with the file at path (relative to the test's package
// folder). With -update it writes got to path instead.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run the test with -update to create it)", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff returns a line diff of want and got (linediff.Lines over their lines
// split at "\n"): lines only in want start with "-", lines only in got with
// "+", each with its line number. It is meant for test failure messages.
func Diff(want, got string) string {
	var out strings.Builder
	i, j := 0, 0
	for _, l := range linediff.Lines(strings.Split(want, "\n"), strings.Split(got, "\n")) {
		switch l.Op {
		case '-':
			i++
			fmt.Fprintf(&out, "-%d: %s\n", i, l.Text)
		case '+':
			j++
			fmt.Fprintf(&out, "+%d: %s\n", j, l.Text)
		default:
			i, j = i+1, j+1
		}
	}
	return out.String()
}
