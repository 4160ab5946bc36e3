package orchestrator

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// firstListed is a judge biased by position: every divergence it finds is
// decided for the party whose entry its prompt lists first. Debaters answer
// with text that names no one. A triage splits the node once; a forced
// verdict decides it.
func firstListed(c scripted.Call) scripted.Reply {
	if c.Model != "model-j" {
		return scripted.Text("an argument that names no one")
	}
	user := c.Last()
	_, rest, _ := strings.Cut(user, "\n### ")
	if !strings.Contains(c.Messages[0].Content, "forcedVerdicts") {
		_, rest, _ = strings.Cut(user, "\n## ")
		for !strings.Contains(rest[:strings.Index(rest, "\n")], "`") {
			_, rest, _ = strings.Cut(rest, "\n## ")
		}
	}
	_, id, _ := strings.Cut(rest, "`")
	id, _, _ = strings.Cut(id, "`")
	d := map[string]any{"id": "d1", "title": "the one question", "sides": map[string]string{id: "its claim"}, "uninvolved": []string{}}
	answer := map[string]any{"consensus": []any{}, "divergences": []any{d}}
	if strings.Contains(c.Messages[0].Content, "forcedVerdicts") {
		answer["forcedVerdicts"] = []any{map[string]string{"divergenceId": "d1", "recommendation": "do as it says", "reasoning": "it came first", "favors": id}}
	}
	return scripted.Fenced(answer)
}

