package tree

import (
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	forcedWith := func(vs ...Verdict) *Node {
		n := NewNode(RootID, "t", "")
		n.Status = Forced
		n.Judgment = &Judgment{ForcedVerdicts: vs}
		return n
	}
	given := Verdict{DivergenceID: "D1", Recommendation: "do X"}
	budgetCut := forcedWith(given)
	budgetCut.Budget = true
	converged := NewNode(RootID, "t", "")
	converged.Status = Converged
	tests := []struct {
		name     string
		status   Status
		root     *Node
		want     Outcome
		cause    Cause
		verdicts VerdictCount
	}{
		{"converged", Converged, converged, Agreed, "", VerdictCount{}},
		{"forced verdicts given", Forced, forcedWith(given, given), Decided, "", VerdictCount{Given: 2}},
		{"a verdict the judge never gave", Forced, forcedWith(given, Verdict{DivergenceID: "D2", Missing: true}), Undecided, CauseNoVerdict, VerdictCount{Given: 1, Missing: 1}},
		{"every verdict missing", Forced, forcedWith(Verdict{Missing: true}, Verdict{Missing: true}), Undecided, CauseNoVerdict, VerdictCount{Missing: 2}},
		{"a tied panel", Forced, forcedWith(given, Verdict{Split: true}), Divided, "", VerdictCount{Given: 1, Split: 1}},
		{"an unstable check", Forced, forcedWith(Verdict{Recommendation: "x", Unstable: true}), Divided, "", VerdictCount{Split: 1}},
		{"beyond the child limit", Forced, forcedWith(Verdict{OverLimit: true}), Decided, "", VerdictCount{OverLimit: 1}},
		{"cut short by the budget", Forced, budgetCut, Undecided, CauseBudget, VerdictCount{Given: 1}},
		{"missing beats budget", Forced, func() *Node { n := forcedWith(Verdict{Missing: true}); n.Budget = true; return n }(), Undecided, CauseNoVerdict, VerdictCount{Missing: 1}},
		{"a debater missing", Partial, forcedWith(given), Undecided, CausePartial, VerdictCount{Given: 1}},
		{"failed beats every verdict", Failed, forcedWith(given), Undecided, CauseFailed, VerdictCount{Given: 1}},
		{"interrupted", Interrupted, converged, Undecided, CauseInterrupted, VerdictCount{}},
		{"never started", Pending, nil, Undecided, CauseInterrupted, VerdictCount{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			topic := Topic{Status: tt.status, Root: tt.root}
			topic.Settle()
			if topic.Decision != tt.want || topic.Cause != tt.cause {
				t.Errorf("decision %s (%s), want %s (%s)", topic.Decision, topic.Cause, tt.want, tt.cause)
			}
			if topic.Verdicts != tt.verdicts {
				t.Errorf("verdicts %+v, want %+v", topic.Verdicts, tt.verdicts)
			}
		})
	}
}

func TestParseOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, err string
	}{
		{"split,undecided", "split undecided", ""},
		{" split , split,", "split", ""},
		{"", "", ""},
		{"forced", "", `"forced" is not a decision: want any of agreed, decided, split, undecided`},
	}
	for _, tt := range tests {
		got, err := ParseOutcomes(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseOutcomes(%q) error %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		var words []string
		for _, o := range got {
			words = append(words, string(o))
		}
		if err != nil || strings.Join(words, " ") != tt.want {
			t.Errorf("ParseOutcomes(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

// TestVerdictGiven: a verdict is given when CountVerdicts counts it so,
// and only then.
func TestVerdictGiven(t *testing.T) {
	t.Parallel()
	for _, v := range []Verdict{{}, {Missing: true}, {OverLimit: true}, {Split: true}, {Unstable: true}, {Missing: true, Split: true}} {
		n := &Node{Judgment: &Judgment{ForcedVerdicts: []Verdict{v}}}
		if counted := n.CountVerdicts().Given == 1; v.Given() != counted {
			t.Errorf("%+v: Given() %v, but CountVerdicts counts it given: %v", v, v.Given(), counted)
		}
	}
}
