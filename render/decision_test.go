package render

import (
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// forcedTopic is the forced fixture's topic (two forced nodes, a verdict
// each) with the first forced node edited.
func forcedTopic(t *testing.T, edit func(n *tree.Node)) (*tree.Run, *tree.Topic) {
	t.Helper()
	run := rendertest.Forced()
	topic := &run.Topics[0]
	done := false
	topic.Root.Walk(func(n *tree.Node) {
		if !done && n.Judgment != nil && len(n.Judgment.ForcedVerdicts) > 0 {
			edit(n)
			done = true
		}
	})
	topic.Settle()
	return run, topic
}

func TestDecisionParagraph(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(n *tree.Node)
		want []string
		not  []string
	}{
		{"judge's verdicts", func(*tree.Node) {}, []string{
			"**Decision: decided** — Settled by the judge's forced verdicts (2): *Replicate custom prices",
		}, []string{"Still in dispute"}},
		{"no verdict given", func(n *tree.Node) {
			v := &n.Judgment.ForcedVerdicts[0]
			*v = tree.Verdict{DivergenceID: v.DivergenceID, Missing: true}
		}, []string{
			"**Decision: undecided (no-verdict)** — The judge gave no verdict, even after repair, on 1 of 2 forced divergences: *",
			"Settled by the judge's forced verdicts (1): ",
		}, nil},
		{"a tied panel", func(n *tree.Node) {
			n.Judgment.ForcedVerdicts[0].Split = true
			n.Judgment.ForcedVerdicts[0].Votes = []tree.Vote{{Judge: "reviewer", Status: tree.VoteCounted, Favors: "party-a"}}
		}, []string{"**Decision: split** — Settled by the panel's majority votes (1): *Base catalogue residency*", "No majority, or a verdict that changed with the order of the sides (1): *"}, nil},
		{"cut by the budget", func(n *tree.Node) { n.Budget = true }, []string{
			"**Decision: undecided (budget)** — The run's budget forced verdicts before the round limit at d",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, topic := forcedTopic(t, tt.edit)
			md := string(Topic(run, topic))
			sum := string(Summary(run, nil))
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("report lacks %q", w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(md, w) {
					t.Errorf("report holds %q", w)
				}
			}
			// The report and the summary open with the decision: before
			// the first round, and before the statistics.
			if i, j := strings.Index(md, "**Decision:"), strings.Index(md, "## Round 1"); i < 0 || i > j {
				t.Errorf("the decision (at %d) does not come before round 1 (at %d)", i, j)
			}
			if i, j := strings.Index(sum, "## Decisions"), strings.Index(sum, "> - **Tokens:"); i < 0 || i > j {
				t.Errorf("the summary's decisions (at %d) do not come before its statistics (at %d)", i, j)
			}
		})
	}
}

