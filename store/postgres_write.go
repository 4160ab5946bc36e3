package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/debatehq/debate/protocol"
)

// On PostgreSQL every write is its own READ COMMITTED transaction,
// serialized with the other writes of its debate, in this process or another
// replica, by a row lock on the debate (SELECT … FOR UPDATE) taken before
// anything is read. Each statement after the lock sees what the writes before
// it committed. The commit sends the notification that wakes waiters on every
// replica. The write rule (see pipeline) runs in it over the primitives of
// pgTx, each one round trip.

// create writes a debate and its MOTION, or answers a replay.
func (p *pgDB) create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error) {
	return p.write(ctx, "create debate "+nd.ID, func(r *pipeline) (step, error) { return r.create(nd) })
}

// submit runs the write rule for w and, after a new RESOLUTION, the closing
// RULING; both commit together. A write is three round trips: begin, lock
// and read; insert and update; commit. The RULING adds one.
func (p *pgDB) submit(ctx context.Context, w protocol.Write) (protocol.Result, error) {
	return p.write(ctx, fmt.Sprintf("submit %s to %s", w.Type, w.DebateID), func(r *pipeline) (step, error) { return r.submit(w) })
}

// write runs one create or write in a transaction of its own, commits it
// unless it was refused or replayed, and wakes this Store's waiters; what
// names it in errors.
func (p *pgDB) write(ctx context.Context, what string, run func(*pipeline) (step, error)) (protocol.Result, error) {
	t := &pgTx{ctx: ctx, pool: p.pool}
	defer t.rollback()
	s, err := run(&pipeline{tx: t, now: p.s.opts.Now, log: p.s.opts.Logger})
	if err != nil {
		return protocol.Result{}, fmt.Errorf("%s: %w", what, err)
	}
	if s.err != nil || s.res.Replay {
		return s.res, s.err
	}
	if err := t.commit(); err != nil {
		return protocol.Result{}, fmt.Errorf("%s: commit: %w", what, err)
	}
	newest := s.res.Argument
	if s.res.AutoRuling != nil {
		newest = *s.res.AutoRuling
	}
	p.s.hub.notify(newest.DebateID, newest.Seq)
	return s.res, nil
}

// pgTx is a PostgreSQL write transaction: the txn the write rule runs its
// writes in. It begins with its first batch, which saves the round trip of
// a BEGIN of its own. Its first write runs in the transaction itself, whose
// rollback undoes it; each later one (the closing RULING after a RESOLUTION)
// in a savepoint opened with its first statement, so that its failure leaves
// the first standing. Every primitive is one batch: one round trip.
type pgTx struct {
	ctx  context.Context
	pool *pgxpool.Pool
	tx   pgx.Tx // nil until the first batch is sent
	// later is set once the first write has ended; open while the savepoint
	// of a later write is open.
	later, open bool
}

// batch returns a batch to send, which begins the transaction if nothing
// was sent yet, and opens the savepoint of a later write if its first
// statement is in it.
func (t *pgTx) batch() *pgx.Batch {
	b := &pgx.Batch{}
	if t.tx == nil {
		b.BeginTx(pgx.TxOptions{})
	}
	if t.later && !t.open {
		b.Queue(`SAVEPOINT w`)
		t.open = true
	}
	return b
}

// send sends b, made by batch: on a connection of the pool when it begins
// the transaction, which then keeps the connection until it ends.
func (t *pgTx) send(b *pgx.Batch) error {
	if t.tx != nil {
		return t.tx.SendBatch(t.ctx, b).Close()
	}
	br := t.pool.SendBatch(t.ctx, b)
	t.tx = br.Tx()
	return br.Close()
}

// commit commits the transaction.
func (t *pgTx) commit() error {
	if t.tx == nil {
		return errors.New("no transaction began")
	}
	return t.tx.Commit(t.ctx)
}

// rollback ends the transaction unless it was committed, giving its
// connection back to the pool.
func (t *pgTx) rollback() {
	if t.tx != nil {
		t.tx.Rollback(context.Background())
	}
}

