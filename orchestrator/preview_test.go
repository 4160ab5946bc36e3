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
		// 1+3+9 nodes: 13·6 positions and rebuttals, 4 inner triages and 9
		// last-round verdicts, each doubled by its repair.
		{"three rounds", func(*configs.Config) {}, WorstCase{Rounds: 3, Branching: 3, Nodes: 13, Calls: 13*6 + 4*2 + 9*2, VerdictCalls: 1}},
		{"two divergences a node", func(c *configs.Config) { c.Params.MaxRounds, c.Params.MaxDivergences = 2, 2 },
			WorstCase{Rounds: 2, Branching: 2, Nodes: 3, Calls: 3*6 + 1*2 + 2*2, VerdictCalls: 1}},
		{"order check and synthesis", func(c *configs.Config) {
			c.Params.MaxRounds, c.Params.VerdictCheck, c.Params.Synthesis = 1, configs.VerdictCheckSwap, &on
		}, WorstCase{Rounds: 1, Branching: 3, Nodes: 1, Calls: 6 + 2*2 + 1, VerdictCalls: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(3, "t1")
			cfg.Params.MaxDivergences = 5 // more than a worst case assumes
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
