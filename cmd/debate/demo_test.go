package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// demoNotice opens what every report of a demo run says at its top.
const demoNotice = "Demo: every answer here was written by the built-in scripted model"

// TestRunDemo plays the example configs against the built-in scripted model
// with no environment at all: the run ends well, its trees split, converge
// and get forced verdicts, a debater with a fallback falls back, and every
// report it writes says "demo" at the top. With a shared document, the
// debaters quote it, one of them wrongly, and the reports show both badges.
func TestRunDemo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		config   string
		fallback bool
		quotes   bool
	}{
		{"../../configs/examples/full.jsonc", true, true},
		{"../../configs/examples/minimal.jsonc", false, false},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.config), func(t *testing.T) {
			t.Parallel()
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
				if q := tp.Quotes; tt.quotes && (q == nil || q.Total.Verified == 0 || q.Total.Unverified == 0) {
					t.Errorf("topic %s quotes %+v, want verified and unverified ones", tp.ID, q)
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
				if filepath.Base(filepath.Dir(f)) == "documents" && !strings.HasSuffix(f, ".html") {
					continue // the shared document's copy, as the user wrote it
				}
				if strings.HasPrefix(filepath.Base(f), "topic-") && strings.HasSuffix(f, ".md") && tt.quotes {
					for _, badge := range []string{"✓ verified — [context/decisions.md", "✗ unverified — "} {
						if !strings.Contains(string(b), badge) {
							t.Errorf("%s shows no %q badge", f, badge)
						}
					}
				}
				head := string(b)
				if strings.HasSuffix(f, ".html") {
					_, head, _ = strings.Cut(head, "<main>")
				}
				if i := strings.Index(head, demoNotice); i < 0 || i > 400 || strings.Count(head, demoNotice) != 1 {
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
			b, _ := os.ReadFile(want)
			if i := strings.Index(string(b), demoNotice); i < 0 || strings.Count(string(b), demoNotice) != 1 {
				t.Errorf("%s does not say once that it is a demo", name)
			}
		}
	})
	if r := invoke(t, nil, "run", "--config", tests[0].config, "--demo", "--dry-run"); r.code != exitUsage {
		t.Errorf("--demo with --dry-run: exit %d, want %d", r.code, exitUsage)
	}
}

// TestRunDemoReadsRight reads what a demo run of the full example writes as a
// person would: the reports name only the shared-context files the config
// gives and node ids the run has, every debater at a node says something of
// its own, and each topic argues a case of its own: its own root positions,
// divergences and synthesis, and nothing about a parser.
func TestRunDemoReadsRight(t *testing.T) {
	t.Parallel()
	const config = "../../configs/examples/full.jsonc"
	cfg, err := configs.Load(config, configs.Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "demo")
	r := invoke(t, nil, "run", "--config", config, "--demo", "--output", out, "--format", "markdown,html")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	run := readRun(t, filepath.Join(out, "run.json"))
	nodes := map[string]bool{}
	syntheses, positions, divergences := map[string]string{}, map[string]string{}, map[string]string{}
	for _, tp := range run.Topics {
		tp.Root.Walk(func(n *tree.Node) {
			nodes[n.ID] = true
			said := map[string]string{}
			for id, text := range n.Positions {
				if other, dup := said[text]; dup {
					t.Errorf("%s %s: %s and %s hold the same position", tp.ID, n.ID, other, id)
				}
				said[text] = id
			}
		})
		// Without its title, so that two topics differ in what they argue,
		// not only in what they are called.
		synthesis := strings.ReplaceAll(tp.Synthesis, tp.Title, "")
		if other, dup := syntheses[synthesis]; dup || strings.TrimSpace(synthesis) == "" {
			t.Errorf("topic %s: synthesis %q is empty or, but for the title, the same as %s's", tp.ID, tp.Synthesis, other)
		}
		syntheses[synthesis] = tp.ID
		for id, text := range tp.Root.Positions {
			if other, dup := positions[text]; dup {
				t.Errorf("%s's root position in %s is the same as in %s", id, tp.ID, other)
			}
			positions[text] = tp.ID
		}
		for _, c := range tp.Root.Children {
			if other, dup := divergences[c.Title]; dup {
				t.Errorf("%s %s debates %q, as %s does", tp.ID, c.ID, c.Title, other)
			}
			divergences[c.Title] = tp.ID + " " + c.ID
		}
	}
	if len(run.Topics) < 2 {
		t.Fatalf("%d topics, want two that argue their own case", len(run.Topics))
	}
	// A node id, not a colour such as #d29922.
	nodeID := regexp.MustCompile(`(?:^|[^#\w])(d\d+(?:\.\d+)*)\b`)
	path := regexp.MustCompile(`[\w.-]+(/[\w.-]+)+\.md\b`)
	reports, _ := filepath.Glob(filepath.Join(out, "*.md"))
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	reports = append(reports, pages...)
	if len(reports) != 2*(len(run.Topics)+1) {
		t.Fatalf("reports %q, want a Markdown file and a page per topic and for the summary", reports)
	}
	for _, f := range reports {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range nodeID.FindAllStringSubmatch(string(b), -1) {
			if !nodes[m[1]] {
				t.Errorf("%s names node %s, which the run does not have", filepath.Base(f), m[1])
			}
		}
		if i := strings.Index(strings.ToLower(string(b)), "parser"); i >= 0 {
			t.Errorf("%s speaks of a parser, which no topic has: %q", filepath.Base(f), b[max(0, i-60):min(len(b), i+60)])
		}
		for _, p := range path.FindAllString(string(b), -1) {
			copied := slices.ContainsFunc(cfg.SharedContext.Files, func(f string) bool { return render.DocumentFile(f) == p })
			if !slices.Contains(cfg.SharedContext.Files, p) && !copied {
				t.Errorf("%s names the file %s; the config's files are %q", filepath.Base(f), p, cfg.SharedContext.Files)
			}
		}
	}
	// A debater's Go signature, `<-chan Result` and all, reads as written.
	if !slices.ContainsFunc(pages, func(f string) bool {
		b, _ := os.ReadFile(f)
		return strings.Contains(string(b), "(&lt;-chan Result, error)</code>")
	}) {
		t.Error("no page shows the demo's Go signature with its <-chan escaped")
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	for _, p := range cfg.SharedContext.Files {
		if !strings.Contains(string(summary), "### "+p+"\n") {
			t.Errorf("summary.md proposes no edit to %s", p)
		}
	}
}
