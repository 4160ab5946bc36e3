package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// TestRunDemo plays the example configs against the built-in scripted model
// with no environment at all: the run ends well, its trees split, converge
// and get forced verdicts, a debater with a fallback falls back, and every
// report it writes says "demo" at the top.
func TestRunDemo(t *testing.T) {
	tests := []struct {
		config   string
		fallback bool
	}{
		{"../../configs/examples/full.jsonc", true},
		{"../../configs/examples/minimal.jsonc", false},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.config), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "demo")
			r := invoke(t, nil, "run", "--config", tt.config, "--demo", "--output", out, "--format", "markdown,html")
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			run := readRun(t, filepath.Join(out, "run.json"))
			if !run.Demo {
				t.Error("run.json does not mark the run as a demo")
			}
			for _, tp := range run.Topics {
				var statuses []tree.Status
				tp.Root.Walk(func(n *tree.Node) { statuses = append(statuses, n.Status) })
				for _, want := range []tree.Status{tree.Split, tree.Converged, tree.Forced} {
					if !slices.Contains(statuses, want) {
						t.Errorf("topic %s has no %s node: %v", tp.ID, want, statuses)
					}
				}
				if got := len(tp.Fallbacks) > 0; got != tt.fallback {
					t.Errorf("topic %s fell back: %v, want %v", tp.ID, got, tt.fallback)
				}
			}
			files := strings.Fields(r.stdout)
			if len(files) < 2*len(run.Topics)+3 {
				t.Fatalf("files written: %q", files)
			}
			for _, f := range files {
				if filepath.Base(f) == "run.json" {
					continue
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				head := string(b)
				if strings.HasSuffix(f, ".html") {
					_, head, _ = strings.Cut(head, "<main>")
				}
				const demo = "Demo: every answer here was written by the built-in scripted model"
				if i := strings.Index(head, demo); i < 0 || i > 400 || strings.Count(head, demo) != 1 {
					t.Errorf("%s does not say once, at the top, that it is a demo", f)
				}
			}
		})
	}
	t.Run("motion.jsonc", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "demo")
		r := invoke(t, nil, "run", "--config", "../../configs/examples/motion.jsonc", "--demo", "--output", out, "--format", "markdown,html")
		if r.code != exitOK {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		run := readRun(t, filepath.Join(out, "run.json"))
		if len(run.Motions) != 1 || run.Motions[0].State != "CLOSED" || !run.Demo {
			t.Fatalf("motions %+v, demo %v", run.Motions, run.Demo)
		}
		md := output.MotionFile(&run.Motions[0])
		for _, name := range []string{md, strings.TrimSuffix(md, ".md") + ".html"} {
			want := filepath.Join(out, name)
			if !slices.Contains(strings.Fields(r.stdout), want) {
				t.Errorf("stdout does not list %s:\n%s", want, r.stdout)
			}
		}
	})
	if r := invoke(t, nil, "run", "--config", tests[0].config, "--demo", "--dry-run"); r.code != exitUsage {
		t.Errorf("--demo with --dry-run: exit %d, want %d", r.code, exitUsage)
	}
}
