package orchestrator

import (
	"context"
	"testing"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestSay checks that the engine words the reasons it records with the
// Sayer it is given, and by their codes without one: the engine itself
// words nothing.
func TestSay(t *testing.T) {
	t.Parallel()
	shout := func(why ...tree.Reason) string { return "SAID " + codes(why...) }
	tests := []struct {
		name string
		say  Sayer
		want string
	}{
		{"none", nil, "no-divergence-among; missing(Party B)"},
		{"given", shout, "SAID no-divergence-among; missing(Party B)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &script{words: 5}
			s.fail = func(r providers.Request) error {
				if r.Participant == "party-b" {
					return unavailable
				}
				return nil
			}
			run, err := newEngine(testConfig(2, "t1"), completer(s.answer), promptSet(t), Options{Say: tt.say}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			root := run.Topics[0].Root
			if root.StopReason != tt.want {
				t.Errorf("stop reason %q, want %q", root.StopReason, tt.want)
			}
			if len(root.Because) != 2 || root.Because[0].Code != tree.NoDivergenceAmong || root.Because[1].Code != tree.MissingDebaters {
				t.Errorf("because %+v, want the codes whatever the words", root.Because)
			}
		})
	}
}
