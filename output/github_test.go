package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/ghrunner"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// TestAnnotation: a failed topic is an error on the run's page, a split or
// another undecided one a warning, the rest nothing; the runner reads back
// exactly the title and message, which are plain text.
func TestAnnotation(t *testing.T) {
	t.Parallel()
	failed := tree.NewNode(tree.RootID, "t", "")
	failed.Status, failed.StopReason = tree.Failed, "no debater answered the position step"
	converged := tree.NewNode(tree.RootID, "t", "")
	converged.Status = tree.Converged
	tests := []struct {
		name         string
		topic        tree.Topic
		level, title string
		msg          string
	}{
		{"failed", tree.Topic{ID: "db", Title: "A, B: or C?\n100%", Status: tree.Failed, Root: failed},
			"error", "debate: db undecided (failed)",
			"db (A, B: or C?\n100%) is undecided (failed): Node root failed (no debater answered the position step); the debate stopped there."},
		{"agreed", tree.Topic{ID: "ok", Title: "Fine", Status: tree.Converged, Root: converged}, "", "", ""},
		{"interrupted", tree.Topic{ID: "cut", Title: "Cut", Status: tree.Interrupted, Root: converged},
			"warning", "debate: cut undecided (interrupted)", "cut (Cut) is undecided (interrupted): The run was stopped before this topic ended."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.topic.Settle()
			var out bytes.Buffer
			g := NewGitHub(&out, &out, vars{"GITHUB_ACTIONS": "true"}.getenv)
			if err := g.Report(&tree.Run{Topics: []tree.Topic{tt.topic}}, nil, nil, true); err != nil {
				t.Fatal(err)
			}
			cmds := ghrunner.Commands(out.String())
			if tt.level == "" {
				if len(cmds) != 0 {
					t.Errorf("annotations %+v, want none", cmds)
				}
				return
			}
			if len(cmds) != 1 || cmds[0].Name != tt.level || cmds[0].Properties["title"] != tt.title || cmds[0].Data != tt.msg {
				t.Errorf("the runner reads %+v from\n%s\nwant %s title=%q: %q", cmds, out.String(), tt.level, tt.title, tt.msg)
			}
		})
	}
}

// vars is an environment for tests.
type vars map[string]string

func (v vars) getenv(k string) (string, bool) { s, ok := v[k]; return s, ok }

// TestLogNeutralises: whatever text goes through a runner's stdout or
// stderr, in one write or split anywhere, the runner finds no command in
// it, and reads every line of text as it was written (but for zero-width
// spaces); the commands debate writes itself come through whole, on lines
// of their own, even in the middle of an unfinished line.
func TestLogNeutralises(t *testing.T) {
	t.Parallel()
	text := strings.Join(ghrunner.Injections, "\n") + "\n"
	for _, chunk := range []int{0, 1, 2, 3, 7} {
		var out bytes.Buffer
		g := NewGitHub(&out, &out, vars{"GITHUB_ACTIONS": "true"}.getenv)
		w := g.Stderr()
		parts := split(text, chunk)
		for i, part := range parts {
			w.Write([]byte(part))
			if i == len(parts)/2 {
				g.Command("warning", []Property{{"title", "own, title: 1"}}, "own ##[add-mask] message\n::error::not a second")
			}
		}
		w.Write([]byte("unfinished ##"))
		g.Command("error", nil, "last")
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		cmds := ghrunner.Commands(out.String())
		if len(cmds) != 2 || cmds[0].Name != "warning" || cmds[0].Properties["title"] != "own, title: 1" ||
			cmds[0].Data != "own ##[add-mask] message\n::error::not a second" || cmds[1].Name != "error" || cmds[1].Data != "last" {
			t.Errorf("writes of %d bytes: the runner reads %+v in\n%s", chunk, cmds, out.String())
		}
		plain := strings.ReplaceAll(out.String(), "\u200b", "")
		for _, line := range ghrunner.Lines(text) {
			if !strings.Contains(plain, line) {
				t.Errorf("writes of %d bytes: the line %q is lost in\n%s", chunk, line, plain)
			}
		}
	}
}

// split cuts s into pieces of n bytes; 0 keeps it whole.
func split(s string, n int) []string {
	if n == 0 {
		return []string{s}
	}
	var parts []string
	for len(s) > n {
		parts, s = append(parts, s[:n]), s[n:]
	}
	return append(parts, s)
}

// TestLogLongLine: a line longer than what the log holds back, white space
// or number signs up to the cut, still carries no command.
func TestLogLongLine(t *testing.T) {
	t.Parallel()
	for _, head := range []string{" ", "#", ":"} {
		var out bytes.Buffer
		g := NewGitHub(&out, &out, vars{"GITHUB_ACTIONS": "true"}.getenv)
		g.Stdout().Write([]byte(strings.Repeat(head, maxPending+1)))
		g.Stdout().Write([]byte(":error::X ##[add-mask]Y"))
		g.Stdout().Write([]byte("#[add-mask]Z\n"))
		g.Close()
		if cmds := ghrunner.Commands(out.String()); len(cmds) != 0 {
			t.Errorf("a long line of %q: the runner reads %+v", head, cmds)
		}
	}
}

