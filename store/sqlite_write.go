package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/debatehq/debate/protocol"
)

// The SQLite backend's write pipeline: Create and Submit queue their write
// for the group commit (see writer), which runs each write's pipeline in a
// savepoint of one BEGIN IMMEDIATE transaction (see batchTx).

func (db *sqliteDB) create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error) {
	return db.wr.do(ctx, &op{create: &nd})
}

func (db *sqliteDB) submit(ctx context.Context, w protocol.Write) (protocol.Result, error) {
	return db.wr.do(ctx, &op{write: &w})
}

// writeStmts are the statements of the write pipeline, prepared once on the
// writer connection.
type writeStmts struct {
	head, target, existing, insert, update *sql.Stmt
	version                                *sql.Stmt // PRAGMA data_version
	newest                                 *sql.Stmt // on the reader pool

	// The savepoint of each write in a batch: prepared, since a batch of
	// many writes runs them for every one.
	savepoint, release, rollbackTo *sql.Stmt
}

func (db *sqliteDB) prepare(ctx context.Context) error {
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = db.w.PrepareContext(ctx, q)
		return st
	}
	// The head of the pipeline: the debate with the seq of the arbitrator's
	// last word, its newest argument (n), the argument with the write's
	// client_request_id (e) and the target (t), each joined once; every join
	// matches at most one row.
	db.stmts.head = prep(`SELECT d.title, d.debate_type, d.state, d.created_at, d.updated_at, d.last_word_seq,
	COALESCE(n.seq, 0), n.id, e.id, t.debate_id, t.seq
FROM debates d
LEFT JOIN arguments n ON n.debate_id = d.id AND n.seq = (SELECT MAX(seq) FROM arguments WHERE debate_id = d.id)
LEFT JOIN arguments e ON e.debate_id = d.id AND e.client_request_id = ?2
LEFT JOIN arguments t ON t.id = ?3
WHERE d.id = ?1`)
	// What a head kept in memory leaves to the database: a target that is
	// not the newest argument, and a replay's original.
	db.stmts.target = prep(`SELECT debate_id, seq FROM arguments WHERE id = ?`)
	db.stmts.existing = prep(`SELECT ` + argCols + ` FROM arguments WHERE debate_id = ? AND client_request_id = ?`)
	// The insert finds a replay too: it adds nothing when the debate holds
	// an argument with the write's client_request_id.
	db.stmts.insert = prep(`INSERT INTO arguments (` + argCols + `)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
WHERE NOT EXISTS (SELECT 1 FROM arguments WHERE debate_id = ?2 AND client_request_id = ?7)`)
	db.stmts.update = prep(`UPDATE debates SET state = ?, updated_at = ? WHERE id = ?`)
	db.stmts.version = prep(`PRAGMA data_version`)
	db.stmts.savepoint = prep(`SAVEPOINT w`)
	db.stmts.release = prep(`RELEASE w`)
	db.stmts.rollbackTo = prep(`ROLLBACK TO w`)
	if err == nil {
		db.stmts.newest, err = db.r.PrepareContext(ctx, `SELECT d.title, d.debate_type, d.state, d.created_at, d.updated_at, `+
			prefixed("a.", argCols)+` FROM debates d JOIN arguments a ON a.debate_id = d.id WHERE d.id = ? ORDER BY a.seq DESC LIMIT 1`)
	}
	if err != nil {
		return fmt.Errorf("prepare statements: %w", err)
	}
	return nil
}

func (w *writeStmts) close() {
	for _, st := range []*sql.Stmt{w.head, w.target, w.existing, w.insert, w.update, w.version, w.newest, w.savepoint, w.release, w.rollbackTo} {
		if st != nil {
			st.Close()
		}
	}
}

