package render

import (
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/protocol"
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
	run := motionRun()
	for i := range run.Motions {
		m := &run.Motions[i]
		md := Motion(run, m)
		golden.Assert(t, "testdata/motion_"+m.ID+".md", md)
		page, err := HTML(m.Title, md)
		if err != nil {
			t.Fatal(err)
		}
		golden.Assert(t, "testdata/motion_"+m.ID+".html", page)
	}
	golden.Assert(t, "testdata/motion_summary.md", Summary(run, nil))
}

// TestMotionShows checks what a motion report and the summary must make
// visible, independently of the golden files' layout.
func TestMotionShows(t *testing.T) {
	run := motionRun()
	m1 := string(Motion(run, &run.Motions[0]))
	for _, want := range []string{
		"- Motion: m1", "- Opponent: gpt-5.2 (fell back from kimi-k2.5)", "- Arbitrator: a person",
		"- Status: resolved ✓", "- Turns: 2 of at most 12", "`doc-1` (version 1)", "- Tokens: 15,456",
		"## Argument tree", "## State timeline", "- State: CLOSED",
	} {
		if !strings.Contains(m1, want) {
			t.Errorf("motion report lacks %q:\n%s", want, m1)
		}
	}
	if strings.Index(m1, "- Motion: m1") > strings.Index(m1, "## Argument tree") {
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
