package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/debatehq/debate/protocol"
)

// maxBatch bounds the writes committed together.
const maxBatch = 64

// perDebateCap bounds the writes of one debate in a batch, so that many
// writers contending for one debate (most of whom are refused: it is not
// their turn) do not crowd out the writes of other debates. The writes of a
// debate past the cap stay queued, in order, for the next batch.
const perDebateCap = 4

// errClosed is the error of writes that were still queued when the Store
// closed, and of writes made after.
var errClosed = errors.New("store is closed")

// op is one Create or Submit waiting to be written.
type op struct {
	ctx    context.Context
	create *protocol.NewDebate // exactly one of create and write is set
	write  *protocol.Write
	done   chan outcome // receives the outcome; buffered

	// taken and gone are guarded by writer.mu. Once the writer has taken the
	// op into a batch, its caller waits for the outcome; until then the
	// caller may abandon it (gone), and the writer drops it.
	taken, gone bool

	out outcome
	ran bool // its pipeline ran in the batch's transaction
	// lastWord is the seq of the arbitrator's last word in the debate after
	// a new argument, for the head the commit leaves.
	lastWord int
}

type outcome struct {
	res protocol.Result
	err error
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
// own. A caller queues its write, then either receives its outcome or takes
// the writer's token (a channel of one slot) and runs one batch itself: the
// writes queued then, its own among them (see take), each in a savepoint of
// one BEGIN IMMEDIATE transaction, committed once; it notifies subscribers,
// answers every caller of the batch and gives the token back, and another
// waiting caller takes it for the next batch. So the caller holding the token
// runs other callers' writes, and a lone write is committed at once by its own
// caller. Nobody waits for more writes to arrive: the caller taking the token
// only yields once, so that writers already runnable queue first (see batch).
type writer struct {
	db    *sqliteDB
	token chan struct{} // holds a value while a caller runs a batch

	mu     sync.Mutex
	queue  []*op // in arrival order
	closed bool
	// grown is broadcast when a write joins the queue and when the writer
	// closes; tests wait on it to order what they queue.
	grown *sync.Cond

	commits    atomic.Int64 // batches committed
	fromMemory atomic.Int64 // writes whose head was not read from the database
	version    int64        // PRAGMA data_version last read; guarded by the token
}

// sawVersion takes PRAGMA data_version read on the writer's connection (by
// the token's holder), which changes only when another process commits:
// the heads are then dropped; unchanged, they are all current, and it
// reports true.
func (w *writer) sawVersion(v int64, err error) bool {
	current := false
	switch {
	case err != nil || w.version == 0:
		w.db.heads.reset() // nothing to compare with
	case v != w.version:
		w.db.heads.foreign()
	default:
		w.db.heads.verified()
		current = true
	}
	if err == nil {
		w.version = v
	}
	return current
}

// verify tells whether the heads are all current: when no batch is being
// written, it reads PRAGMA data_version on the writer's connection. While a
// batch is written it answers false, since the batch may be waiting for
// another process to release the write lock.
func (w *writer) verify() bool {
	select {
	case w.token <- struct{}{}:
	default:
		return false
	}
	defer func() { <-w.token }()
	var v int64
	err := w.db.stmts.version.QueryRowContext(context.Background()).Scan(&v)
	w.sawVersion(v, err)
	return err == nil && v == w.version && w.db.heads.current()
}

func newWriter(db *sqliteDB) *writer {
	w := &writer{db: db, token: make(chan struct{}, 1)}
	w.grown = sync.NewCond(&w.mu)
	return w
}

// do writes o and returns its outcome. If ctx ends while o is still queued,
// o is withdrawn and do returns ctx's error; once o is taken into a batch, do
// waits for that batch to commit and returns o's outcome.
func (w *writer) do(ctx context.Context, o *op) (protocol.Result, error) {
	if err := ctx.Err(); err != nil {
		return protocol.Result{}, o.wrap(err)
	}
	o.ctx = ctx
	o.done = make(chan outcome, 1)
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return protocol.Result{}, o.wrap(errClosed)
	}
	w.queue = append(w.queue, o)
	w.grown.Broadcast()
	w.mu.Unlock()

	// Every caller with a write queued waits here, so whenever the token is
	// free and writes are queued, one of their callers takes it.
	cancelled := ctx.Done()
	for {
		select {
		case out := <-o.done:
			return out.res, out.err
		default:
		}
		select {
		case out := <-o.done:
			return out.res, out.err
		case w.token <- struct{}{}:
			w.batch()
			<-w.token
		case <-cancelled:
			w.mu.Lock()
			if !o.taken {
				o.gone = true
				w.mu.Unlock()
				return protocol.Result{}, o.wrap(ctx.Err())
			}
			w.mu.Unlock()
			cancelled = nil // taken: wait for the outcome
		}
	}
}