func (b *batchTx) create(nd protocol.NewDebate) (protocol.Result, error) {
	ctx := context.Background()
	tx := b.tx
	d, err := scanDebate(tx.QueryRowContext(ctx, `SELECT `+debateCols+` FROM debates WHERE id = ?`, nd.ID))
	switch {
	case err == nil:
		motion, err := scanArgument(tx.QueryRowContext(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq = 1`, nd.ID))
		if err != nil {
			return protocol.Result{}, fmt.Errorf("create debate %s: read motion: %w", nd.ID, err)
		}
		if motion.ClientRequestID != nd.ClientRequestID {
			return protocol.Result{}, errDebateExists(nd.ID, d.State)
		}
		return protocol.Result{Argument: motion, Debate: d, Replay: true}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}

	state, err := protocol.Transition(protocol.None, protocol.Motion, protocol.Proposer, false)
	if err != nil {
		return protocol.Result{}, err
	}
	now := b.db.now()
	if err := b.savepoint(); err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO debates (id, title, debate_type, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		nd.ID, nd.Title, string(nd.Type), string(state), now, now); err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	a := protocol.Argument{
		ID: newID(), DebateID: nd.ID, Type: protocol.Motion, Role: protocol.Proposer,
		Content: nd.Content, ClientRequestID: nd.ClientRequestID, Seq: 1, StateAfter: state,
		CreatedAt: parseTime(now),
	}
	if _, err := insertArgument(ctx, b.insert, a, now); err != nil {
		return protocol.Result{}, fmt.Errorf("create debate %s: %w", nd.ID, err)
	}
	t := parseTime(now)
	return protocol.Result{
		Argument: a,
		Debate:   protocol.Debate{ID: nd.ID, Title: nd.Title, Type: nd.Type, State: state, CreatedAt: t, UpdatedAt: t},
	}, nil
}

// pipelineHead is what the pipeline reads before it decides: the debate, the
// seq of the arbitrator's last word, its newest argument, the argument with
// the write's client_request_id, and the target.
type pipelineHead struct {
	d                    protocol.Debate
	lastWord             int // seq of the newest INTERVENTION or RULING; 0 if none
	maxSeq               int
	newestID, existingID string // existingID is empty when there is none
	targetDebate         string // empty when there is no such argument
	targetSeq            int
	// probed tells whether existingID was read; when not, the insert is
	// what finds a replay (see write).
	probed bool
}

// headOf reads the pipeline's head of w. The debate, the seq of the
// arbitrator's last word and its newest argument come from memory when this batch wrote to the debate already, or when the
// writer's commits left its head and no other process has committed since
// (see heads.written); the database then only answers for a target older
// than the newest argument. Otherwise one statement reads it all.
func (b *batchTx) headOf(w protocol.Write) (pipelineHead, error) {
	e, ok := b.written[w.DebateID]
	if !ok && b.fromHeads {
		e, ok = b.db.heads.written(w.DebateID)
	}
	if !ok {
		return b.readHead(w)
	}
	b.db.wr.fromMemory.Add(1)
	h := pipelineHead{d: e.d, lastWord: e.lastWord, maxSeq: e.a.Seq, newestID: e.a.ID}
	switch w.TargetID {
	case "":
	case e.a.ID:
		h.targetDebate, h.targetSeq = e.a.DebateID, e.a.Seq
	default:
		err := b.target.QueryRowContext(context.Background(), w.TargetID).Scan(&h.targetDebate, &h.targetSeq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return h, fmt.Errorf("submit %s to %s: read target: %w", w.Type, w.DebateID, err)
		}
	}
	return h, nil
}

// readHead reads the pipeline's head of w from the database: the debate with
// the seq of the arbitrator's last word, its newest argument (n), the argument with the write's client_request_id (e)
// and the target (t).
func (b *batchTx) readHead(w protocol.Write) (pipelineHead, error) {
	var (
		h                                 pipelineHead
		dtype, state, created, updated    string
		newestID, existingID, targetDebID sql.NullString
		targetSeq                         sql.NullInt64
	)
	err := b.head.QueryRowContext(context.Background(), w.DebateID, w.ClientRequestID, w.TargetID).
		Scan(&h.d.Title, &dtype, &state, &created, &updated, &h.lastWord, &h.maxSeq, &newestID, &existingID, &targetDebID, &targetSeq)
	if errors.Is(err, sql.ErrNoRows) {
		return h, notFound(w.DebateID)
	}
	if err != nil {
		return h, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	h.d.ID, h.d.Type, h.d.State = w.DebateID, protocol.DebateType(dtype), protocol.State(state)
	h.d.CreatedAt, h.d.UpdatedAt = parseTime(created), parseTime(updated)
	h.newestID, h.existingID = newestID.String, existingID.String
	h.targetDebate, h.targetSeq = targetDebID.String, int(targetSeq.Int64)
	h.probed = true
	return h, nil
}

// write runs the pipeline of one argument in the batch's transaction. With a
// head from memory, whether the write is a replay is not read first: the
// insert adds the argument only if the debate holds none with its
// client_request_id, and a refusal looks for one before it is returned, so a
// replay is answered as one whatever the state now. Besides the outcome it
// returns the seq of the debate's last word after a new argument (see
// lastWordAfter).
func (b *batchTx) write(w protocol.Write) (protocol.Result, int, error) {
	h, err := b.headOf(w)
	if err != nil {
		return protocol.Result{}, 0, err
	}
	if h.existingID != "" {
		res, err := b.replay(w, h.d)
		return res, 0, err
	}
	next, parent, err := b.decide(w, h)
	if err != nil {
		if !h.probed {
			if res, replay, perr := b.findReplay(w, h.d); perr != nil || replay {
				return res, 0, perr
			}
		}
		return protocol.Result{}, 0, err
	}
	ctx := context.Background()
	now := b.db.now()
	if err := b.savepoint(); err != nil {
		return protocol.Result{}, 0, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	a := protocol.Argument{
		ID: newID(), DebateID: w.DebateID, ParentID: parent, Type: w.Type, Role: w.Role,
		Content: w.Content, ClientRequestID: w.ClientRequestID, Seq: h.maxSeq + 1, StateAfter: next,
		CreatedAt: parseTime(now),
	}
	inserted, err := insertArgument(ctx, b.insert, a, now)
	if err != nil {
		return protocol.Result{}, 0, fmt.Errorf("submit %s to %s: %w", w.Type, w.DebateID, err)
	}
	if !inserted {
		res, err := b.replay(w, h.d) // nothing was written
		return res, 0, err
	}
	if _, err := b.update.ExecContext(ctx, string(next), now, w.DebateID); err != nil {
		return protocol.Result{}, 0, fmt.Errorf("submit %s to %s: update state: %w", w.Type, w.DebateID, err)
	}
	d := h.d
	d.State, d.UpdatedAt = next, a.CreatedAt
	return protocol.Result{Argument: a, Debate: d}, lastWordAfter(h.lastWord, a), nil
}

// decide runs the checks of the pipeline after idempotency: the target
// belongs to the debate, the transition is allowed, the arbitrator's word is
// not bypassed. It returns the state after the write and its parent.
func (b *batchTx) decide(w protocol.Write, h pipelineHead) (protocol.State, string, error) {
	parent := w.TargetID
	if parent != "" {
		if h.targetDebate != w.DebateID {
			return "", "", errTargetNotInDebate(w.TargetID, w.DebateID)
		}
	} else {
		parent = h.newestID
	}
	next, err := protocol.Transition(h.d.State, w.Type, w.Role, w.Close)
	if err != nil {
		return "", "", err
	}
	if w.TargetID != "" && h.targetSeq < h.lastWord {
		if err := b.checkTarget(h.d, w, h.targetSeq, h.lastWord); err != nil {
			return "", "", err
		}
	}
	return next, parent, nil
}

// findReplay returns the replay of w if its debate holds an argument with
// w's client_request_id.
func (b *batchTx) findReplay(w protocol.Write, d protocol.Debate) (protocol.Result, bool, error) {
	orig, err := scanArgument(b.existing.QueryRowContext(context.Background(), w.DebateID, w.ClientRequestID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return protocol.Result{}, false, nil
	case err != nil:
		return protocol.Result{}, false, fmt.Errorf("submit %s to %s: read original: %w", w.Type, w.DebateID, err)
	}
	return protocol.Result{Argument: orig, Debate: d, Replay: true}, true, nil
}

// replay returns the replay of w, whose original its debate holds.
func (b *batchTx) replay(w protocol.Write, d protocol.Debate) (protocol.Result, error) {
	res, found, err := b.findReplay(w, d)
	if err == nil && !found {
		err = fmt.Errorf("submit %s to %s: the original of client_request_id %q vanished", w.Type, w.DebateID, w.ClientRequestID)
	}
	return res, err
}

// checkTarget refuses a write whose target, at targetSeq, is older than the
// arbitrator's last word, at lastWordSeq: unless the arbitrator writes, it
// reads that argument (one lookup by (debate_id, seq)) for the refusal to
// name.
func (b *batchTx) checkTarget(d protocol.Debate, w protocol.Write, targetSeq, lastWordSeq int) error {
	if w.Role == protocol.Arbitrator {
		return nil
	}
	lastWord, err := scanArgument(b.tx.QueryRowContext(context.Background(),
		`SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq = ?`, w.DebateID, lastWordSeq))
	if err != nil {
		return fmt.Errorf("submit %s to %s: read the arbitrator's last word (#%d): %w", w.Type, w.DebateID, lastWordSeq, err)
	}
	target := protocol.Argument{ID: w.TargetID, DebateID: w.DebateID, Seq: targetSeq}
	return protocol.CheckTarget(d.State, w.Type, w.Role, target, lastWord)
}

// insertArgument inserts a unless its debate holds an argument with its
// client_request_id already (writeStmts.insert), and tells whether it did.
func insertArgument(ctx context.Context, st *sql.Stmt, a protocol.Argument, now string) (bool, error) {
	var parent any
	if a.ParentID != "" {
		parent = a.ParentID
	}
	res, err := st.ExecContext(ctx, a.ID, a.DebateID, parent, string(a.Type), string(a.Role), a.Content,
		a.ClientRequestID, a.Seq, string(a.StateAfter), now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
