package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/debatehq/debate/protocol"
)

// The SQLite backend's reads, on the reader pool (those of several
// statements in one read-only transaction, so that they see one snapshot),
// and the delete of a debate, on the writer connection between two batches.

func (db *sqliteDB) get(ctx context.Context, id string, limit int) (Context, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Context{}, fmt.Errorf("get debate %s: %w", id, err)
	}
	defer tx.Rollback()
	var c Context
	c.Debate, err = scanDebate(tx.QueryRowContext(ctx, `SELECT `+debateCols+` FROM debates WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Context{}, notFound(id)
	}
	if err != nil {
		return Context{}, fmt.Errorf("get debate %s: %w", id, err)
	}
	c.Motion, err = scanArgument(tx.QueryRowContext(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq = 1`, id))
	if err != nil {
		return Context{}, fmt.Errorf("get debate %s: motion: %w", id, err)
	}
	if limit != 0 {
		if limit < 0 {
			limit = -1
		}
		c.Arguments, err = queryArguments(ctx, tx, `SELECT * FROM (SELECT `+argCols+` FROM arguments
			WHERE debate_id = ? AND seq > 1 ORDER BY seq DESC LIMIT ?) ORDER BY seq`, id, limit)
		if err != nil {
			return Context{}, fmt.Errorf("get debate %s: arguments: %w", id, err)
		}
	}
	return c, nil
}

func (db *sqliteDB) since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return protocol.Debate{}, nil, fmt.Errorf("read debate %s: %w", debateID, err)
	}
	defer tx.Rollback()
	d, err := scanDebate(tx.QueryRowContext(ctx, `SELECT `+debateCols+` FROM debates WHERE id = ?`, debateID))
	if errors.Is(err, sql.ErrNoRows) {
		return protocol.Debate{}, nil, notFound(debateID)
	}
	if err != nil {
		return protocol.Debate{}, nil, fmt.Errorf("read debate %s: %w", debateID, err)
	}
	args, err := queryArguments(ctx, tx, `SELECT `+argCols+` FROM arguments WHERE debate_id = ? AND seq > ? ORDER BY seq`, debateID, afterSeq)
	if err != nil {
		return protocol.Debate{}, nil, fmt.Errorf("read debate %s: %w", debateID, err)
	}
	return d, args, nil
}

func (db *sqliteDB) argument(ctx context.Context, id string) (protocol.Argument, error) {
	a, err := scanArgument(db.r.QueryRowContext(ctx, `SELECT `+argCols+` FROM arguments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return protocol.Argument{}, protocol.Errorf(protocol.CodeArgumentNotFound, "argument %s not found", id)
	}
	if err != nil {
		return protocol.Argument{}, fmt.Errorf("read argument %s: %w", id, err)
	}
	return a, nil
}

func (db *sqliteDB) list(ctx context.Context, f Filter) (Page, error) {
	cond, args := listWhere(f)
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Page{}, fmt.Errorf("list debates: %w", err)
	}
	defer tx.Rollback()
	var p Page
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM debates d`+cond, args...).Scan(&p.Total); err != nil {
		return Page{}, fmt.Errorf("list debates: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT d.id, d.title, d.debate_type, d.state, d.created_at, d.updated_at FROM debates d`+
		cond+` ORDER BY d.updated_at DESC, d.id DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return Page{}, fmt.Errorf("list debates: %w", err)
	}
	defer rows.Close()
	p.Debates = []protocol.Debate{}
	for rows.Next() {
		d, err := scanDebate(rows)
		if err != nil {
			return Page{}, fmt.Errorf("list debates: %w", err)
		}
		p.Debates = append(p.Debates, d)
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("list debates: %w", err)
	}
	return p, nil
}

func (db *sqliteDB) delete(ctx context.Context, id string) error {
	// Between two batches, so that no batch stores the head of the debate
	// after it is dropped here: the writer trusts the heads it stores.
	select {
	case db.wr.token <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("delete debate %s: %w", id, ctx.Err())
	}
	defer func() { <-db.wr.token }()
	res, err := db.w.ExecContext(ctx, `DELETE FROM debates WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	} else if n == 0 {
		return notFound(id)
	}
	db.heads.drop(id)
	db.hub.notify(id, 0)
	return nil
}

func scanDebate(r scanner) (protocol.Debate, error) {
	var d protocol.Debate
	var typ, state, created, updated string
	if err := r.Scan(&d.ID, &d.Title, &typ, &state, &created, &updated); err != nil {
		return protocol.Debate{}, err
	}
	d.Type, d.State = protocol.DebateType(typ), protocol.State(state)
	d.CreatedAt, d.UpdatedAt = parseTime(created), parseTime(updated)
	return d, nil
}

func scanArgument(r scanner) (protocol.Argument, error) {
	var a protocol.Argument
	var parent sql.NullString
	var typ, role, state, created string
	if err := r.Scan(&a.ID, &a.DebateID, &parent, &typ, &role, &a.Content, &a.ClientRequestID, &a.Seq, &state, &created); err != nil {
		return protocol.Argument{}, err
	}
	a.ParentID = parent.String
	a.Type, a.Role, a.StateAfter = protocol.ArgType(typ), protocol.Role(role), protocol.State(state)
	a.CreatedAt = parseTime(created)
	return a, nil
}

func queryArguments(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]protocol.Argument, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []protocol.Argument{}
	for rows.Next() {
		a, err := scanArgument(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
