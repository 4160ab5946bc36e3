package render

import (
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// motionFixture turns the rows of an argument case into a played motion.
func motionFixture(id, caseName string, status tree.Status, reason string) tree.Motion {
	var rows []argRow
	var title string
	for _, c := range argCases {
		if c.name == caseName {
			rows, title = c.rows, c.title
		}
	}
	d, args := argFixture(id+"-run1", title, rows)
	m := tree.Motion{
		ID: id, Title: title, Motion: "Adopt the plan.", DebateType: string(d.Type), DebateID: d.ID,
		State: string(d.State), CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
		Documents:  []tree.MotionDocument{{Path: "plan.md", DocID: "doc-1", Version: 1}},
		Proposer:   tree.Participant{ID: "proposer", Label: "Proposer", Model: "gpt-5.2"},
		Opponent:   tree.Participant{ID: "opponent", Label: "Opponent", Model: "kimi-k2.5", Fallback: "gpt-5.2"},
		Arbitrator: tree.Participant{ID: "arbitrator", Label: "Arbitrator", Model: tree.HumanModel},
		MaxTurns:   12, Status: status, StopReason: reason,
		Usage: tree.Usage{PromptTokens: 12000, CompletionTokens: 3456, Calls: 4},
	}
	for _, a := range args {
		if a.Role == protocol.Proposer && a.Type != protocol.Motion {
			m.Turns++
		}
		m.Arguments = append(m.Arguments, tree.MotionArgument{
			ID: a.ID, Seq: a.Seq, Type: string(a.Type), Role: string(a.Role), ParentID: a.ParentID,
			Content: a.Content, StateAfter: string(a.StateAfter), Time: a.CreatedAt,
		})
	}
	return m
}

func motionRun() *tree.Run {
	resolved := motionFixture("m1", "resolved", tree.Converged, "the proposer resolved the debate (#5); the ruling #6 closed it")
	resolved.Fallbacks = []tree.Fallback{{Participant: "opponent", From: "kimi-k2.5", To: "gpt-5.2", Node: "turn 1", Reason: "2 consecutive failures"}}
	resolved.Arguments[1].Reasoning = "The key is built from the plan text alone.\nA schema bump keeps the text: <b>stale</b> plans."
	resolved.Arguments[4].Reasoning = "Both points are settled; resolve."
	failed := motionFixture("m2", "branches", tree.Failed, "proposer, turn 2: answer invalid after repair")
	failed.Errors = []tree.MotionError{{Role: "proposer", Turn: 2, Message: `action "shrug": want "claim", "appeal" or "resolution"`, Raw: "{\"action\": \"shrug\"}\n```"}}
	return &tree.Run{
		SchemaVersion: tree.SchemaVersion,
		StartedAt:     time.Date(2026, 2, 7, 9, 29, 0, 0, time.UTC),
		FinishedAt:    time.Date(2026, 2, 7, 9, 45, 0, 0, time.UTC),
		Language:      "en",
		Topics:        []tree.Topic{},
		Motions:       []tree.Motion{resolved, failed},
		Usage:         resolved.Usage.Add(failed.Usage),
	}
}

func TestMotionGolden(t *testing.T) {
	for _, tt := range []struct{ lang, suffix string }{{"en", ""}, {"zh", "_zh"}} {
		t.Run(tt.lang, func(t *testing.T) {
			run := motionRun()
			run.Language = tt.lang
			for i := range run.Motions {
				m := &run.Motions[i]
				md := Motion(run, m)
				golden.Assert(t, "testdata/motion_"+m.ID+tt.suffix+".md", md)
				page, err := MotionHTML(run, m)
				if err != nil {
					t.Fatal(err)
				}
				golden.Assert(t, "testdata/motion_"+m.ID+tt.suffix+".html", page)
			}
			golden.Assert(t, "testdata/motion_summary"+tt.suffix+".md", Summary(run, nil))
		})
	}
}

// TestMotionDeepGolden: a motion whose replies run deeper than the tree
// indents, with an APPEAL on lines of its own, as a report and a page.
func TestMotionDeepGolden(t *testing.T) {
	t.Parallel()
	run := motionRun()
	m := motionFixture("m3", "deep", tree.Forced, "the arbitrator's ruling #11 closed the debate")
	run.Motions = []tree.Motion{m}
	golden.Assert(t, "testdata/motion_deep.md", Motion(run, &m))
	page, err := MotionHTML(run, &m)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/motion_deep.html", page)
}

// TestMotionSummaryWithTopicsGolden: a zh run of topics and motions sums
// both up in Chinese, the motions after the topics' conclusions.
func TestMotionSummaryWithTopicsGolden(t *testing.T) {
	run := rendertest.Chinese()
	run.Motions = motionRun().Motions
	for _, m := range run.Motions {
		run.Usage = run.Usage.Add(m.Usage) // as the engine counts them
	}
	reports, pages := map[string]string{}, map[string]string{}
	for _, id := range []string{run.Topics[0].ID, "m1", "m2"} {
		reports[id], pages[id] = id+".md", id+".html"
	}
	golden.Assert(t, "testdata/motion_summary_topics_zh.md", Summary(run, reports))
	page, err := SummaryHTML(run, pages)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/motion_summary_topics_zh.html", page)
}

// TestMotionReasoningShown: the page folds each argument's reasoning under
// that argument, in the words and the fold of a topic page, escaped; the
// Markdown report, like a topic's, leaves reasoning out.
func TestMotionReasoningShown(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			run := motionRun()
			run.Language = lang
			m := &run.Motions[0]
			b, err := MotionHTML(run, m)
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			fold := fmt.Sprintf("<details class=\"reasoning\">\n<summary>%s</summary>", html.EscapeString(wordsFor(run).modelReasoning))
			if n := strings.Count(page, fold); n != 2 {
				t.Fatalf("%d reasoning folds, want 2 (#2 and #5):\n%s", n, page)
			}
			// Each fold follows its own argument, before the next one.
			for _, c := range []struct{ after, reasoning, before string }{
				{`id="arg-2">` + "\n<h3>#2 CLAIM · opponent", "The key is built from the plan text alone.", `id="arg-3">`},
				{`id="arg-5">` + "\n<h3>#5 RESOLUTION · proposer", "Both points are settled; resolve.", `id="arg-6">`},
			} {
				i, j, k := strings.Index(page, c.after), strings.Index(page, c.reasoning), strings.Index(page, c.before)
				if i < 0 || !(i < j && j < k) || !strings.Contains(page[i:k], fold) {
					t.Errorf("the reasoning %q is not folded between %s (%d) and %s (%d): at %d", c.reasoning, c.after, i, c.before, k, j)
				}
			}
			if strings.Contains(page, "<b>stale</b>") || !strings.Contains(page, "&lt;b&gt;stale&lt;/b&gt;") {
				t.Error("the reasoning's HTML is not shown as text")
			}
			if strings.Contains(string(Motion(run, m)), "plan text alone") {
				t.Error("the Markdown report shows reasoning; a topic's does not")
			}
		})
	}
	// A motion without reasoning has no fold.
	run := motionRun()
	b, err := MotionHTML(run, &run.Motions[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `class="reasoning"`) {
		t.Error("a motion without reasoning shows a reasoning fold")
	}
}

