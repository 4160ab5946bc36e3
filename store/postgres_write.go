package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/protocol"
)

// On PostgreSQL every write is its own READ COMMITTED transaction,
// serialized with the other writes of its debate, in this process or another
// replica, by a row lock on the debate (SELECT … FOR UPDATE) taken before
// anything is read. Each statement after the lock sees what the writes before
// it committed. The commit sends the notification that wakes waiters on every
// replica.

// now is the Store's clock at PostgreSQL's precision.
func (p *pgDB) now() time.Time { return p.s.opts.Now().UTC().Truncate(time.Microsecond) }

// create writes a debate and its MOTION, or answers a replay.
func (p *pgDB) create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	defer tx.Rollback(context.Background())
	state, err := protocol.Transition(protocol.None, protocol.Motion, protocol.Proposer, false)
	if err != nil {
		return protocol.Result{}, err
	}
	now := p.now()
	// A create of the same id committed meanwhile makes this insert wait for
	// it and then do nothing.
	tag, err := tx.Exec(ctx, `INSERT INTO debates (`+debateCols+`) VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
		nd.ID, nd.Title, string(nd.Type), string(state), now)
	if err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	if tag.RowsAffected() == 0 {
		d, err := pgScanDebate(tx.QueryRow(ctx, `SELECT `+debateCols+` FROM debates WHERE id = $1 FOR SHARE`, nd.ID))
		if errors.Is(err, pgx.ErrNoRows) {
			return protocol.Result{}, fmt.Errorf("create debate %s: deleted while being created; try again", nd.ID)
		}
		if err != nil {
			return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
		}
		motion, err := pgScanArgument(tx.QueryRow(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND seq = 1`, nd.ID))
		if err != nil {
			return protocol.Result{}, fmt.Errorf("create debate %s: read motion: %w", nd.ID, err)
		}
		if motion.ClientRequestID != nd.ClientRequestID {
			return protocol.Result{}, errDebateExists(nd.ID, d.State)
		}
		return protocol.Result{Argument: motion, Debate: d, Replay: true}, nil
	}
	a := protocol.Argument{
		ID: newID(), DebateID: nd.ID, Type: protocol.Motion, Role: protocol.Proposer,
		Content: nd.Content, ClientRequestID: nd.ClientRequestID, Seq: 1, StateAfter: state, CreatedAt: now,
	}
	b := &pgx.Batch{}
	queueInsert(b, a)
	queueNotify(b, nd.ID, 1)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: commit: %w", nd.ID, err)
	}
	p.s.hub.notify(nd.ID, 1)
	return protocol.Result{
		Argument: a,
		Debate:   protocol.Debate{ID: nd.ID, Title: nd.Title, Type: nd.Type, State: state, CreatedAt: now, UpdatedAt: now},
	}, nil
}

// submit runs the write pipeline for w and, after a new RESOLUTION, the
// closing RULING in a savepoint whose failure leaves the RESOLUTION standing;
// both commit together. A write is four round trips: begin, lock and read,
// insert and update, commit.
func (p *pgDB) submit(ctx context.Context, w protocol.Write) (protocol.Result, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return protocol.Result{}, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	defer tx.Rollback(context.Background())
	res, err := p.write(ctx, tx, w)
	if err != nil || res.Replay {
		return res, err
	}
	seq := res.Argument.Seq
	if w.Type == protocol.Resolution {
		auto, err := p.autoRule(ctx, tx, w.DebateID, res.Argument.ID)
		if err != nil {
			p.s.opts.Logger.Error("auto-ruling failed; the resolution stands", "debate", w.DebateID, "resolution", res.Argument.ID, "err", err)
		} else {
			res.AutoRuling, res.Debate, seq = &auto.Argument, auto.Debate, auto.Argument.Seq
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return protocol.Result{}, fmt.Errorf("submit %s to %s: commit: %w", w.Type, w.DebateID, err)
	}
	p.s.hub.notify(w.DebateID, seq)
	return res, nil
}

func (p *pgDB) autoRule(ctx context.Context, tx pgx.Tx, debateID, resolutionID string) (protocol.Result, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return protocol.Result{}, err
	}
	defer sp.Rollback(context.Background())
	res, err := p.write(ctx, sp, autoRuling(debateID, resolutionID))
	if err != nil {
		return protocol.Result{}, err
	}
	return res, sp.Commit(ctx)
}