// row sends q alone and scans its one row with scan.
func (t *pgTx) row(scan func(pgx.Row) error, q string, args ...any) error {
	b := t.batch()
	b.Queue(q, args...).QueryRow(scan)
	return t.send(b)
}

func (t *pgTx) end(failed bool) error {
	open := t.open
	t.later, t.open = true, false
	if !open || !failed {
		return nil
	}
	if _, err := t.tx.Exec(t.ctx, `ROLLBACK TO SAVEPOINT w`); err != nil {
		return fmt.Errorf("roll back a failed write: %w", err)
	}
	return nil
}

// createDebate inserts d, then m; a create of the same id committed
// meanwhile makes the insert wait for it and then do nothing.
func (t *pgTx) createDebate(d protocol.Debate, m protocol.Argument) (protocol.Debate, protocol.Argument, bool, error) {
	var inserted int64
	b := t.batch()
	b.Queue(`INSERT INTO debates (`+debateCols+`) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
		d.ID, d.Title, string(d.Type), string(d.State), d.CreatedAt, d.UpdatedAt).Exec(func(tag pgconn.CommandTag) error {
		inserted = tag.RowsAffected()
		return nil
	})
	if err := t.send(b); err != nil {
		return d, m, false, err
	}
	if inserted == 0 {
		return t.existing(d.ID)
	}
	b = t.batch()
	queueInsert(b, m)
	queueNotify(b, d.ID, m.Seq)
	return d, m, true, t.send(b)
}

// existing reads a debate that exists and its MOTION.
func (t *pgTx) existing(id string) (protocol.Debate, protocol.Argument, bool, error) {
	var d protocol.Debate
	var m protocol.Argument
	err := t.row(func(r pgx.Row) (err error) {
		d, err = pgScanDebate(r)
		return err
	}, `SELECT `+debateCols+` FROM debates WHERE id = $1 FOR SHARE`, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, m, false, errors.New("deleted while being created; try again")
	}
	if err != nil {
		return d, m, false, err
	}
	m, err = t.at(id, 1)
	if err != nil {
		return d, m, false, fmt.Errorf("read motion: %w", err)
	}
	return d, m, false, nil
}

// head locks the debate and reads its head in one round trip: the server
// runs the second statement, with a snapshot of its own, only once the first
// holds the lock.
func (t *pgTx) head(w protocol.Write) (pipelineHead, error) {
	var (
		h                                    pipelineHead
		lockErr                              error
		newestID, existingID, targetDebateID *string
		targetSeq                            *int
	)
	b := t.batch()
	b.Queue(`SELECT `+debateCols+`, last_word_seq FROM debates WHERE id = $1 FOR UPDATE`, w.DebateID).QueryRow(func(r pgx.Row) error {
		h.d, lockErr = pgScanDebate(r, &h.lastWord)
		return nil
	})
	b.Queue(`SELECT
	COALESCE((SELECT MAX(seq) FROM arguments WHERE debate_id = $1), 0),
	(SELECT id FROM arguments WHERE debate_id = $1 ORDER BY seq DESC LIMIT 1),
	(SELECT id FROM arguments WHERE debate_id = $1 AND client_request_id = $2),
	(SELECT debate_id FROM arguments WHERE id = $3),
	(SELECT seq FROM arguments WHERE id = $3)`, w.DebateID, w.ClientRequestID, w.TargetID).QueryRow(func(r pgx.Row) error {
		return r.Scan(&h.maxSeq, &newestID, &existingID, &targetDebateID, &targetSeq)
	})
	err := t.send(b)
	if errors.Is(lockErr, pgx.ErrNoRows) {
		return h, notFound(w.DebateID)
	}
	if err = errors.Join(lockErr, err); err != nil {
		return h, err
	}
	h.newestID, h.existingID, h.targetDebate = orZero(newestID), orZero(existingID), orZero(targetDebateID)
	h.targetSeq, h.probed = orZero(targetSeq), true
	return h, nil
}

// kept is never: other replicas commit without this one knowing.
func (t *pgTx) kept(string) (head, bool) { return head{}, false }

func (t *pgTx) position(id string) (string, int, error) {
	var debateID string
	var seq int
	err := t.row(func(r pgx.Row) error { return r.Scan(&debateID, &seq) }, `SELECT debate_id, seq FROM arguments WHERE id = $1`, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, nil
	}
	return debateID, seq, err
}

func (t *pgTx) original(debateID, clientRequestID string) (protocol.Argument, bool, error) {
	a, err := t.argument(`SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND client_request_id = $2`, debateID, clientRequestID)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, false, nil
	}
	return a, err == nil, err
}

func (t *pgTx) at(debateID string, seq int) (protocol.Argument, error) {
	return t.argument(`SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND seq = $2`, debateID, seq)
}

func (t *pgTx) argument(q string, args ...any) (protocol.Argument, error) {
	var a protocol.Argument
	err := t.row(func(r pgx.Row) (err error) {
		a, err = pgScanArgument(r)
		return err
	}, q, args...)
	return a, err
}

// insert inserts a, sets d's state and queues the notification of the
// commit, in one round trip. The debate is locked and its head was read
// under the lock, or written by this transaction: a's client_request_id is
// new, so it always inserts.
func (t *pgTx) insert(a protocol.Argument, d protocol.Debate) (bool, error) {
	b := t.batch()
	queueInsert(b, a)
	b.Queue(`UPDATE debates SET state = $1, updated_at = $2 WHERE id = $3`, string(d.State), d.UpdatedAt, d.ID)
	queueNotify(b, d.ID, a.Seq)
	return true, t.send(b)
}

// orZero returns what v points to, or the zero value when v is nil (SQL NULL).
func orZero[T any](v *T) T {
	if v == nil {
		var zero T
		return zero
	}
	return *v
}

// now is the Store's clock at PostgreSQL's precision.
func (p *pgDB) now() time.Time { return stamp(p.s.opts.Now) }

func queueInsert(b *pgx.Batch, a protocol.Argument) {
	var parent *string
	if a.ParentID != "" {
		parent = &a.ParentID
	}
	b.Queue(`INSERT INTO arguments (`+argCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		a.ID, a.DebateID, parent, string(a.Type), string(a.Role), a.Content, a.ClientRequestID, a.Seq, string(a.StateAfter), a.CreatedAt)
}

// queueNotify queues the notification of a commit to debateID whose newest
// seq is seq (0: deleted). PostgreSQL delivers it to every listener when the
// transaction commits, and drops it if the transaction, or the savepoint it
// was sent in, rolls back.
func queueNotify(b *pgx.Batch, debateID string, seq int) {
	b.Queue(`SELECT pg_notify($1, $2)`, notifyChannel, notice(debateID, seq))
}

// pgScanDebate scans the debateCols of a row, then its further columns into
// extra.
func pgScanDebate(r scanner, extra ...any) (protocol.Debate, error) {
	var d protocol.Debate
	var typ, state string
	if err := r.Scan(append([]any{&d.ID, &d.Title, &typ, &state, &d.CreatedAt, &d.UpdatedAt}, extra...)...); err != nil {
		return protocol.Debate{}, err
	}
	d.Type, d.State = protocol.DebateType(typ), protocol.State(state)
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	return d, nil
}

func pgScanArgument(r scanner) (protocol.Argument, error) {
	var a protocol.Argument
	var parent *string
	var typ, role, state string
	if err := r.Scan(&a.ID, &a.DebateID, &parent, &typ, &role, &a.Content, &a.ClientRequestID, &a.Seq, &state, &a.CreatedAt); err != nil {
		return protocol.Argument{}, err
	}
	if parent != nil {
		a.ParentID = *parent
	}
	a.Type, a.Role, a.StateAfter = protocol.ArgType(typ), protocol.Role(role), protocol.State(state)
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}
