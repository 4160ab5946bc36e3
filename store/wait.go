package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/debatehq/debate/protocol"
)

// Wait returns the newest argument of debateID if it is newer than
// afterArgumentID (or any argument when afterArgumentID is empty), with the
// action for role (protocol.WaitAction). Otherwise it waits up to timeout for
// one: a commit by this Store wakes it at once, one by another process within
// the poll interval. A timeout of 0 answers at once. On a CLOSED debate it
// answers DebateClosed at once. An afterArgumentID that is not an argument of
// the debate is INVALID_INPUT (as vjcspy/aweave's server answers); a missing
// debate DEBATE_NOT_FOUND; the INVALID_INPUT suggests what role should do next
// from the debate's newest argument. Cancelling ctx returns ctx's error.
func (s *Store) Wait(ctx context.Context, debateID string, role protocol.Role, afterArgumentID string, timeout time.Duration) (protocol.WaitResult, error) {
	if !role.Valid() {
		_, err := protocol.ParseRole(string(role))
		return protocol.WaitResult{}, err
	}
	afterSeq := 0
	if _, a, ok := s.heads.get(debateID); ok && afterArgumentID != "" && a.ID == afterArgumentID {
		// The waiter has seen the newest argument, as it mostly has.
		afterSeq = a.Seq
	} else if afterArgumentID != "" {
		argDebate, seq, found, err := s.db.position(ctx, afterArgumentID)
		if err != nil {
			return protocol.WaitResult{}, fmt.Errorf("wait on %s: %w", debateID, err)
		}
		afterSeq = seq
		if !found || argDebate != debateID {
			d, newest, err := s.db.newest(ctx, debateID)
			if err != nil {
				return protocol.WaitResult{}, err
			}
			return protocol.WaitResult{}, protocol.ArgumentNotInDebate(afterArgumentID, d, newest, role)
		}
	}

	var wake <-chan struct{}
	var expired <-chan time.Time
	if timeout > 0 {
		// Subscribe before the first read so no commit falls in between.
		ch, cancel := s.Subscribe(debateID)
		defer cancel()
		wake = ch
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	for {
		d, a, err := s.db.newest(ctx, debateID)
		if err != nil {
			return protocol.WaitResult{}, err
		}
		res := protocol.WaitResult{Debate: d, LastSeenSeq: afterSeq}
		if a.Seq > afterSeq || d.State == protocol.Closed {
			res.HasNew = a.Seq > afterSeq
			res.Argument = a
			res.Action = protocol.WaitAction(a, d.State, role)
			if res.Arguments, err = s.after(ctx, a, afterSeq); err != nil {
				return protocol.WaitResult{}, err
			}
			return res, nil
		}
		if timeout <= 0 {
			return res, nil
		}
		select {
		case <-wake:
		case <-expired:
			return res, nil
		case <-ctx.Done():
			return protocol.WaitResult{}, ctx.Err()
		}
	}
}

// after lists the arguments after afterSeq up to newest, oldest first; with
// afterSeq 0 (the waiter named no argument) only newest. It reads the database
// only when more than newest is new.
func (s *Store) after(ctx context.Context, newest protocol.Argument, afterSeq int) ([]protocol.Argument, error) {
	switch {
	case newest.Seq <= afterSeq:
		return nil, nil
	case afterSeq == 0 || newest.Seq == afterSeq+1:
		return []protocol.Argument{newest}, nil
	}
	_, args, err := s.Since(ctx, newest.DebateID, afterSeq)
	if err != nil {
		return nil, err
	}
	// A write committed after newest was read is left for the next wait, so
	// that Arguments always ends with Argument.
	for len(args) > 0 && args[len(args)-1].Seq > newest.Seq {
		args = args[:len(args)-1]
	}
	return args, nil
}

// Subscribe returns a channel that receives a signal after commits that add
// arguments to debateID or delete it: at once for commits made through this
// Store, within the poll interval for commits by other processes. Signals are
// coalesced (the channel holds at most one) and never block a writer, so after
// each signal read what is new with Since. cancel ends the subscription; it is
// safe to call more than once. The channel is never closed.
//
// With AllDebates as debateID the channel is signalled after every commit
// that may change a debate (creates included); a list of debates re-reads
// itself then.
func (s *Store) Subscribe(debateID string) (<-chan struct{}, func()) {
	return s.hub.subscribe(debateID)
}

// AllDebates subscribes to the commits of every debate (see Subscribe).
const AllDebates = ""

// hub fans commit signals out to subscribers and, while anyone subscribes,
// runs a watcher that notices commits made by other processes.
type hub struct {
	s *Store

	mu    sync.Mutex
	subs  map[string]map[chan struct{}]struct{}
	known map[string]int // newest seq seen per subscribed debate; -1 unknown
	local uint64         // commits this Store notified, counted to tell a read that may be stale
	count int
	// counted is broadcast when count changes; tests wait on it for a
	// waiter to subscribe or leave.
	counted *sync.Cond
	stop    chan struct{} // closes to stop the running watcher; nil when none runs
	closed  bool
	running sync.WaitGroup
}

func newHub(s *Store) *hub {
	h := &hub{s: s, subs: map[string]map[chan struct{}]struct{}{}, known: map[string]int{}}
	h.counted = sync.NewCond(&h.mu)
	return h
}

func (h *hub) subscribe(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		ch <- struct{}{}
		return ch, func() {}
	}
	m := h.subs[id]
	if m == nil {
		m = map[chan struct{}]struct{}{}
		h.subs[id] = m
		h.known[id] = -1
	}
	m[ch] = struct{}{}
	h.count++
	h.counted.Broadcast()
	if h.stop == nil {
		h.stop = make(chan struct{})
		h.running.Add(1)
		go h.watch(h.stop)
	}
	return ch, sync.OnceFunc(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(m, ch)
		if len(m) == 0 {
			delete(h.subs, id)
			delete(h.known, id)
		}
		h.count--
		h.counted.Broadcast()
		if h.count == 0 && h.stop != nil {
			close(h.stop)
			h.stop = nil
		}
	})
}