// close waits for the batch being written, then fails the writes still
// queued. Writes made after close fail at once.
func (w *writer) close() {
	w.mu.Lock()
	w.closed = true
	w.grown.Broadcast()
	w.mu.Unlock()
	w.token <- struct{}{}
	w.failQueued(errClosed)
	<-w.token
}

// failQueued answers every queued write with err.
func (w *writer) failQueued(err error) {
	for _, o := range w.take(0) {
		o.done <- outcome{err: o.wrap(err)}
	}
}

// take removes from the queue the ops of the next batch, in queue order, and
// marks them taken: at most maxBatch of them and at most perDebate of one
// debate (no limit when perDebate is 0). Ops their callers abandoned are
// dropped; the others stay queued, in order.
//
// When more than perDebate ops of a debate are queued, it takes the oldest
// and others spread evenly over the rest of that debate's queue rather than
// the next ones in line: writers answered together queue again together, and
// taking neighbours would serve the same group together every time, each
// batch refusing the same members (it is not their turn) in lock-step.
func (w *writer) take(perDebate int) []*op {
	w.mu.Lock()
	defer w.mu.Unlock()
	live := map[string]int{} // live ops per debate
	for _, o := range w.queue {
		if !o.gone {
			live[o.debateID()]++
		}
	}
	seen := map[string]int{}
	var ops []*op
	kept := w.queue[:0]
	for _, o := range w.queue {
		if o.gone {
			continue
		}
		id := o.debateID()
		j, n := seen[id], live[id]
		seen[id]++
		// The j-th op of n is taken when it starts a new stretch of n/perDebate.
		spread := perDebate == 0 || n <= perDebate || j == 0 || j*perDebate/n != (j-1)*perDebate/n
		if !spread || (perDebate > 0 && len(ops) == maxBatch) {
			kept = append(kept, o)
			continue
		}
		o.taken = true
		ops = append(ops, o)
	}
	clear(w.queue[len(kept):])
	w.queue = kept
	return ops
}

// fail answers the writes of the next batch with err.
func (w *writer) fail(err error) {
	for _, o := range w.take(perDebateCap) {
		o.done <- outcome{err: o.wrap(err)}
	}
}

// giveBack returns ops the writer took but did not run to the head of the
// queue, in their order.
func (w *writer) giveBack(ops []*op) {
	if len(ops) == 0 {
		return
	}
	w.mu.Lock()
	for _, o := range ops {
		o.taken = false
	}
	w.queue = append(ops[:len(ops):len(ops)], w.queue...)
	w.mu.Unlock()
}

// batch writes one batch; the caller holds the token. After close began it
// fails what is queued instead.
func (w *writer) batch() {
	db := w.db
	bg := context.Background()
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		w.failQueued(errClosed)
		return
	}
	conn, err := db.w.Conn(bg)
	if err != nil {
		w.fail(err)
		return
	}
	defer func() {
		// Count the frames this batch (and any write on the connection
		// since the last batch) put in the WAL, for the checkpointer.
		n, err := frames(conn)
		if err != nil {
			db.opts.Logger.Error("store: count WAL frames", "err", err)
			n = db.ckpt.every
		}
		db.ckpt.committed(n)
		conn.Close()
	}()
	tx, err := conn.BeginTx(bg, nil)
	if err != nil {
		// The write lock could not be had (another process held it past the
		// busy timeout): the writes fail as a lone write would have.
		w.fail(err)
		return
	}
	// Let the goroutines runnable now run first: among them are the callers
	// the last batch answered, whose next writes then join this batch
	// instead of waiting for the one after it.
	runtime.Gosched()
	ops := w.take(perDebateCap)
	if len(ops) == 0 {
		tx.Rollback()
		return
	}
	w.commit(bg, tx, ops)
}

