package output

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/tree"
)

// motionRun is a run of one topic-less motion closed by a resolution.
func motionRun() *tree.Run {
	at := time.Date(2026, 2, 7, 9, 30, 0, 0, time.UTC)
	arg := func(seq int, typ, role, parent, state, content string) tree.MotionArgument {
		return tree.MotionArgument{ID: "arg-" + string(rune('0'+seq)), Seq: seq, Type: typ, Role: role, ParentID: parent,
			Content: content, StateAfter: state, Time: at.Add(time.Duration(seq) * time.Minute)}
	}
	m := tree.Motion{
		ID: "webhook-retries", Title: "Retry failed webhook deliveries", Motion: "Adopt the plan.",
		DebateType: "coding_plan_debate", DebateID: "webhook-retries-run1", State: "CLOSED",
		Documents:  []tree.MotionDocument{{Path: "plan.md", DocID: "doc-1", Version: 1}},
		Proposer:   tree.Participant{ID: "proposer", Label: "Proposer", Model: "gpt-5.2"},
		Opponent:   tree.Participant{ID: "opponent", Label: "Opponent", Model: "kimi-k2.5"},
		Arbitrator: tree.Participant{ID: "arbitrator", Label: "Arbitrator", Model: "gpt-5.2"},
		MaxTurns:   8, Turns: 1,
		Arguments: []tree.MotionArgument{
			arg(1, "MOTION", "proposer", "", "AWAITING_OPPONENT", "Adopt the plan <v1> & ship.\n\nDocuments: `doc-1`"),
			arg(2, "CLAIM", "opponent", "arg-1", "AWAITING_PROPOSER", "**C1**: duplicates on retry."),
			arg(3, "RESOLUTION", "proposer", "arg-2", "AWAITING_ARBITRATOR", "C1 fixed with idempotency keys."),
			arg(4, "RULING", "arbitrator", "arg-3", "CLOSED", "Auto-approved: Debate completed as requested by proposer."),
		},
		Status: tree.Converged, StopReason: "the proposer resolved the debate (#3); the ruling #4 closed it",
		Usage:     tree.Usage{PromptTokens: 900, CompletionTokens: 120, Calls: 2},
		CreatedAt: at, UpdatedAt: at.Add(4 * time.Minute),
	}
	m.Arguments[1].Reasoning = "Retries re-send the same event; receivers are not idempotent."
	return &tree.Run{
		SchemaVersion: tree.SchemaVersion, StartedAt: at, FinishedAt: at.Add(5 * time.Minute),
		Motions: []tree.Motion{m}, Usage: m.Usage,
	}
}

func TestRunJSONMotion(t *testing.T) {
	run := motionRun()
	body, err := EncodeRun(run)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "run_motions.json"), body)
	for _, want := range []string{`"topics": []`, `"fallbacks": []`, `"debateId": "webhook-retries-run1"`, `"parentId": "arg-1"`, `"time": "2026-02-07T09:32:00Z"`, "<v1> & ship"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("run.json lacks %s", want)
		}
	}
	back, err := DecodeRun(body)
	if err != nil {
		t.Fatal(err)
	}
	again, err := EncodeRun(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, body) {
		t.Errorf("decode → encode differs:\n%s", golden.Diff(string(body), string(again)))
	}
	if got := back.Motions[0]; got.Arguments[3].Content != run.Motions[0].Arguments[3].Content || !got.Arguments[1].Time.Equal(run.Motions[0].Arguments[1].Time) ||
		got.Arguments[1].Reasoning != run.Motions[0].Arguments[1].Reasoning {
		t.Errorf("decoded motion %+v", got)
	}
	// Only the argument with reasoning has the field.
	if n := strings.Count(string(body), `"reasoning": `); n != 1 {
		t.Errorf("run.json has %d reasoning fields, want 1", n)
	}
	if run.Motions[0].Fallbacks != nil {
		t.Error("EncodeRun modified its argument")
	}
}

func TestWriteMotions(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir, motionRun(), Options{Formats: []string{"markdown", "html"}})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range paths {
		rel = append(rel, filepath.Base(p))
	}
	want := []string{"motion-webhook-retries-retry-failed-webhook-deliveries.md", "summary.md",
		"motion-webhook-retries-retry-failed-webhook-deliveries.html", "summary.html", "run.json"}
	if !slices.Equal(rel, want) {
		t.Fatalf("wrote %q, want %q", rel, want)
	}
	md, err := os.ReadFile(filepath.Join(dir, want[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# Retry failed webhook deliveries", "- **Status:** resolved ✓", "**#3 RESOLUTION**", "## State timeline"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("motion report lacks %q", s)
		}
	}
	if strings.Contains(string(md), "receivers are not idempotent") {
		t.Error("the Markdown motion report shows reasoning; a topic's does not")
	}
	page, err := os.ReadFile(filepath.Join(dir, want[2]))
	if err != nil || !strings.Contains(string(page), "<html") || strings.Contains(string(page), "<v1>") {
		t.Errorf("motion page: %v, raw model HTML kept: %v", err, strings.Contains(string(page), "<v1>"))
	}
	if !strings.Contains(string(page), `<details class="reasoning">`) || !strings.Contains(string(page), "receivers are not idempotent") {
		t.Error("the motion page does not fold the opponent's reasoning")
	}
}

func TestMotionFile(t *testing.T) {
	if got := MotionFile(&tree.Motion{ID: "m/1", Title: "Ünïcode & plans"}); got != "motion-m-1-unicode-plans.md" {
		t.Errorf("MotionFile = %q", got)
	}
}
