package store

import (
	"sync"
	"time"

	"github.com/debatehq/debate/protocol"
)

// heads keeps each debate's head — the debate and its newest argument — in
// memory for Wait, so that polling a debate nothing was written to reads no
// database. The writer stores the head of every debate it commits to, exact
// since its transaction saw every commit before it, and starts its next
// writes to that debate from it (see written); a head read from the database
// is stored too. A head is current for the poll interval after it
// was stored, or after the writer last read PRAGMA data_version on its
// connection, which only another process's commit changes, and found it
// unchanged (every batch reads it, and a poll finding no current head does
// when no batch is being written). So a commit by another process is seen
// within the poll interval, as a waiter sees it, and mostly sooner: the
// watcher drops the heads of the debates it finds moved, and when the
// writer sees such a commit every head is dropped and none is kept for a
// second, so that processes writing to one file at once read each other's
// commits.
type heads struct {
	ttl time.Duration

	mu     sync.Mutex
	gen    uint64 // counts drops, of one head or of every head
	m      map[string]head
	shared time.Time // until then, keep no head
	// fresh is when the writer last found no other process's commit, plus
	// the poll interval: until then every head is current.
	fresh time.Time
}

type head struct {
	d protocol.Debate
	a protocol.Argument
	// lastWord is the seq of the debate's newest INTERVENTION or RULING (0
	// if none), known only for a written head.
	lastWord int
	until    time.Time // on the monotonic clock
	// written: stored from the writer's own commit, so exact until another
	// process commits (see written).
	written bool
}

func newHeads(ttl time.Duration) *heads {
	return &heads{ttl: ttl, m: map[string]head{}}
}

// get returns the head of id while it is fresh.
func (h *heads) get(id string) (protocol.Debate, protocol.Argument, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.m[id]
	if now := time.Now(); !ok || !(now.Before(e.until) || now.Before(h.fresh)) {
		return protocol.Debate{}, protocol.Argument{}, false
	}
	return e.d, e.a, true
}

// written returns the head of id that the writer stored after its last
// commit to id. Every other process's commit drops every head before the
// writer reads one (the writer reads PRAGMA data_version first, see
// writer.sawVersion), so while the writer's last check found no such commit
// the head is the debate's row (with its last_word_seq) and newest argument
// as the database holds them. A head read from the database by a reader is
// not returned: it may predate a drop it raced with.
func (h *heads) written(id string) (head, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.m[id]
	if !ok || !e.written {
		return head{}, false
	}
	return e, true
}

// verified records that no other process has committed since the last
// check: every head stored is current.
func (h *heads) verified() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if now := time.Now(); !now.Before(h.shared) {
		h.fresh = now.Add(h.ttl)
	}
}

// current tells whether the last check found every head current.
func (h *heads) current() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return time.Now().Before(h.fresh)
}

// reset forgets every head, when there is no earlier check to compare with.
func (h *heads) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	clear(h.m)
	h.fresh = time.Time{}
}

// generation returns the number to give put for a head about to be read from
// the database.
func (h *heads) generation() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen
}

// put stores a head read from the database after generation returned gen,
// unless a head was dropped since (it may predate what was dropped for: a
// delete, another process's commit) or a newer head of the debate is
// stored.
func (h *heads) put(gen uint64, d protocol.Debate, a protocol.Argument) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if gen != h.gen {
		return
	}
	h.store(head{d: d, a: a})
}

// committed stores the head a commit of this Store's writer left, with the
// seq of the arbitrator's last word then. The writer calls it holding its
// token, before the next batch begins.
func (h *heads) committed(d protocol.Debate, a protocol.Argument, lastWord int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.store(head{d: d, a: a, lastWord: lastWord, written: true})
}

func (h *heads) store(n head) {
	now := time.Now()
	if now.Before(h.shared) {
		return
	}
	id := n.d.ID
	if e, ok := h.m[id]; ok && (e.a.Seq > n.a.Seq || e.a.Seq == n.a.Seq && e.written && !n.written) {
		if e.a.Seq == n.a.Seq {
			e.until = now.Add(h.ttl) // the same head, read again
			h.m[id] = e
		}
		return
	}
	if len(h.m) >= maxHeads {
		clear(h.m) // a bound, not a policy: a poll reads the database again
	}
	n.until = now.Add(h.ttl)
	h.m[id] = n
}

// drop forgets the head of id, and any head being read meanwhile.
func (h *heads) drop(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	delete(h.m, id)
}

// foreign forgets every head, and keeps none for a second: another process
// writes to the database.
func (h *heads) foreign() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	clear(h.m)
	h.shared = time.Now().Add(time.Second)
	h.fresh = time.Time{}
}

// maxHeads bounds the heads kept.
const maxHeads = 100000
