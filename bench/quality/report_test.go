package quality

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/tree"
)

// TestReportGolden pins the report a person reads and the JSON CI reads,
// for a run of four problems stopped by the budget.
func TestReportGolden(t *testing.T) {
	t.Parallel()
	m := newMeasure(arms)
	ps := []Problem{{ID: "1", Answer: "4"}, {ID: "2", Answer: "9"}, {ID: "3", Answer: "paris"}, {ID: "4", Answer: "0"}}
	call := func(answer string, read bool) outcome {
		return outcome{answer: answer, read: read, usage: tree.Usage{PromptTokens: 40, CompletionTokens: 10, Calls: 1, Cost: 0.001}}
	}
	run := tree.Usage{PromptTokens: 900, CompletionTokens: 300, Calls: 7, Cost: 0.02}
	rows := []struct {
		asked             []outcome
		concluded, voted  string
		concludedReadable bool
	}{
		{[]outcome{call("4", true), call("5", true), call("4.0", true)}, "4", "4", true},
		{[]outcome{call("8", true), call("9", true), call("9", true)}, "9", "9", true},
		{[]outcome{call("", false), call("Paris", true), call("Lyon", true)}, "", "PARIS", false},
		{[]outcome{call("1", true), call("2", true), call("3", true)}, "0", "1", true},
	}
	for i, r := range rows {
		m.add(ps[i], 7, r.asked, debated{
			concluded: outcome{answer: r.concluded, read: r.concludedReadable, usage: run},
			lastVote:  outcome{answer: r.voted, read: true, usage: run},
		})
	}
	rep := m.report(7)
	rep.Task, rep.Problems, rep.Stopped, rep.WallMS = "arithmetic", 10, "budget.maxTokens (5000) spent", 1234
	golden.Assert(t, filepath.Join("testdata", "report.txt"), []byte(rep.Text()))
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "report.json"), append(b, '\n'))
}
