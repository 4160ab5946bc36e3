package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/debatehq/debate/protocol"
)

// maxBatch bounds the writes committed together.
const maxBatch = 64

// perDebateCap bounds the writes of one debate in a batch (see take).
const perDebateCap = 4

// errClosed is the error of writes that were still queued when the Store
// closed, and of writes made after.
var errClosed = errors.New("store is closed")

// States of an op. The caller may abandon an op only while it is queued;
// once a leader has taken it into a batch (or passed the lead to it), the
// caller waits for its outcome.
const (
	opQueued int32 = iota
	opLeading
	opTaken
	opAbandoned
)

// op is one Create or Submit waiting to be written.
type op struct {
	ctx    context.Context
	create *NewDebate // exactly one of create and write is set
	write  *Write
	n      uint64 // arrival number
	state  atomic.Int32
	// done receives the op's outcome or, before it, the lead. It holds one
	// message: the lead is received before the outcome is sent.
	done chan outcome

	out outcome
	ran bool // its pipeline ran in the batch's transaction
}

type outcome struct {
	res  Result
	err  error
	lead bool // not an outcome: the caller now leads the writer
}

func (o *op) debateID() string {
	if o.create != nil {
		return o.create.ID
	}
	return o.write.DebateID
}

func (o *op) wrap(err error) error {
	if o.create != nil {
		return fmt.Errorf("create debate %s: %w", o.create.ID, err)
	}
	return fmt.Errorf("submit %s to %s: %w", o.write.Type, o.write.DebateID, err)
}

// writer is the group commit of Create and Submit, without a goroutine of its
// own (leader and followers). A caller that finds the writer idle leads: it
// takes what is queued (its own write first, at most maxBatch writes, see
// take) as soon as it holds the database's write lock, runs each write's
// pipeline in a savepoint of one BEGIN IMMEDIATE transaction, commits once,
// notifies subscribers and answers each caller. Callers that arrive meanwhile queue and
// wait; when the leader's batch is committed it passes the lead to the oldest
// of them and returns. Nobody waits for more writes to arrive: a lone write is
// committed at once, by its own caller.
type writer struct {
	s *Store

	mu     sync.Mutex
	queue  []*op // in arrival order
	next   uint64
	busy   bool // a caller leads
	closed bool
	idle   *sync.Cond // signalled when busy turns false

	commits atomic.Int64 // batches committed
}

func newWriter(s *Store) *writer {
	w := &writer{s: s}
	w.idle = sync.NewCond(&w.mu)
	return w
}

// do writes o and returns its outcome. If ctx ends while o is still queued,
// o is withdrawn and do returns ctx's error; once o is taken into a batch, do
// waits for that batch to commit and returns o's outcome.
func (w *writer) do(ctx context.Context, o *op) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, o.wrap(err)
	}
	o.ctx = ctx
	o.done = make(chan outcome, 1)
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return Result{}, o.wrap(errClosed)
	}
	o.n = w.next
	w.next++
	w.queue = append(w.queue, o)
	lead := !w.busy
	if lead {
		w.busy = true
		o.state.Store(opLeading)
	}
	w.mu.Unlock()
	if lead {
		w.lead(o)
	}

	cancelled := ctx.Done()
	for {
		select {
		case out := <-o.done:
			if out.lead {
				w.lead(o)
				continue
			}
			return out.res, out.err
		case <-cancelled:
			if o.state.CompareAndSwap(opQueued, opAbandoned) {
				return Result{}, o.wrap(ctx.Err())
			}
			cancelled = nil
		}
	}
}

// lead runs batches until o, the leader's own write, is answered, then passes
// the lead to the oldest queued write or leaves the writer idle.
func (w *writer) lead(o *op) {
	for len(o.done) == 0 {
		w.mu.Lock()
		closed, arrived := w.closed, w.next
		w.mu.Unlock()
		if closed {
			o.state.Store(opTaken)
			o.done <- outcome{err: o.wrap(errClosed)}
			break
		}
		w.batch(arrived)
	}
	var next *op
	w.mu.Lock()
	for !w.closed && len(w.queue) > 0 && next == nil {
		if c := w.queue[0]; c.state.CompareAndSwap(opQueued, opLeading) {
			next = c
		} else {
			w.queue[0] = nil
			w.queue = w.queue[1:]
		}
	}
	if next == nil {
		w.busy = false
		w.idle.Broadcast()
	}
	w.mu.Unlock()
	if next != nil {
		next.done <- outcome{lead: true}
	}
}

