package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// firstRead returns a run of n topics of three debaters whose judge
// favoured, each time, the debater it read first.
func firstRead(n int) *tree.Run {
	run := &tree.Run{Judge: tree.Participant{ID: "j", Model: "judge-model"}, Debaters: []tree.Participant{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
	orders := [][]string{{"a", "b", "c"}, {"b", "c", "a"}, {"c", "a", "b"}}
	for i := range n {
		read := orders[i%3]
		root := tree.NewNode(tree.RootID, "t", "")
		for j, id := range read {
			root.Positions[id] = strings.Repeat("x", 10+j)
		}
		root.Judgment = &tree.Judgment{Divergences: []tree.Divergence{{ID: "d1", Sides: map[string]string{"a": "x", "b": "y", "c": "z"}}},
			ForcedVerdicts: []tree.Verdict{{DivergenceID: "d1", Favors: read[0], Read: read}}}
		run.Topics = append(run.Topics, tree.Topic{ID: fmt.Sprintf("t%d", i), Root: root})
	}
	run.Tally()
	return run
}

// TestAuditTooFewVerdicts: 2 of 2 verdicts for the debater read first,
// where a judge without bias gives 1/3, are not flagged, and the audit
// says why in either language; 40 of 40 are flagged and need no such word.
func TestAuditTooFewVerdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		verdicts int
		lang     string
		want     string
		flagged  bool
	}{
		{2, "en", "> 2 verdicts cannot show a bias at 95 %: no check is flagged from fewer than 4.", false},
		{1, "en", "> 1 verdict cannot show a bias at 95 %: no check is flagged from fewer than 4.", false},
		{2, "zh", "> 2 条裁决不足以在 95% 水平上显示偏差：少于 4 条时不标记任何检查。", false},
		{40, "en", "> ⚠ judge-model: Favoured the debater read first in 40 of 40 verdicts (95 % interval 91–100 %; 33 % expected under no bias)", true},
	}
	for _, tt := range tests {
		run := firstRead(tt.verdicts)
		got := string(Audit(run.Stances, run.Audit, tt.lang))
		if !strings.Contains(got, tt.want) {
			t.Errorf("%d verdicts (%s): the audit lacks %q:\n%s", tt.verdicts, tt.lang, tt.want, got)
		}
		if flagged := strings.Contains(got, "> ⚠"); flagged != tt.flagged {
			t.Errorf("%d verdicts (%s): flagged %v, want %v:\n%s", tt.verdicts, tt.lang, flagged, tt.flagged, got)
		}
		if tt.flagged && strings.Contains(got, "cannot show a bias") {
			t.Errorf("%d verdicts: the audit says they are too few:\n%s", tt.verdicts, got)
		}
	}
}
