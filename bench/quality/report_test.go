package quality

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/tree"
)

// TestReportGolden pins the report a person reads, on a terminal of 80
// columns and on a narrower one, and the JSON CI reads: for a run of four
// problems stopped by the budget, and for models that never write an
// answer line. No line is wider than the terminal.
func TestReportGolden(t *testing.T) {
	t.Parallel()
	call := func(answer string, read bool) outcome {
		o := outcome{answer: answer, read: read, usage: tree.Usage{PromptTokens: 40, CompletionTokens: 10, Calls: 1, Cost: 0.001}}
		if !read {
			o.sample = sample("Let me think.\nThe result is twelve, I believe, after working it all out carefully.")
		}
		return o
	}
	type row struct {
		asked             []outcome
		concluded, voted  string
		concludedReadable bool
		judge             string // the judge's answer alone, with passages
	}
	tests := []struct {
		name    string
		rows    []row
		stopped string
		demo    bool
		passage bool
	}{
		{"report", []row{
			{[]outcome{call("4", true), call("5", true), call("4.0", true)}, "4", "4", true, ""},
			{[]outcome{call("8", true), call("9", true), call("9", true)}, "9", "9", true, ""},
			{[]outcome{call("", false), call("Paris", true), call("Lyon", true)}, "", "PARIS", false, ""},
			{[]outcome{call("1", true), call("2", true), call("3", true)}, "0", "1", true, ""},
		}, "budget.maxTokens (5000) spent", false, false},
		{"demo", []row{
			{[]outcome{call("4", true), call("5", true), call("4", true)}, "4", "4", true, ""},
			{[]outcome{call("9", true), call("9", true), call("7", true)}, "9", "9", true, ""},
		}, "", true, false},
		{"no-answer-line", []row{
			{[]outcome{call("", false), call("", false), call("", false)}, "", "", false, ""},
			{[]outcome{call("", false), call("", false), call("", false)}, "", "", false, ""},
		}, "", false, false},
		{"passage", []row{
			{[]outcome{call("4", true), call("5", true), call("4", true)}, "4", "4", true, "17"},
			{[]outcome{call("9", true), call("9", true), call("7", true)}, "9", "9", true, "9"},
			{[]outcome{call("3", true), call("2", true), call("2", true)}, "paris", "2", true, "40"},
		}, "", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			names := arms
			if tc.passage {
				names = append(slices.Clone(arms), ArmJudgeAlone)
			}
			m := newMeasure(names)
			ps := []Problem{{ID: "1", Answer: "4"}, {ID: "2", Answer: "9"}, {ID: "3", Answer: "paris"}, {ID: "4", Answer: "0"}}
			run := tree.Usage{PromptTokens: 900, CompletionTokens: 300, Calls: 7, Cost: 0.02}
			for i, r := range tc.rows {
				d := debated{
					concluded: outcome{answer: r.concluded, read: r.concludedReadable, usage: run},
					lastVote:  outcome{answer: r.voted, read: r.voted != "", usage: run},
				}
				if !d.concluded.read {
					d.concluded.sample = "(topic converged: all debaters agreed)"
				}
				if !d.lastVote.read {
					d.lastVote.sample = `"I would rather not say."`
				}
				if tc.passage {
					// The second debater misquotes the passage; the others quote it right.
					for k := range r.asked {
						r.asked[k].quotes = tree.QuoteCount{Made: 1, Verified: 1}
					}
					r.asked[1].quotes = tree.QuoteCount{Made: 1, Unverified: 1}
					d.concluded.quotes = tree.QuoteCount{Made: 3, Verified: 2, Unverified: 1}
					d.lastVote.quotes = d.concluded.quotes
					d.judge = call(r.judge, true)
				}
				m.add(ps[i], 7, r.asked, d)
			}
			rep := m.report(7)
			rep.Task, rep.Problems, rep.Stopped, rep.WallMS = "arithmetic", 10, tc.stopped, 1234
			if tc.demo {
				single, vote := 0.6, VoteAccuracy(3, 0.6)
				rep.Demo = &DemoParams{Agents: 3, AgentAccuracy: 0.6, Conformity: 0.5}
				if tc.passage {
					q := 0.8
					rep.Task, rep.Demo.QuoteAccuracy = "passage", &q
				}
				rep.Arms[0].Expected, rep.Arms[1].Expected = &single, &vote
			}
			for _, width := range []int{TableColumns, 60} {
				text := rep.Format(width)
				golden.Assert(t, filepath.Join("testdata", fmt.Sprintf("%s-%d.txt", tc.name, width)), []byte(text))
				for _, line := range strings.Split(text, "\n") {
					if n := utf8.RuneCountInString(line); n > width {
						t.Errorf("a line of %d columns on a terminal of %d: %q", n, width, line)
					}
				}
			}
			b, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", tc.name+".json"), append(b, '\n'))
		})
	}
}

// TestReading: the reading line follows the interval of debate − vote, and
// sends the reader to the warnings first when there are any.
func TestReading(t *testing.T) {
	t.Parallel()
	tests := []struct {
		low, high float64
		warned    bool
		want      string
	}{
		{0.05, 0.2, false, "debate − vote is above 0: debating beat a vote"},
		{-0.2, -0.01, false, "debate − vote is below 0: a vote beat debating"},
		{-0.1, 0.1, false, "debate − vote holds 0: 50 problems cannot tell debate from a vote"},
		{0.05, 0.2, true, "fix the unreadable answers first"},
	}
	for _, tc := range tests {
		r := &Report{Measured: 50, Diffs: []Diff{{Arm: ArmDebate, Baseline: ArmVote, Interval: Interval{Low: tc.low, High: tc.high}}}}
		if tc.warned {
			r.Warnings = []Warning{{Arm: ArmSingle}}
		}
		if got := r.Reading(); !strings.Contains(got, tc.want) || utf8.RuneCountInString(got) > TableColumns {
			t.Errorf("interval %v–%v, warned %v: %q, want %q within %d columns", tc.low, tc.high, tc.warned, got, tc.want, TableColumns)
		}
	}
}
