package orchestrator

import (
	"errors"
	"testing"

	"github.com/debatehq/debate/providers"
)

// FuzzParseJudgment: a forced-verdict answer comes back whole and valid, or
// with only missing verdicts (and then keepConsensus gives every divergence
// exactly one verdict), or not at all; and never when the judge was sent
// the answer itself.
func FuzzParseJudgment(f *testing.F) {
	for _, s := range []string{
		forcedAnswer("a", "b"),
		"```json\n{\"consensus\": [{\"point\": \"p\", \"detail\": \"\"}], \"divergences\": [{\"id\": \"k\", \"title\": \"t\", \"sides\": {\"party-a\": \"x\"}, \"uninvolved\": []}], \"forcedVerdicts\": []}\n```",
		`{"consensus": [], "divergences": [{"id": "k", "title": "t", "sides": {"party-z": "x"}}]}`,
		"no JSON",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sent := quotesOf([]providers.Message{{Role: "user", Content: s}})
		if j, err := unpack(parseJudgment(s, sent, true, parties)); err == nil || j != nil {
			t.Fatalf("a judgment read from what the judge was sent: %+v, %v", j, err)
		}
		j, err := unpack(parseJudgment(s, nil, true, parties))
		var mv *missingVerdicts
		switch {
		case err == nil:
			if j == nil {
				t.Fatal("no error and no judgment")
			}
		case errors.As(err, &mv):
			if j == nil {
				t.Fatalf("missing verdicts without the judgment to keep: %v", err)
			}
			kept := markMissing(j)
			count := map[string]int{}
			for _, v := range kept.ForcedVerdicts {
				count[v.DivergenceID]++
				if v.Missing && v.Recommendation != "" {
					t.Fatalf("a missing verdict with a recommendation: %+v", v)
				}
			}
			for _, d := range kept.Divergences {
				if count[d.ID] != 1 {
					t.Fatalf("divergence %q has %d verdicts after keeping the consensus", d.ID, count[d.ID])
				}
			}
		case j != nil:
			t.Fatalf("a judgment came back with another error: %v", err)
		}
	})
}
