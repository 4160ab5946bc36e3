package store

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/debatehq/debate/protocol"
)

// The write rule of the protocol (docs/PROTOCOL.md), written once: what a
// create or a write decides — replay or not, the parent, the transition, the
// ruling rule, the seq, the closing RULING after a RESOLUTION — over the
// primitives each backend's transaction offers (txn). A backend only reads
// and writes rows.

// txn is a backend's write transaction, as the write rule uses it. Errors
// other than end's concern the write being run only.
type txn interface {
	// head reads the head of w's debate from the database, with probed
	// set; DEBATE_NOT_FOUND when there is no such debate. It holds off every
	// other write to the debate until the transaction ends.
	head(w protocol.Write) (pipelineHead, error)
	// kept returns the head of debateID as the backend keeps it in memory,
	// when it knows it to be the debate's head in the database now.
	kept(debateID string) (head, bool)
	// position returns the debate and seq of argument id; debateID is empty
	// when there is no such argument.
	position(id string) (debateID string, seq int, err error)
	// original returns the argument of debateID with clientRequestID, if
	// there is one.
	original(debateID, clientRequestID string) (protocol.Argument, bool, error)
	// at returns the argument of debateID at seq.
	at(debateID string, seq int) (protocol.Argument, error)
	// insert writes a new argument and its debate's new state and
	// updated_at (d), in the savepoint of the write being run, if the
	// backend opens one. It may write nothing and report false when the
	// debate holds an argument with a's client_request_id already (a head
	// from memory has not looked).
	insert(a protocol.Argument, d protocol.Debate) (bool, error)
	// createDebate writes d and its MOTION m, unless a debate with d's id
	// exists: then it writes nothing and returns that debate and its
	// MOTION, with created false.
	createDebate(d protocol.Debate, m protocol.Argument) (protocol.Debate, protocol.Argument, bool, error)
	// end ends the write just run, undoing what it wrote when it failed. An
	// error means the transaction is lost: nothing of it is written.
	end(failed bool) error
}

// pipelineHead is what the rule reads before it decides: the debate, the
// seq of the arbitrator's last word, its newest argument, the argument with
// the write's client_request_id, and the target.
type pipelineHead struct {
	d                    protocol.Debate
	lastWord             int // seq of the newest INTERVENTION or RULING; 0 if none
	maxSeq               int
	newestID, existingID string // existingID is empty when there is none
	targetDebate         string // empty when there is no such argument
	targetSeq            int
	// probed tells whether existingID was read; when not, the insert or a
	// refusal is what finds a replay (see pipeline.write).
	probed bool
}

// pipeline runs the write rule for the writes of one transaction, in order.
type pipeline struct {
	tx  txn
	now func() time.Time // the Store's clock
	log *slog.Logger
	// written holds the heads of the debates written in this transaction
	// so far: the writes after start from them.
	written map[string]head
	// fromMemory counts the writes whose head was not read from the
	// database.
	fromMemory int
}

// step is the outcome of one create or write: its result or why it was not
// written, and the seq of the arbitrator's last word after it.
type step struct {
	res      protocol.Result
	err      error
	lastWord int
}

// create runs the rule of a create: a new debate and its MOTION (seq 1), or
// the replay of the same create. An error means the transaction is lost.
func (p *pipeline) create(nd protocol.NewDebate) (step, error) {
	s := p.createDebate(nd)
	return s, p.end(s)
}

func (p *pipeline) createDebate(nd protocol.NewDebate) step {
	state, err := protocol.Transition(protocol.None, protocol.Motion, protocol.Proposer, false)
	if err != nil {
		return step{err: err}
	}
	now := p.time()
	d := protocol.Debate{ID: nd.ID, Title: nd.Title, Type: nd.Type, State: state, CreatedAt: now, UpdatedAt: now}
	m := protocol.Argument{
		ID: newID(), DebateID: nd.ID, Type: protocol.Motion, Role: protocol.Proposer,
		Content: nd.Content, ClientRequestID: nd.ClientRequestID, Seq: 1, StateAfter: state, CreatedAt: now,
	}
	d, m, created, err := p.tx.createDebate(d, m)
	switch {
	case err != nil:
		return step{err: fmt.Errorf("create debate %s: %w", nd.ID, err)}
	case created:
		return step{res: protocol.Result{Argument: m, Debate: d}}
	case m.ClientRequestID != nd.ClientRequestID:
		return step{err: errDebateExists(nd.ID, d.State)}
	}
	return step{res: protocol.Result{Argument: m, Debate: d, Replay: true}}
}