// TestMotionShows checks what a motion report and the summary must make
// visible, independently of the golden files' layout.
func TestMotionShows(t *testing.T) {
	run := motionRun()
	m1 := string(Motion(run, &run.Motions[0]))
	for _, want := range []string{
		"- **Motion:** m1", "- **Opponent:** gpt-5.2 (fell back from kimi-k2.5)", "- **Arbitrator:** a person",
		"- **Status:** resolved ✓", "- **Turns:** 2 of at most 12", "`doc-1` (version 1)", "- **Tokens:** 15,456",
		"## Argument tree", "## State timeline", "- **State:** CLOSED",
	} {
		if !strings.Contains(m1, want) {
			t.Errorf("motion report lacks %q:\n%s", want, m1)
		}
	}
	if strings.Index(m1, "- **Motion:** m1") > strings.Index(m1, "## Argument tree") {
		t.Error("the run's facts are not in the header")
	}
	m2 := string(Motion(run, &run.Motions[1]))
	if !strings.Contains(m2, "## Errors") || !strings.Contains(m2, `action "shrug"`) {
		t.Errorf("failed motion report lacks its errors:\n%s", m2)
	}

	sum := string(Summary(run, nil))
	for _, want := range []string{"## Motions", "| m1 | Cache the plan parser? | resolved ✓ | CLOSED | 2 | 6 |", "| m2 |", "failed",
		"**Final word — #5 RESOLUTION by the proposer:**", "Agreed: key includes schema version"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "Max rounds") || strings.Contains(sum, "Topic conclusions") {
		t.Errorf("a motions-only summary shows topic sections:\n%s", sum)
	}
}