// close waits for the batch being written, then fails the writes still
// queued. Writes made after close fail at once.
func (w *writer) close() {
	w.mu.Lock()
	w.closed = true
	for w.busy {
		w.idle.Wait()
	}
	pending := w.queue
	w.queue = nil
	w.mu.Unlock()
	for _, o := range pending {
		if o.state.CompareAndSwap(opQueued, opTaken) {
			o.done <- outcome{err: o.wrap(errClosed)}
		}
	}
}

// take removes from the queue, in queue order, the ops of the next batch and
// marks them taken; ops their callers abandoned are dropped. It takes at most
// maxBatch ops, only ops that arrived before the arrival number before, and at
// most perDebate ops of one debate (0: no such limit). When more ops of a
// debate are queued than it may take, it takes a random choice of them (the
// leader's own op always), so that writers contending for one debate do not
// fall into lock-step, each batch serving the same group in the same order;
// the others stay queued, in order, for the next batch.
func (w *writer) take(before uint64, perDebate int) []*op {
	w.mu.Lock()
	defer w.mu.Unlock()
	var queued map[string]int // live ops per debate not yet visited
	if perDebate > 0 {
		queued = make(map[string]int)
		for _, o := range w.queue {
			if o.n < before && o.state.Load() != opAbandoned {
				queued[o.debateID()]++
			}
		}
	}
	taken := make(map[string]int)
	var ops []*op
	kept := w.queue[:0]
	i := 0
	for ; i < len(w.queue) && len(ops) < maxBatch; i++ {
		o := w.queue[i]
		if o.n >= before {
			break
		}
		st := o.state.Load()
		if st == opAbandoned {
			continue
		}
		if queued != nil {
			id := o.debateID()
			left, room := queued[id], perDebate-taken[id]
			queued[id]--
			// Selection sampling: each of the left ops is taken with
			// probability room/left, which takes exactly min(room, left).
			if st != opLeading && (room <= 0 || rand.IntN(left) >= room) {
				kept = append(kept, o)
				continue
			}
			taken[id]++
		}
		if o.state.CompareAndSwap(opQueued, opTaken) || o.state.CompareAndSwap(opLeading, opTaken) {
			ops = append(ops, o)
		}
	}
	rest := append(kept, w.queue[i:]...)
	clear(w.queue[len(rest):])
	w.queue = rest
	return ops
}

// giveBack returns ops the writer took but did not run to the head of the
// queue, in their order.
func (w *writer) giveBack(ops []*op) {
	if len(ops) == 0 {
		return
	}
	for _, o := range ops {
		o.state.Store(opQueued)
	}
	w.mu.Lock()
	w.queue = append(ops[:len(ops):len(ops)], w.queue...)
	w.mu.Unlock()
}