// write runs the write pipeline (docs/PROTOCOL.md) for one argument in tx: lock
// the debate (it exists) and read the seq of the arbitrator's last word with
// it, idempotency, target belongs to the debate, transition, the ruling rule,
// seq = max+1, insert (whose trigger keeps the last word's seq), state and
// updated_at.
func (p *pgDB) write(ctx context.Context, tx pgx.Tx, w protocol.Write) (protocol.Result, error) {
	var (
		d                                    protocol.Debate
		lockErr                              error
		lastWord, maxSeq                     int
		newestID, existingID, targetDebateID *string
		targetSeq                            *int
	)
	// One round trip: the server runs the second statement, with a snapshot
	// of its own, only once the first holds the lock.
	b := &pgx.Batch{}
	b.Queue(`SELECT `+debateCols+`, last_word_seq FROM debates WHERE id = $1 FOR UPDATE`, w.DebateID).QueryRow(func(r pgx.Row) error {
		d, lockErr = pgScanDebate(r, &lastWord)
		return nil
	})
	b.Queue(`SELECT
	COALESCE((SELECT MAX(seq) FROM arguments WHERE debate_id = $1), 0),
	(SELECT id FROM arguments WHERE debate_id = $1 ORDER BY seq DESC LIMIT 1),
	(SELECT id FROM arguments WHERE debate_id = $1 AND client_request_id = $2),
	(SELECT debate_id FROM arguments WHERE id = $3),
	(SELECT seq FROM arguments WHERE id = $3)`, w.DebateID, w.ClientRequestID, w.TargetID).QueryRow(func(r pgx.Row) error {
		return r.Scan(&maxSeq, &newestID, &existingID, &targetDebateID, &targetSeq)
	})
	err := tx.SendBatch(ctx, b).Close()
	if errors.Is(lockErr, pgx.ErrNoRows) {
		return protocol.Result{}, notFound(w.DebateID)
	}
	if err = errors.Join(lockErr, err); err != nil {
		return protocol.Result{}, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	if existingID != nil {
		orig, err := pgScanArgument(tx.QueryRow(ctx, `SELECT `+argCols+` FROM arguments WHERE id = $1`, *existingID))
		if err != nil {
			return protocol.Result{}, fmt.Errorf("submit %s to %s: read original: %w", w.Type, w.DebateID, err)
		}
		return protocol.Result{Argument: orig, Debate: d, Replay: true}, nil
	}
	parent := w.TargetID
	if parent != "" {
		if targetDebateID == nil || *targetDebateID != w.DebateID {
			return protocol.Result{}, errTargetNotInDebate(w.TargetID, w.DebateID)
		}
	} else if newestID != nil {
		parent = *newestID
	}
	next, err := protocol.Transition(d.State, w.Type, w.Role, w.Close)
	if err != nil {
		return protocol.Result{}, err
	}
	if w.TargetID != "" && w.Role != protocol.Arbitrator && *targetSeq < lastWord {
		if err := checkTarget(ctx, tx, d, w, *targetSeq, lastWord); err != nil {
			return protocol.Result{}, err
		}
	}
	now := p.now()
	a := protocol.Argument{
		ID: newID(), DebateID: w.DebateID, ParentID: parent, Type: w.Type, Role: w.Role,
		Content: w.Content, ClientRequestID: w.ClientRequestID, Seq: maxSeq + 1, StateAfter: next, CreatedAt: now,
	}
	b = &pgx.Batch{}
	queueInsert(b, a)
	b.Queue(`UPDATE debates SET state = $1, updated_at = $2 WHERE id = $3`, string(next), now, w.DebateID)
	queueNotify(b, w.DebateID, a.Seq)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return protocol.Result{}, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	d.State, d.UpdatedAt = next, now
	return protocol.Result{Argument: a, Debate: d}, nil
}

// checkTarget applies the ruling rule (protocol.CheckTarget) to a write
// whose target, at targetSeq, is older than the arbitrator's last word, at
// lastWordSeq: it reads that argument (one lookup by (debate_id, seq)) for
// the refusal to name.
func checkTarget(ctx context.Context, tx pgx.Tx, d protocol.Debate, w protocol.Write, targetSeq, lastWordSeq int) error {
	lastWord, err := pgScanArgument(tx.QueryRow(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND seq = $2`,
		w.DebateID, lastWordSeq))
	if err != nil {
		return fmt.Errorf("submit %s to %s: read the arbitrator's last word (#%d): %w", w.Type, w.DebateID, lastWordSeq, err)
	}
	target := protocol.Argument{ID: w.TargetID, DebateID: w.DebateID, Seq: targetSeq}
	return protocol.CheckTarget(d.State, w.Type, w.Role, target, lastWord)
}

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
