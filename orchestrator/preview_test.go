package orchestrator

import (
	"testing"

	"github.com/debatehq/debate/configs"
)

// TestWorstCase: the preview counts the most nodes and calls a topic may
// take, each call with a repair, as the round limit, the divergence cap,
// the panel's verdict calls and the synthesis make them.
func TestWorstCase(t *testing.T) {
	t.Parallel()
	on := true
	tests := []struct {
		name string
		edit func(*configs.Config)
		want WorstCase
	}{
		// 1+5+25 nodes: 31·6 positions and rebuttals, 6 inner triages and 25
		// last-round verdicts, each doubled by its repair.
		{"three rounds", func(*configs.Config) {}, WorstCase{Rounds: 3, Branching: 5, Nodes: 31, Calls: 31*6 + 6*2 + 25*2, VerdictCalls: 1}},
		{"two divergences a node", func(c *configs.Config) { c.Params.MaxRounds, c.Params.MaxDivergences = 2, 2 },
			WorstCase{Rounds: 2, Branching: 2, Nodes: 3, Calls: 3*6 + 1*2 + 2*2, VerdictCalls: 1}},
		{"order check and synthesis", func(c *configs.Config) {
			c.Params.MaxRounds, c.Params.VerdictCheck, c.Params.Synthesis = 1, configs.VerdictCheckSwap, &on
		}, WorstCase{Rounds: 1, Branching: 5, Nodes: 1, Calls: 6 + 2*2 + 1, VerdictCalls: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(3, "t1")
			cfg.Params.MaxDivergences = 5
			tc.edit(cfg)
			pv, err := NewPreview(cfg, promptSet(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			if pv.WorstCase != tc.want {
				t.Errorf("worst case %+v, want %+v", pv.WorstCase, tc.want)
			}
		})
	}
}