// commit runs ops in tx, each in a savepoint unless it is alone, commits
// and answers their callers. When the transaction is lost, nothing of the
// batch is written and the writes not run yet go back to the queue.
func (w *writer) commit(bg context.Context, tx *sql.Tx, ops []*op) {
	db := w.db
	var version int64
	err := tx.StmtContext(bg, db.stmts.version).QueryRowContext(bg).Scan(&version)
	b := &batchTx{db: db, tx: tx, fromHeads: w.sawVersion(version, err),
		headStmt: tx.StmtContext(bg, db.stmts.head), target: tx.StmtContext(bg, db.stmts.target),
		existing: tx.StmtContext(bg, db.stmts.existing), insertStmt: tx.StmtContext(bg, db.stmts.insert),
		update: tx.StmtContext(bg, db.stmts.update)}
	b.rule = pipeline{tx: b, now: db.opts.Now, log: db.opts.Logger}
	defer func() { w.fromMemory.Add(int64(b.rule.fromMemory)) }()
	// A lone write needs no savepoint: if it fails, the transaction is rolled
	// back instead of committed. A RESOLUTION is never alone: its RULING
	// follows, and must not undo it.
	b.solo = len(ops) == 1 && (ops[0].write == nil || ops[0].write.Type != protocol.Resolution)
	if !b.solo {
		b.sp = tx.StmtContext(bg, db.stmts.savepoint)
		b.release = tx.StmtContext(bg, db.stmts.release)
		b.rollbackTo = tx.StmtContext(bg, db.stmts.rollbackTo)
	}
	for i, o := range ops {
		if err := o.ctx.Err(); err != nil {
			o.out = outcome{err: o.wrap(err)}
			continue
		}
		if err := b.run(o); err != nil {
			// The transaction is lost: nothing of this batch is written. The
			// writes not run yet go back to the queue for the next batch.
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
	if b.solo && ops[0].out.err != nil {
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

// answer stores the heads of the debates that changed and notifies their
// subscribers, then answers every caller.
func (w *writer) answer(ops []*op) {
	for _, o := range ops {
		if o.out.err != nil || o.out.res.Replay {
			continue
		}
		res := o.out.res
		newest := res.Argument
		if res.AutoRuling != nil {
			newest = *res.AutoRuling
		}
		w.db.heads.committed(res.Debate, newest, o.lastWord)
		w.db.hub.notify(newest.DebateID, newest.Seq)
	}
	for _, o := range ops {
		o.done <- o.out
	}
}

// batchTx is the transaction of one batch with its statements: the txn the
// write rule runs its writes in.
type batchTx struct {
	db                                             *sqliteDB
	tx                                             *sql.Tx
	rule                                           pipeline
	headStmt, target, existing, insertStmt, update *sql.Stmt
	sp, release, rollbackTo                        *sql.Stmt // nil when solo

	solo bool // the batch is one write, run without a savepoint
	open bool // the savepoint of the write being run is open

	// fromHeads is set when no other process has committed since the
	// writer's last batch: the heads its commits stored are exact.
	fromHeads bool
}

// savepoint opens the savepoint of the write being run; the primitives call
// it before their first change, so refusals cost no statement.
func (b *batchTx) savepoint() error {
	if b.solo || b.open {
		return nil
	}
	if _, err := b.sp.ExecContext(context.Background()); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	b.open = true
	return nil
}

// end closes the savepoint of the write being run, rolling its changes back
// first when it failed. An error means the transaction is unusable.
func (b *batchTx) end(failed bool) error {
	if !b.open {
		return nil
	}
	b.open = false
	ctx := context.Background()
	if failed {
		if _, err := b.rollbackTo.ExecContext(ctx); err != nil {
			return fmt.Errorf("roll back a failed write: %w", err)
		}
	}
	if _, err := b.release.ExecContext(ctx); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}

// run runs the write rule of o (see pipeline), which sets o.out; an error
// return means the transaction is lost.
func (b *batchTx) run(o *op) error {
	o.ran = true
	var s step
	var err error
	if o.create != nil {
		s, err = b.rule.create(*o.create)
	} else {
		s, err = b.rule.submit(*o.write)
	}
	o.out, o.lastWord = outcome{res: s.res, err: s.err}, s.lastWord
	return err
}
