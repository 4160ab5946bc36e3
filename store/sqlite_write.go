package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/debatehq/debate/protocol"
)

// The SQLite backend's writes: Create and Submit queue their write for the
// group commit (see writer), which runs the write rule (see pipeline) of each
// in a savepoint of one BEGIN IMMEDIATE transaction (see batchTx), over the
// primitives below.

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

// The primitives of the write rule (see txn) on the batch's transaction.

// createDebate writes d and m unless a debate with d's id exists.
func (b *batchTx) createDebate(d protocol.Debate, m protocol.Argument) (protocol.Debate, protocol.Argument, bool, error) {
	ctx := context.Background()
	tx := b.tx
	old, err := scanDebate(tx.QueryRowContext(ctx, `SELECT `+debateCols+` FROM debates WHERE id = ?`, d.ID))
	switch {
	case err == nil:
		motion, err := scanArgument(tx.QueryRowContext(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq = 1`, d.ID))
		if err != nil {
			return old, motion, false, fmt.Errorf("read motion: %w", err)
		}
		return old, motion, false, nil
	case !errors.Is(err, sql.ErrNoRows):
		return d, m, false, err
	}
	if err := b.savepoint(); err != nil {
		return d, m, false, err
	}
	now := formatTime(d.CreatedAt)
	if _, err := tx.ExecContext(ctx, `INSERT INTO debates (id, title, debate_type, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		d.ID, d.Title, string(d.Type), string(d.State), now, now); err != nil {
		return d, m, false, err
	}
	if _, err := insertArgument(ctx, b.insertStmt, m); err != nil {
		return d, m, false, err
	}
	return d, m, true, nil
}

// kept returns the head the writer's commits left, while no other process
// has committed since (see heads.written).
func (b *batchTx) kept(debateID string) (head, bool) {
	if !b.fromHeads {
		return head{}, false
	}
	return b.db.heads.written(debateID)
}

// head reads the head of w in one statement: the debate with the seq of
// the arbitrator's last word, its newest argument (n), the argument with the
// write's client_request_id (e) and the target (t). The transaction holds
// the database's write lock already.
func (b *batchTx) head(w protocol.Write) (pipelineHead, error) {
	var (
		h                                 pipelineHead
		dtype, state, created, updated    string
		newestID, existingID, targetDebID sql.NullString
		targetSeq                         sql.NullInt64
	)
	err := b.headStmt.QueryRowContext(context.Background(), w.DebateID, w.ClientRequestID, w.TargetID).
		Scan(&h.d.Title, &dtype, &state, &created, &updated, &h.lastWord, &h.maxSeq, &newestID, &existingID, &targetDebID, &targetSeq)
	if errors.Is(err, sql.ErrNoRows) {
		return h, notFound(w.DebateID)
	}
	if err != nil {
		return h, err
	}
	h.d.ID, h.d.Type, h.d.State = w.DebateID, protocol.DebateType(dtype), protocol.State(state)
	h.d.CreatedAt, h.d.UpdatedAt = parseTime(created), parseTime(updated)
	h.newestID, h.existingID = newestID.String, existingID.String
	h.targetDebate, h.targetSeq = targetDebID.String, int(targetSeq.Int64)
	h.probed = true
	return h, nil
}

func (b *batchTx) position(id string) (string, int, error) {
	var debateID string
	var seq int
	err := b.target.QueryRowContext(context.Background(), id).Scan(&debateID, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, nil
	}
	return debateID, seq, err
}

func (b *batchTx) original(debateID, clientRequestID string) (protocol.Argument, bool, error) {
	a, err := scanArgument(b.existing.QueryRowContext(context.Background(), debateID, clientRequestID))
	if errors.Is(err, sql.ErrNoRows) {
		return a, false, nil
	}
	return a, err == nil, err
}

func (b *batchTx) at(debateID string, seq int) (protocol.Argument, error) {
	return scanArgument(b.tx.QueryRowContext(context.Background(),
		`SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq = ?`, debateID, seq))
}

// insert opens the write's savepoint, then inserts a unless its debate holds
// an argument with its client_request_id, and sets d's state.
func (b *batchTx) insert(a protocol.Argument, d protocol.Debate) (bool, error) {
	if err := b.savepoint(); err != nil {
		return false, err
	}
	ctx := context.Background()
	inserted, err := insertArgument(ctx, b.insertStmt, a)
	if err != nil || !inserted {
		return false, err
	}
	if _, err := b.update.ExecContext(ctx, string(d.State), formatTime(d.UpdatedAt), d.ID); err != nil {
		return false, fmt.Errorf("update state: %w", err)
	}
	return true, nil
}

// insertArgument inserts a unless its debate holds an argument with its
// client_request_id already (writeStmts.insert), and tells whether it did.
func insertArgument(ctx context.Context, st *sql.Stmt, a protocol.Argument) (bool, error) {
	var parent any
	if a.ParentID != "" {
		parent = a.ParentID
	}
	res, err := st.ExecContext(ctx, a.ID, a.DebateID, parent, string(a.Type), string(a.Role), a.Content,
		a.ClientRequestID, a.Seq, string(a.StateAfter), formatTime(a.CreatedAt))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
