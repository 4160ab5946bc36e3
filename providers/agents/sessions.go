package agents

import (
	"slices"
	"sync"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// sessionKey names the sessions of one debater's agent within one topic.
type sessionKey struct {
	topic, participant, agent string
}

// session is where a debater's agent stands after a call at a node: the
// session to continue, and the messages it has read already.
type session struct {
	id   string
	sent map[[32]byte]bool
	// claimed is set while, or once, a call continues the session; a
	// second call (a sibling node) forks it or starts afresh.
	claimed bool
	rec     *tree.AgentSession
}

// sessionBook keeps the sessions of every debater's agent along the paths
// of each topic: a node's rebuttal continues its position's session, and a
// child node's position continues the session its parent node ended with.
type sessionBook struct {
	mu     sync.Mutex
	byNode map[sessionKey]map[string]*session // node id → the session after its last call
	topics map[string][]*tree.AgentSession
}

// take returns the session a call at node continues: the node's own, else
// its parent node's, when no other call holds it; with canFork a session
// another call holds is forked (fork true) rather than left.
func (b *sessionBook) take(k sessionKey, node string, canFork bool) (s *session, fork bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	nodes := b.byNode[k]
	for n := node; n != ""; n = tree.ParentID(n) {
		s := nodes[n]
		if s == nil {
			if n == node {
				continue
			}
			return nil, false
		}
		if !s.claimed {
			s.claimed = true
			return s, false
		}
		if canFork {
			return s, true
		}
		return nil, false
	}
	return nil, false
}

// release gives back a session a failed call took, for its retry.
func (b *sessionBook) release(s *session) {
	if s == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s.claimed = false
}

// put records the session a call at node ended in: id continues prev
// (unless forked, or started afresh after a failed resume), having read
// msgs.
func (b *sessionBook) put(k sessionKey, node, call, id string, prev *session, fork, resumeFailed bool, msgs []providers.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &session{id: id, sent: map[[32]byte]bool{}}
	if prev != nil && prev.rec != nil && !fork && prev.id == id {
		s.rec = prev.rec
		for d := range prev.sent {
			s.sent[d] = true
		}
	} else {
		s.rec = &tree.AgentSession{Participant: k.participant, Agent: k.agent, ID: id}
		if prev != nil {
			s.rec.ForkedFrom = prev.id
			for d := range prev.sent {
				s.sent[d] = true
			}
		}
		if resumeFailed {
			s.rec.ResumeFailed++
		}
		if b.topics == nil {
			b.topics = map[string][]*tree.AgentSession{}
		}
		b.topics[k.topic] = append(b.topics[k.topic], s.rec)
	}
	s.rec.Calls = append(s.rec.Calls, call)
	for _, m := range msgs {
		s.sent[digest(m)] = true
	}
	if b.byNode == nil {
		b.byNode = map[sessionKey]map[string]*session{}
	}
	if b.byNode[k] == nil {
		b.byNode[k] = map[string]*session{}
	}
	b.byNode[k][node] = s
}

// of returns copies of a topic's sessions, in the order they started.
func (b *sessionBook) of(topic string) []tree.AgentSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []tree.AgentSession
	for _, r := range b.topics[topic] {
		c := *r
		c.Calls = slices.Clone(r.Calls)
		out = append(out, c)
	}
	return out
}