// runFake runs cfg against the scripted model answering with script, with
// the given seed, and returns the run and every call the model received.
func runFake(t *testing.T, cfg *configs.Config, seed uint64, script func(scripted.Call) scripted.Reply) (*tree.Run, []scripted.Call) {
	t.Helper()
	srv := providertest.New(t)
	srv.Script(script)
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Params.Seed = &seed
	run, err := english(cfg, client, promptSet(t), Options{Jitter: func() float64 { return 0 }}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return run, srv.Calls()
}

// TestFirstListedBias: a judge that always favours the debater listed first
// spreads its verdicts over all debaters when blind (the default), and
// always favours the first-configured debater when not.
func TestFirstListedBias(t *testing.T) {
	t.Parallel()
	topics := make([]string, 100)
	for i := range topics {
		topics[i] = fmt.Sprintf("t%03d", i)
	}
	tests := []struct {
		name  string
		blind *bool
		check func(t *testing.T, wins map[string]int)
	}{
		{"blind by default", nil, func(t *testing.T, wins map[string]int) {
			for _, id := range []string{"party-a", "party-b", "party-c"} {
				if wins[id] < 20 || wins[id] > 47 {
					t.Errorf("%s favoured in %d of 100 nodes, want 20 to 47 (all: %v)", id, wins[id], wins)
				}
			}
		}},
		{"labelled", new(bool), func(t *testing.T, wins map[string]int) {
			if wins["party-a"] != 100 {
				t.Errorf("wins %v, want party-a in all 100 nodes", wins)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(1, topics...)
			cfg.ApplyDefaults()
			cfg.Params.Blind = tt.blind
			run, _ := runFake(t, cfg, 1, firstListed)
			wins := map[string]int{}
			for _, tp := range run.Topics {
				if tp.Status != tree.Forced {
					t.Fatalf("topic %s: status %s (%s)", tp.ID, tp.Status, tp.Root.StopReason)
				}
				wins[tp.Root.Judgment.ForcedVerdicts[0].Favors]++
			}
			tt.check(t, wins)
		})
	}
}

// TestBlindPrompts: when blind, no prompt of a judge, of a rebuttal or of a
// child position carries a debater's label, id or model; the judge's
// answers in aliases come back as ids, and the topic records its aliases.
// The prompts are kept as a golden file.
func TestBlindPrompts(t *testing.T) {
	t.Parallel()
	cfg := testConfig(2, "t1")
	cfg.ApplyDefaults()
	cfg.Params.Blind = nil
	run, calls := runFake(t, cfg, 3, firstListed)
	var names []string
	for _, d := range cfg.Debaters {
		names = append(names, d.ID, d.Label, d.Model)
	}
	slices.SortFunc(calls, func(a, b scripted.Call) int { return bytes.Compare(a.Body, b.Body) })
	var shown strings.Builder
	for _, c := range calls {
		kind := "position"
		switch {
		case c.Model == "model-j":
			kind = "judge"
		case strings.Contains(c.Messages[0].Content, "other parties' positions"):
			kind = "rebuttal"
		}
		fmt.Fprintf(&shown, "=== %s (%s)\n", kind, c.Model)
		for _, m := range c.Messages {
			fmt.Fprintf(&shown, "--- %s\n%s\n", m.Role, m.Content)
			for _, n := range names {
				if strings.Contains(m.Content, n) {
					t.Errorf("a %s prompt to %s names %q:\n%s", kind, c.Model, n, m.Content)
				}
			}
		}
	}
	golden.Assert(t, "testdata/blind_prompts.golden", []byte(shown.String()))
	tp := run.Topics[0]
	if len(tp.Aliases) != 3 {
		t.Fatalf("aliases %+v, want one per debater", tp.Aliases)
	}
	leaf := tp.Root.Children[0]
	v := leaf.Judgment.ForcedVerdicts[0]
	if !slices.Contains([]string{"party-a", "party-b", "party-c"}, v.Favors) || !hasKey(leaf.Judgment.Divergences[0].Sides, v.Favors) {
		t.Errorf("verdict favours %q, sides %v: want debater ids", v.Favors, leaf.Judgment.Divergences[0].Sides)
	}
}

// TestSeedReproducible: two runs with one seed send the same request
// bodies; another seed sends others.
func TestSeedReproducible(t *testing.T) {
	t.Parallel()
	bodies := func(seed uint64) []string {
		cfg := testConfig(2, "t1", "t2")
		cfg.ApplyDefaults()
		cfg.Params.Blind = nil
		_, calls := runFake(t, cfg, seed, firstListed)
		var out []string
		for _, c := range calls {
			out = append(out, string(c.Body))
		}
		slices.Sort(out)
		return out
	}
	seven := bodies(7)
	if again := bodies(7); !slices.Equal(seven, again) {
		t.Errorf("two runs with seed 7 sent different requests:\n%s", golden.Diff(strings.Join(seven, "\n"), strings.Join(again, "\n")))
	}
	if slices.Equal(seven, bodies(8)) {
		t.Error("seeds 7 and 8 sent the same requests")
	}
}

// TestSeedDerived: without a seed, two runs of one config send the same
// request bodies, each topic drawing from a seed of its own that run.json
// records, and the run records none; a topic's seed does not move when
// another topic changes, and a given seed is every topic's.
func TestSeedDerived(t *testing.T) {
	t.Parallel()
	run := func(seed *uint64, edit func(*configs.Config)) (*tree.Run, []string) {
		cfg := testConfig(2, "t1", "t2")
		cfg.ApplyDefaults()
		cfg.Params.Blind = nil
		edit(cfg)
		srv := providertest.New(t)
		srv.Script(firstListed)
		client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Params.Seed = seed
		r, err := english(cfg, client, promptSet(t), Options{Jitter: func() float64 { return 0 }}).Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range srv.Calls() {
			out = append(out, string(c.Body))
		}
		slices.Sort(out)
		return r, out
	}
	same := func(*configs.Config) {}
	first, bodies := run(nil, same)
	if _, again := run(nil, same); !slices.Equal(bodies, again) {
		t.Errorf("two runs without a seed sent different requests:\n%s", golden.Diff(strings.Join(bodies, "\n"), strings.Join(again, "\n")))
	}
	t1, t2 := first.Topics[0].Seed, first.Topics[1].Seed
	if first.Seed != nil || t1 == 0 || t2 == 0 || t1 == t2 || t1 >= 1<<SeedBits {
		t.Errorf("run seed %v, topic seeds %d and %d: want none, and two distinct seeds of %d bits", first.Seed, t1, t2, SeedBits)
	}
	edited, _ := run(nil, func(c *configs.Config) { c.Topics[1].Background = "another background" })
	if s := edited.Topics[0].Seed; s != t1 {
		t.Errorf("t1's seed moved from %d to %d when t2 changed", t1, s)
	}
	if s := edited.Topics[1].Seed; s == t2 {
		t.Errorf("t2's seed stayed %d when t2 changed", s)
	}
	seven := uint64(7)
	given, _ := run(&seven, same)
	if given.Seed == nil || *given.Seed != 7 || given.Topics[0].Seed != 7 || given.Topics[1].Seed != 7 {
		t.Errorf("with seed 7: run %v, topics %d and %d; want 7 everywhere", given.Seed, given.Topics[0].Seed, given.Topics[1].Seed)
	}
}