// batch writes one batch. arrived is the arrival number after the last op
// queued when it started: if the write lock cannot be had (another process
// held it past the busy timeout), those ops fail as a lone write would have.
func (w *writer) batch(arrived uint64) {
	s := w.s
	bg := context.Background()
	tx, err := s.w.BeginTx(bg, nil)
	if err != nil {
		for _, o := range w.take(arrived, 0) {
			o.done <- outcome{err: o.wrap(err)}
		}
		return
	}
	ops := w.take(math.MaxUint64, perDebateCap)
	if len(ops) == 0 {
		tx.Rollback()
		return
	}
	b := &batchTx{s: s, tx: tx,
		head: tx.StmtContext(bg, s.stmts.head), insert: tx.StmtContext(bg, s.stmts.insert),
		update: tx.StmtContext(bg, s.stmts.update), argByID: tx.StmtContext(bg, s.stmts.argByID)}
	// A lone write needs no savepoint: if it fails after a change, the whole
	// transaction is rolled back. A RESOLUTION is never alone: its RULING
	// follows.
	b.solo = len(ops) == 1 && (ops[0].write == nil || ops[0].write.Type != protocol.Resolution)
	for i, o := range ops {
		if err := o.ctx.Err(); err != nil {
			o.out = outcome{err: o.wrap(err)}
			continue
		}
		if err := b.run(o); err != nil {
			// The transaction is lost: nothing of this batch is written.
			tx.Rollback()
			for _, done := range ops[:i+1] {
				if done.ran {
					done.out = outcome{err: done.wrap(err)}
				}
			}
			w.giveBack(ops[i+1:])
			w.answer(ops[:i+1])
			return
		}
	}
	if b.abort {
		tx.Rollback()
		w.answer(ops)
		return
	}
	if err := tx.Commit(); err != nil {
		for _, o := range ops {
			if o.ran {
				o.out = outcome{err: o.wrap(fmt.Errorf("commit: %w", err))}
			}
		}
	} else {
		w.commits.Add(1)
	}
	w.answer(ops)
}

// answer notifies the subscribers of the debates that changed, then answers
// every caller.
func (w *writer) answer(ops []*op) {
	for _, o := range ops {
		if o.out.err != nil || o.out.res.Replay {
			continue
		}
		seq := o.out.res.Argument.Seq
		if a := o.out.res.AutoRuling; a != nil {
			seq = max(seq, a.Seq)
		}
		w.s.hub.notify(o.out.res.Argument.DebateID, seq)
	}
	for _, o := range ops {
		o.done <- o.out
	}
}

// batchTx is the transaction of one batch with its statements.
type batchTx struct {
	s                             *Store
	tx                            *sql.Tx
	head, insert, update, argByID *sql.Stmt

	open  bool // the savepoint of the write being run is open
	solo  bool // the batch is one write, run without a savepoint
	dirty bool // the lone write has changed something
	abort bool // the lone write failed after a change: roll back, do not commit
}

// savepoint opens the savepoint of the write being run; the pipeline calls it
// before its first change, so refusals cost no statement.
func (b *batchTx) savepoint() error {
	if b.solo {
		b.dirty = true
		return nil
	}
	if b.open {
		return nil
	}
	if _, err := b.tx.ExecContext(context.Background(), "SAVEPOINT w"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	b.open = true
	return nil
}

// end closes the savepoint of the write being run, rolling its changes back
// first when it failed. An error means the transaction is unusable.
func (b *batchTx) end(failed bool) error {
	if b.solo {
		b.abort = b.abort || (failed && b.dirty)
		return nil
	}
	if !b.open {
		return nil
	}
	b.open = false
	ctx := context.Background()
	if failed {
		if _, err := b.tx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
			return fmt.Errorf("roll back a failed write: %w", err)
		}
	}
	if _, err := b.tx.ExecContext(ctx, "RELEASE w"); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}

// run runs o's pipeline and, after a new RESOLUTION, the closing RULING in a
// savepoint of its own, whose failure leaves the RESOLUTION standing. It sets
// o.out; an error return means the transaction is lost.
func (b *batchTx) run(o *op) error {
	o.ran = true
	var res Result
	var err error
	if o.create != nil {
		res, err = b.create(*o.create)
	} else {
		res, err = b.write(*o.write)
	}
	if e := b.end(err != nil); e != nil {
		return e
	}
	o.out = outcome{res: res, err: err}
	if err != nil || res.Replay || o.write == nil || o.write.Type != protocol.Resolution {
		return nil
	}
	auto, err := b.write(autoRuling(o.write.DebateID, res.Argument.ID))
	if e := b.end(err != nil); e != nil {
		return e
	}
	if err != nil {
		b.s.opts.Logger.Error("auto-ruling failed; the resolution stands", "debate", o.write.DebateID, "resolution", res.Argument.ID, "err", err)
		return nil
	}
	o.out.res.AutoRuling = &auto.Argument
	o.out.res.Debate = auto.Debate
	return nil
}