// submit runs the rule of w and, after a new RESOLUTION, the closing RULING
// as a write of its own, whose refusal or failure leaves the RESOLUTION
// standing. An error means the transaction is lost.
func (p *pipeline) submit(w protocol.Write) (step, error) {
	s := p.write(w)
	if err := p.end(s); err != nil || s.err != nil || s.res.Replay || w.Type != protocol.Resolution {
		return s, err
	}
	auto := p.write(autoRuling(w.DebateID, s.res.Argument.ID))
	if err := p.end(auto); err != nil {
		return s, err
	}
	if auto.err != nil {
		p.log.Error("auto-ruling failed; the resolution stands", "debate", w.DebateID, "resolution", s.res.Argument.ID, "err", auto.err)
		return s, nil
	}
	s.res.AutoRuling, s.res.Debate, s.lastWord = &auto.res.Argument, auto.res.Debate, auto.lastWord
	return s, nil
}

// end ends the write of s and, when it wrote an argument, keeps the head it
// left for the writes after it.
func (p *pipeline) end(s step) error {
	if err := p.tx.end(s.err != nil); err != nil {
		return err
	}
	if s.err == nil && !s.res.Replay {
		if p.written == nil {
			p.written = map[string]head{}
		}
		p.written[s.res.Debate.ID] = head{d: s.res.Debate, a: s.res.Argument, lastWord: s.lastWord}
	}
	return nil
}

// write runs the rule of one argument: idempotency, the target belongs to
// the debate, the transition, the ruling rule, seq = max+1, insert, state and
// updated_at. With a head from memory, whether the write is a replay is not
// read first: the insert may find it, and a refusal looks for one before it
// is returned, so a replay is answered as one whatever the state now.
func (p *pipeline) write(w protocol.Write) step {
	h, err := p.headOf(w)
	if err != nil {
		return step{err: err}
	}
	if h.existingID != "" {
		return p.replay(w, h.d)
	}
	next, parent, err := p.decide(w, h)
	if err != nil {
		if !h.probed {
			if s, found := p.findReplay(w, h.d); found || s.err != nil {
				return s
			}
		}
		return step{err: err}
	}
	now := p.time()
	a := protocol.Argument{
		ID: newID(), DebateID: w.DebateID, ParentID: parent, Type: w.Type, Role: w.Role,
		Content: w.Content, ClientRequestID: w.ClientRequestID, Seq: h.maxSeq + 1, StateAfter: next, CreatedAt: now,
	}
	d := h.d
	d.State, d.UpdatedAt = next, now
	inserted, err := p.tx.insert(a, d)
	if err != nil {
		return step{err: fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)}
	}
	if !inserted {
		return p.replay(w, h.d) // nothing was written
	}
	return step{res: protocol.Result{Argument: a, Debate: d}, lastWord: lastWordAfter(h.lastWord, a)}
}

// headOf returns the head of w's debate: from memory when this transaction
// wrote to the debate already or the backend keeps its head (the database
// then only answers for a target older than the newest argument), else read.
func (p *pipeline) headOf(w protocol.Write) (pipelineHead, error) {
	e, ok := p.written[w.DebateID]
	if !ok {
		e, ok = p.tx.kept(w.DebateID)
	}
	if !ok {
		h, err := p.tx.head(w)
		if pe := (*protocol.Error)(nil); err != nil && !errors.As(err, &pe) {
			err = fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
		}
		return h, err
	}
	p.fromMemory++
	h := pipelineHead{d: e.d, lastWord: e.lastWord, maxSeq: e.a.Seq, newestID: e.a.ID}
	switch w.TargetID {
	case "":
	case e.a.ID:
		h.targetDebate, h.targetSeq = e.a.DebateID, e.a.Seq
	default:
		var err error
		if h.targetDebate, h.targetSeq, err = p.tx.position(w.TargetID); err != nil {
			return h, fmt.Errorf("submit %s to %s: read target: %w", w.Type, w.DebateID, err)
		}
	}
	return h, nil
}