// TestOffRunner: off a runner, text goes out as written and no command is
// written.
func TestOffRunner(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	g := NewGitHub(&out, &out, vars{}.getenv)
	g.Stdout().Write([]byte("::error::X\n"))
	g.Command("error", nil, "own")
	if out.String() != "::error::X\n" {
		t.Errorf("output %q", out.String())
	}
}

// TestSetOutputs: every output is written in the multi-line form with a
// delimiter of its own, so that a value holding line breaks and
// "name=value" lines sets nothing else.
func TestSetOutputs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "output")
	g := NewGitHub(&bytes.Buffer{}, &bytes.Buffer{}, vars{"GITHUB_OUTPUT": path}.getenv)
	hostile := "t1\n::error::X\ndecision-counts={}"
	if err := g.SetOutputs([]Property{{"failed-topics", hostile}, {"decision-counts", `{"agreed":1}`}}); err != nil {
		t.Fatal(err)
	}
	got := readOutputFile(t, path)
	if len(got) != 2 || got["failed-topics"] != hostile || got["decision-counts"] != `{"agreed":1}` {
		t.Errorf("outputs %q", got)
	}
	g.delimiter = func() string { return "EOF" }
	if err := g.SetOutputs([]Property{{"x", "a\nEOF\ny=1"}}); err == nil {
		t.Error("a value holding its delimiter was written")
	}
	if err := g.SetOutputs([]Property{{"x\ny", "1"}}); err == nil {
		t.Error("a name with a line break was written")
	}
}

// readOutputFile reads a $GITHUB_OUTPUT file as the runner does.
func readOutputFile(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ghrunner.Outputs(string(b))
}

// FuzzLog: no text written through a runner's log reads as a command.
func FuzzLog(f *testing.F) {
	for _, s := range ghrunner.Injections {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, text string, chunk int) {
		var out bytes.Buffer
		g := NewGitHub(&out, &out, vars{"GITHUB_ACTIONS": "true"}.getenv)
		for _, part := range split(text, chunk&15) {
			g.Stderr().Write([]byte(part))
		}
		g.Close()
		if cmds := ghrunner.Commands(out.String()); len(cmds) != 0 {
			t.Errorf("the runner reads %+v in %q", cmds, out.String())
		}
	})
}

// TestLogKeepsJSON: JSON printed on a runner (an agent command's answer,
// run.json with --output -) carries no command, and decodes to the same
// value, long strings included.
func TestLogKeepsJSON(t *testing.T) {
	t.Parallel()
	value := map[string]any{"texts": ghrunner.Injections, "long": strings.Repeat("x##[add-mask]y ", maxPending/8)}
	for _, indent := range []string{"", "  "} {
		want, err := json.MarshalIndent(value, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		g := NewGitHub(&out, &out, vars{"GITHUB_ACTIONS": "true"}.getenv)
		for _, part := range split(string(want)+"\n", 4096) {
			g.Stdout().Write([]byte(part))
		}
		g.Close()
		if cmds := ghrunner.Commands(out.String()); len(cmds) != 0 {
			t.Errorf("indent %q: the runner reads %+v", indent, cmds)
		}
		var got, orig any
		json.Unmarshal(want, &orig)
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || !reflect.DeepEqual(got, orig) {
			t.Errorf("indent %q: the JSON changed (%v)", indent, err)
		}
	}
}

// TestStepSummaryOrderCheck: a verdict the order check dropped is counted
// in a column of its own, never as one the judge did not give; without
// one, the table has no such column.
func TestStepSummaryOrderCheck(t *testing.T) {
	t.Parallel()
	dropped := tree.Verdict{Missing: true, Votes: []tree.Vote{{Judge: "reviewer", Status: tree.VoteDropped,
		Reason: tree.OrderCheckReason + ": no verdict on this divergence"}}}
	for _, tt := range []struct {
		name     string
		verdict  func(v tree.Verdict) tree.Verdict
		row, not string
	}{
		{"dropped by the order check", func(v tree.Verdict) tree.Verdict { dropped.DivergenceID = v.DivergenceID; return dropped },
			"| undecided (no-verdict) | 1 | 0 | 1 |", "| 1 | 1 |"},
		{"not given", func(v tree.Verdict) tree.Verdict { v.Missing = true; return v },
			"| undecided (no-verdict) | 1 | 1 | ", "dropped by the order check"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := rendertest.Forced()
			topic := &run.Topics[0]
			done := false
			topic.Root.Walk(func(n *tree.Node) {
				if !done && n.Judgment != nil && len(n.Judgment.ForcedVerdicts) > 0 {
					n.Judgment.ForcedVerdicts[0] = tt.verdict(n.Judgment.ForcedVerdicts[0])
					done = true
				}
			})
			topic.Settle()
			s := stepSummary(run, nil, "")
			if !strings.Contains(s, tt.row) || strings.Contains(s, tt.not) {
				t.Errorf("want %q and not %q in:\n%s", tt.row, tt.not, s)
			}
		})
	}
}
