package orchestrator

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/tree"
)

// draw returns a permutation of 0…n-1 that is a function of the topic's
// seed and key alone: the same seed and key always give the same order,
// whatever else the run does and in whatever order its calls end.
func (t *topicRun) draw(n int, key ...string) []int {
	h := fnv.New64a()
	for _, k := range key {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return rand.New(rand.NewPCG(t.seed, h.Sum64())).Perm(n)
}

// seedOf returns the seed topic t draws from: the run's when it was given
// one, else t's own.
func (e *Engine) seedOf(t configs.Topic) uint64 {
	if e.seed != nil {
		return *e.seed
	}
	return topicSeed(t)
}

// topicSeed derives a topic's seed from the topic as the config writes it
// (id, title, background, annotations, core questions, its own context):
// the same topic draws the same aliases and orders in every run, whatever
// else the config holds, and another topic draws others.
func topicSeed(t configs.Topic) uint64 {
	h := sha256.New()
	h.Write([]byte("debate topic seed\x00"))
	_ = json.NewEncoder(h).Encode(t) // a topic always encodes
	return binary.BigEndian.Uint64(h.Sum(nil)) >> (64 - SeedBits)
}

// blind reports whether the debaters are known by aliases in drawn order.
func (t *topicRun) blind() bool { return t.e.cfg.Blind() }

// assignAliases gives each debater of the topic its alias, drawn from the
// seed and the topic id, not from config order.
func (t *topicRun) assignAliases() {
	t.aliases = make([]prompts.Party, len(t.debaters))
	t.aliasOrder = make([]int, len(t.debaters))
	for i, n := range t.draw(len(t.debaters), "aliases", t.topic.ID) {
		t.aliases[i] = prompts.Alias(t.e.cfg.Prompts.Language, n+1)
		t.aliasOrder[n] = i
	}
}

// party returns debater i as prompts show it: its alias when blind, else its
// id and label.
func (t *topicRun) party(i int) prompts.Party {
	if t.blind() {
		return t.aliases[i]
	}
	return party(t.debaters[i].p)
}

// byAlias returns the indices of the debaters in the order prompts list all
// parties: by alias number when blind, else config order.
func (t *topicRun) byAlias() []int {
	if t.blind() {
		return t.aliasOrder
	}
	out := make([]int, len(t.debaters))
	for i := range out {
		out[i] = i
	}
	return out
}

// shuffle returns the debater indices who in the order reader sees them at
// a node's step: drawn from the seed when blind, else as given (config
// order).
func (t *topicRun) shuffle(who []int, node string, step tree.Step, reader string) []int {
	if !t.blind() {
		return who
	}
	out := make([]int, len(who))
	for k, j := range t.draw(len(who), "order", t.topic.ID, node, string(step), reader) {
		out[k] = who[j]
	}
	return out
}

// inOrder returns the debater indices of who in the order order lists them.
func (t *topicRun) inOrder(who, order []int) []int {
	out := make([]int, 0, len(who))
	for _, i := range order {
		if slices.Contains(who, i) {
			out = append(out, i)
		}
	}
	return out
}

// shownIDs returns the party ids the judge is told to use, in byAlias order.
func (t *topicRun) shownIDs() []string {
	var out []string
	for _, i := range t.byAlias() {
		out = append(out, t.party(i).ID)
	}
	return out
}

// unalias maps the party names of a judgment, given with the ids the judge
// was shown, back to the debaters' ids. The model's text is left as written.
func (t *topicRun) unalias(j *tree.Judgment) {
	if !t.blind() {
		return
	}
	ids := map[string]string{}
	for i, a := range t.aliases {
		ids[a.ID] = t.debaters[i].p.ID
	}
	back := func(s string) string {
		if id, ok := ids[s]; ok {
			return id
		}
		return s
	}
	for k := range j.Divergences {
		d := &j.Divergences[k]
		sides := make(map[string]string, len(d.Sides))
		for a, claim := range d.Sides {
			sides[back(a)] = claim
		}
		d.Sides = sides
		for u, a := range d.Uninvolved {
			d.Uninvolved[u] = back(a)
		}
	}
	for k := range j.ForcedVerdicts {
		j.ForcedVerdicts[k].Favors = back(j.ForcedVerdicts[k].Favors)
	}
	for k := range j.Stances {
		s := &j.Stances[k]
		s.Party, s.Toward = back(s.Party), back(s.Toward)
	}
}

// aliasRecord is the topic's aliases as run.json keeps them, in alias order;
// nil when not blind.
func (t *topicRun) aliasRecord() []tree.Alias {
	if !t.blind() {
		return nil
	}
	var out []tree.Alias
	for _, i := range t.byAlias() {
		out = append(out, tree.Alias{Alias: t.aliases[i].Label, Participant: t.debaters[i].p.ID})
	}
	return out
}
