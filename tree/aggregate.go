package tree

import "slices"

// Point is a consensus point together with the node it was reached at.
type Point struct {
	Node string
	Consensus
}

// Decision is a forced verdict together with its node and the divergence it decides.
type Decision struct {
	Node       string
	Divergence Divergence
	Verdict
}

// AllConsensus returns every consensus point of the tree, in walk order.
func (n *Node) AllConsensus() []Point {
	var out []Point
	n.Walk(func(x *Node) {
		if x.Judgment == nil {
			return
		}
		for _, c := range x.Judgment.Consensus {
			out = append(out, Point{Node: x.ID, Consensus: c})
		}
	})
	return out
}

// AllVerdicts returns every forced verdict of the tree, in walk order, each with
// the divergence it decides when the judge listed it.
func (n *Node) AllVerdicts() []Decision {
	var out []Decision
	n.Walk(func(x *Node) {
		if x.Judgment == nil {
			return
		}
		for _, v := range x.Judgment.ForcedVerdicts {
			d := Decision{Node: x.ID, Verdict: v}
			for _, dv := range x.Judgment.Divergences {
				if dv.ID == v.DivergenceID {
					d.Divergence = dv
					break
				}
			}
			out = append(out, d)
		}
	})
	return out
}

// Stats sums up a tree.
type Stats struct {
	Nodes       int // every node
	Depth       int // deepest node's depth
	Rounds      int // rounds reached: Depth+1 for a tree that ran at all
	Consensus   int // consensus points
	Divergences int // divergences identified, forced ones included
	Verdicts    int // forced verdicts
	Failed      int // failed nodes
	Interrupted int // interrupted nodes
}

// Stats walks the tree and counts what it holds.
func (n *Node) Stats() Stats {
	var s Stats
	n.Walk(func(x *Node) {
		s.Nodes++
		if x.Depth > s.Depth {
			s.Depth = x.Depth
		}
		switch x.Status {
		case Failed:
			s.Failed++
		case Interrupted:
			s.Interrupted++
		}
		if x.Judgment != nil {
			s.Consensus += len(x.Judgment.Consensus)
			s.Divergences += len(x.Judgment.Divergences)
			s.Verdicts += len(x.Judgment.ForcedVerdicts)
		}
	})
	if s.Nodes > 0 {
		s.Rounds = s.Depth + 1
	}
	return s
}

// Summarize returns the status of a whole tree from its nodes: failed if any
// node failed, else interrupted if any was interrupted, else partial if any
// node went on without every debater, else forced if any verdict was forced
// (at a forced node, or beyond a node's limit of child debates), else
// converged. A nil tree is pending.
func (n *Node) Summarize() Status {
	if n == nil {
		return Pending
	}
	var failed, interrupted, partial, forced, pending bool
	n.Walk(func(x *Node) {
		if len(x.Missing) > 0 {
			partial = true
		}
		if x.Judgment != nil && len(x.Judgment.ForcedVerdicts) > 0 {
			forced = true
		}
		switch x.Status {
		case Failed:
			failed = true
		case Interrupted:
			interrupted = true
		case Forced:
			forced = true
		case Partial:
			partial = true
		case Pending:
			pending = true
		}
	})
	switch {
	case failed:
		return Failed
	case interrupted:
		return Interrupted
	case pending:
		return Pending
	case partial:
		return Partial
	case forced:
		return Forced
	}
	return Converged
}

// Find returns the node with the given id, or nil.
func (n *Node) Find(id string) *Node {
	var found *Node
	n.Walk(func(x *Node) {
		if found == nil && x.ID == id {
			found = x
		}
	})
	return found
}

// Finished reports whether every topic and motion of the run reached an
// outcome with every debater present: converged, or verdicts forced and
// given. A partial topic, or one whose judge gave no verdict, is not
// finished.
func (r *Run) Finished() bool {
	for i := range r.Topics {
		if !r.Topics[i].finished() {
			return false
		}
	}
	for _, m := range r.Motions {
		if !done(m.Status) {
			return false
		}
	}
	return true
}

// done reports whether s is an outcome: converged, or verdicts forced.
func done(s Status) bool { return s == Converged || s == Forced }

// finished reports whether t reached an outcome with every debater present
// and every forced verdict given.
func (t *Topic) finished() bool { return done(t.Status) && t.Cause != CauseNoVerdict }

// Gated returns the topics whose decision is in failOn, in run order.
func (r *Run) Gated(failOn []Outcome) []*Topic {
	var out []*Topic
	for i := range r.Topics {
		if t := &r.Topics[i]; slices.Contains(failOn, t.Decision) {
			out = append(out, t)
		}
	}
	return out
}

// Failed lists the ids of the topics that fail the run: a decision in
// failOn, or a topic that did not finish (failed, interrupted, partial, no
// verdict).
func (r *Run) Failed(failOn []Outcome) []string {
	var ids []string
	for i := range r.Topics {
		if t := &r.Topics[i]; slices.Contains(failOn, t.Decision) || !t.finished() {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// Interrupted reports whether any topic or motion of r stopped unfinished:
// interrupted, never started, or with a node interrupted or pending.
func (r *Run) Interrupted() bool {
	for i := range r.Topics {
		t := &r.Topics[i]
		if t.Status == Interrupted || t.Root == nil {
			return true
		}
		found := false
		t.Root.Walk(func(n *Node) { found = found || n.Status == Interrupted || n.Status == Pending })
		if found {
			return true
		}
	}
	for _, m := range r.Motions {
		if m.Status == Interrupted {
			return true
		}
	}
	return false
}