func TestSummaryCountsMissingVerdictsApart(t *testing.T) {
	t.Parallel()
	run, _ := forcedTopic(t, func(n *tree.Node) { n.Judgment.ForcedVerdicts[0].Missing = true })
	sum := string(Summary(run, nil))
	for _, want := range []string{"1 undecided", "| undecided | 3 | 4 | 6 | 1 + 1 missing |"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
}

// TestOrderCheckDropped: a verdict the order check dropped (the judge
// answered, then gave none with the sides reversed) is named as such in
// the decision, the verdict list, JUnit and the plain text of annotations,
// never as a verdict the judge did not give.
func TestOrderCheckDropped(t *testing.T) {
	t.Parallel()
	run, topic := forcedTopic(t, func(n *tree.Node) {
		v := &n.Judgment.ForcedVerdicts[0]
		*v = tree.Verdict{DivergenceID: v.DivergenceID, Missing: true, Votes: []tree.Vote{{Judge: "reviewer",
			Status: tree.VoteDropped, Reason: tree.OrderCheckReason + ": no verdict on this divergence", Favors: "party-a"}}}
	})
	junit, err := JUnit(run, []tree.Outcome{tree.Undecided}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"report": string(Topic(run, topic)), "summary": string(Summary(run, nil)),
		"junit": string(junit), "annotation": DecisionPlain(run, topic),
	} {
		if !strings.Contains(text, "The order check dropped the verdict on 1 of 2 forced divergences") || strings.Contains(text, "even after repair") {
			t.Errorf("%s does not name the dropped verdict:\n%s", name, text)
		}
	}
	if md := string(Topic(run, topic)); !strings.Contains(md, "⚠ dropped by the order check") {
		t.Errorf("the verdict list does not say the order check dropped it:\n%s", md)
	}
	// In Chinese too, and the vote is never said to have failed: the
	// judge answered.
	run.Language = "zh"
	if md := string(Topic(run, topic)); !strings.Contains(md, "被顺序检查舍弃") || strings.Contains(md, "调用失败") {
		t.Errorf("the Chinese report does not say the order check dropped the vote, or says its call failed:\n%s", md)
	}
}

// TestSummaryCountsOrderCheckDropped: the summary's table counts a verdict
// the order check dropped in words of its own, in each language, apart
// from one the judge did not give, in a topic's row and in the total.
func TestSummaryCountsOrderCheckDropped(t *testing.T) {
	t.Parallel()
	dropped := func(v *tree.Verdict) {
		*v = tree.Verdict{DivergenceID: v.DivergenceID, Missing: true, Votes: []tree.Vote{{Judge: "reviewer",
			Status: tree.VoteDropped, Because: []tree.Reason{tree.Because(tree.OrderCheckNone)}, Favors: "party-a"}}}
	}
	tests := []struct {
		name, language string
		edit           func(n *tree.Node)
		row, total     string
	}{
		{"dropped", "en", func(n *tree.Node) { dropped(&n.Judgment.ForcedVerdicts[0]) },
			"| 1 + 1 dropped by the order check |", "| 2 + 2 dropped by the order check |"},
		{"dropped, in Chinese", "zh", func(n *tree.Node) { dropped(&n.Judgment.ForcedVerdicts[0]) },
			"| 1 + 被顺序检查舍弃 1 |", "| 2 + 被顺序检查舍弃 2 |"},
		{"missing and dropped", "en", func(n *tree.Node) {
			n.Judgment.ForcedVerdicts = append(n.Judgment.ForcedVerdicts, n.Judgment.ForcedVerdicts[0])
			dropped(&n.Judgment.ForcedVerdicts[0])
			n.Judgment.ForcedVerdicts[1].Missing = true
		}, "| 1 + 1 missing + 1 dropped by the order check |", "| 2 + 2 missing + 2 dropped by the order check |"},
		{"missing and dropped, in Chinese", "zh", func(n *tree.Node) {
			n.Judgment.ForcedVerdicts = append(n.Judgment.ForcedVerdicts, n.Judgment.ForcedVerdicts[0])
			dropped(&n.Judgment.ForcedVerdicts[0])
			n.Judgment.ForcedVerdicts[1].Missing = true
		}, "| 1 + 缺失 1 + 被顺序检查舍弃 1 |", "| 2 + 缺失 2 + 被顺序检查舍弃 2 |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, _ := forcedTopic(t, tt.edit)
			run.Language = tt.language
			// A second topic, so that the table has a total row.
			run.Topics = append(run.Topics, run.Topics[0])
			run.Topics[1].ID = "t2"
			sum := string(Summary(run, nil))
			if n := strings.Count(sum, tt.row); n != 2 {
				t.Errorf("summary holds %q %d times, want once in each topic's row:\n%s", tt.row, n, sum)
			}
			if !strings.Contains(sum, tt.total) {
				t.Errorf("summary's total lacks %q:\n%s", tt.total, sum)
			}
			if tt.name == "missing and dropped" {
				// The longest verdict cell: TestReportsFitWindow measures its page.
				page, err := SummaryHTML(run, nil)
				if err != nil {
					t.Fatal(err)
				}
				golden.Assert(t, filepath.Join("testdata", "page_order_check_summary.html"), page)
			}
		})
	}
}

// TestJUnitPlainText: JUnit's messages and texts are plain text with the
// reports' decision words: no Markdown emphasis, no backslash escapes.
func TestJUnitPlainText(t *testing.T) {
	t.Parallel()
	run, _ := forcedTopic(t, func(n *tree.Node) {
		v := &n.Judgment.ForcedVerdicts[0]
		v.Recommendation = "Return Vec<String> | never *panic*"
	})
	b, err := JUnit(run, []tree.Outcome{tree.Decided}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Failure struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Cases) == 0 {
		t.Fatalf("junit.xml: %v\n%s", err, b)
	}
	f := doc.Cases[0].Failure
	for _, s := range []string{f.Message, f.Text} {
		if !strings.Contains(s, "Return Vec<String> | never panic") || strings.ContainsAny(s, `*\`) {
			t.Errorf("not plain text: %q", s)
		}
	}
	if !strings.HasPrefix(f.Message, "decided: ") {
		t.Errorf("message %q does not open with the decision word", f.Message)
	}
}