// notify wakes the subscribers of id after a commit by this Store; seq is the
// newest seq just committed (0 after a delete).
func (h *hub) notify(id string, seq int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.local++
	h.announce(id, seq)
}

// heard is notify for a commit announced by the database, which may be one
// this Store made and notified already. Subscribers to AllDebates are woken by
// every announcement.
func (h *hub) heard(id string, seq int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.announce(id, seq)
}

// announce wakes the subscribers to every debate, and those of id if seq is
// news (see advance). Call it with h.mu held.
func (h *hub) announce(id string, seq int) {
	signal(h.subs[AllDebates])
	if h.advance(id, seq, true) {
		signal(h.subs[id])
	}
}

// advance records that id's newest seq is seq and reports whether that is
// news to its subscribers, who are then to be woken: seq is newer than the
// newest seen, or 0 (a delete) when the debate was known to hold arguments.
// The newest seen never moves back, so the same commit heard twice (notified
// by this Store, then announced or read by the watcher) wakes once, and a
// read older than a commit already notified wakes no one. deleteIsNews is
// false for a read that may predate a commit notified meanwhile: its 0 may
// be a debate not yet created. It wakes no one itself: whatever a woken
// subscriber reads must be made current first. Call it with h.mu held.
func (h *hub) advance(id string, seq int, deleteIsNews bool) bool {
	m := h.subs[id]
	if m == nil {
		return false
	}
	known := h.known[id]
	switch {
	case seq > known:
	case seq == 0 && known != 0 && deleteIsNews:
	default:
		return false
	}
	h.known[id] = seq
	return true
}

// signal wakes every channel of m without blocking. Call it with h.mu held.
func signal(m map[chan struct{}]struct{}) {
	for ch := range m {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// close stops the watcher, waits for it, and wakes every subscriber so that
// waits end (their next read fails on the closed database).
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	if h.stop != nil {
		close(h.stop)
		h.stop = nil
	}
	for _, m := range h.subs {
		signal(m)
	}
	h.mu.Unlock()
	h.running.Wait()
}

// watch runs the backend's watcher, which notices commits other processes
// make, until stop closes.
func (h *hub) watch(stop <-chan struct{}) {
	defer h.running.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	h.s.db.watch(ctx, h, stop)
}

// subscribed returns the debates that have subscribers (AllDebates is not
// one) and the count of local commits so far, for moved.
func (h *hub) subscribed() ([]string, uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.subs))
	for id := range h.subs {
		if id != AllDebates {
			ids = append(ids, id)
		}
	}
	return ids, h.local
}

// moved takes the newest seq of each of ids, read by a watcher that began
// reading when this Store had made local commits (the count notify keeps),
// and wakes the subscribers of the debates whose newest seq moved on, whose
// heads it drops first (another process changed them): a subscriber woken
// before the drop would read the stale head, find nothing new and wait for a
// signal that never comes. A commit this Store made while the watcher read
// may be newer than the read; advance keeps the newer, and the watcher reads
// again on the change it made.
func (h *hub) moved(ids []string, seqs []int, local uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, id := range ids {
		if h.advance(id, seqs[i], h.local == local) {
			h.s.heads.drop(id)
			signal(h.subs[id])
		}
	}
}

// wakeAll wakes every subscriber.
func (h *hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.subs {
		signal(m)
	}
}