// decide runs the checks of the rule after idempotency: the target belongs
// to the debate, the transition is allowed, the arbitrator's word is not
// bypassed. It returns the state after the write and its parent: the
// target, else the newest argument.
func (p *pipeline) decide(w protocol.Write, h pipelineHead) (protocol.State, string, error) {
	parent := w.TargetID
	if parent == "" {
		parent = h.newestID
	} else if h.targetDebate != w.DebateID {
		return "", "", errTargetNotInDebate(w.TargetID, w.DebateID)
	}
	next, err := protocol.Transition(h.d.State, w.Type, w.Role, w.Close)
	if err != nil {
		return "", "", err
	}
	if w.TargetID == "" || h.targetSeq >= h.lastWord || w.Role == protocol.Arbitrator {
		return next, parent, nil
	}
	// The target is older than the arbitrator's last word: read that word
	// for the refusal to name.
	lastWord, err := p.tx.at(w.DebateID, h.lastWord)
	if err != nil {
		return "", "", fmt.Errorf("submit %s to %s: read the arbitrator's last word (#%d): %w", w.Type, w.DebateID, h.lastWord, err)
	}
	target := protocol.Argument{ID: w.TargetID, DebateID: w.DebateID, Seq: h.targetSeq}
	if err := protocol.CheckTarget(h.d.State, w.Type, w.Role, target, lastWord); err != nil {
		return "", "", err
	}
	return next, parent, nil
}

// findReplay returns the replay of w if its debate holds an argument with
// w's client_request_id.
func (p *pipeline) findReplay(w protocol.Write, d protocol.Debate) (step, bool) {
	orig, found, err := p.tx.original(w.DebateID, w.ClientRequestID)
	switch {
	case err != nil:
		return step{err: fmt.Errorf("submit %s to %s: read original: %w", w.Type, w.DebateID, err)}, false
	case !found:
		return step{}, false
	}
	return step{res: protocol.Result{Argument: orig, Debate: d, Replay: true}}, true
}

// replay returns the replay of w, whose original its debate holds.
func (p *pipeline) replay(w protocol.Write, d protocol.Debate) step {
	s, found := p.findReplay(w, d)
	if s.err == nil && !found {
		s.err = fmt.Errorf("submit %s to %s: the original of client_request_id %q vanished", w.Type, w.DebateID, w.ClientRequestID)
	}
	return s
}

// time is the time of a write.
func (p *pipeline) time() time.Time { return stamp(p.now) }

// stamp returns the time now tells in UTC, to the microsecond both backends
// keep.
func stamp(now func() time.Time) time.Time { return now().UTC().Truncate(time.Microsecond) }

// errDebateExists refuses a create whose debate id is taken by a debate
// created with another client_request_id.
func errDebateExists(id string, state protocol.State) error {
	return &protocol.Error{
		Code:         protocol.CodeInvalidInput,
		Message:      fmt.Sprintf("debate %s already exists", id),
		Suggestion:   "choose a new debate id (debate generate-id), or resend the original client_request_id to get the existing debate",
		CurrentState: state,
	}
}

// errTargetNotInDebate refuses a write whose target is not an argument of
// its debate.
func errTargetNotInDebate(target, debate string) error {
	return protocol.TargetNotInDebate(target, debate)
}

// autoRuling is the closing RULING the store adds, as arbitrator, after a new
// RESOLUTION of debateID.
func autoRuling(debateID, resolutionID string) protocol.Write {
	return protocol.Write{
		DebateID:        debateID,
		Type:            protocol.Ruling,
		Role:            protocol.Arbitrator,
		TargetID:        resolutionID,
		Content:         protocol.AutoRulingContent,
		ClientRequestID: "auto-ruling:" + resolutionID,
		Close:           true,
	}
}

// lastWordAfter returns the seq of the arbitrator's last word in a debate
// after a is written to it: a's if it is an INTERVENTION or a RULING, else
// lastWord, the seq before, as the trigger on arguments sets the debate's
// last_word_seq (see migrations).
func lastWordAfter(lastWord int, a protocol.Argument) int {
	if a.Type == protocol.Intervention || a.Type == protocol.Ruling {
		return a.Seq
	}
	return lastWord
}
