package tree

import (
	"crypto/sha256"
	"encoding/json"
)

// Evidence is what many runs show together: their stance figures and their
// judge audit, each distinct node (with its verdicts) counted once.
type Evidence struct {
	Stances *StanceFigures `json:"stances,omitempty"`
	Audit   []JudgeAudit   `json:"audit"`
	// Nodes counts the distinct nodes read; Repeated those left out as the
	// same as one read already: a re-run answered from the journal or the
	// call cache, a merged run beside its shards.
	Nodes    int `json:"nodes"`
	Repeated int `json:"repeated"`
}

// Combine returns the stance figures and the judge audit of runs as one.
// A node is known by its topic's id, its own id, what the debaters wrote
// there and what the judge answered (nodeIdentity): a node replayed from
// the journal or a cache is the same evidence as the one it replays, and
// is counted once. Stances are nil when no run has a tree.
func Combine(runs ...*Run) Evidence {
	seen := map[[sha256.Size]byte]bool{}
	a := auditor{}
	var all counts
	var ev Evidence
	trees := false
	for _, r := range runs {
		kept := map[*Node]bool{}
		for i := range r.Topics {
			t := &r.Topics[i]
			trees = trees || t.Root != nil
			t.Root.Walk(func(n *Node) {
				id := nodeIdentity(t.ID, n)
				if seen[id] {
					ev.Repeated++
					return
				}
				seen[id], kept[n] = true, true
				ev.Nodes++
			})
		}
		keep := func(n *Node) bool { return kept[n] }
		for i := range r.Topics {
			if r.Topics[i].Root != nil {
				_, c := r.Topics[i].ledgerOf(r.Debaters, keep)
				all = all.add(c)
			}
		}
		r.tallyVerdicts(a, keep)
	}
	if trees {
		f := all.figures()
		ev.Stances = &f
	}
	ev.Audit = a.audits()
	return ev
}

// nodeIdentity is what tells node n of topic topic from any other: its ids,
// title and context, the debaters' answers and models, and the judgment.
func nodeIdentity(topic string, n *Node) [sha256.Size]byte {
	b, _ := json.Marshal(struct {
		Topic, ID, Title, Context                    string
		Positions, Rebuttals, Models, RebuttalModels map[string]string
		Judgment                                     *Judgment
	}{topic, n.ID, n.Title, n.Context, n.Positions, n.Rebuttals, n.Models, n.RebuttalModels, n.Judgment})
	return sha256.Sum256(b)
}
