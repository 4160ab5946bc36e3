package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/debatehq/debate/protocol"
)

// Context is a debate with its MOTION and its latest arguments (MOTION not
// included), oldest first.
type Context struct {
	Debate    protocol.Debate
	Motion    protocol.Argument
	Arguments []protocol.Argument
}

// Get returns the debate id with its MOTION and its last limit arguments
// besides the MOTION; a negative limit returns them all and 0 none.
func (s *Store) Get(ctx context.Context, id string, limit int) (Context, error) {
	if s.pg != nil {
		return s.pg.get(ctx, id, limit)
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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

// Since returns the debate and its arguments with seq > afterSeq, oldest
// first. Together with Subscribe it gives a gap-free feed of new arguments.
func (s *Store) Since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error) {
	if s.pg != nil {
		return s.pg.since(ctx, debateID, afterSeq)
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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

// Argument returns one argument by id.
func (s *Store) Argument(ctx context.Context, id string) (protocol.Argument, error) {
	if s.pg != nil {
		return s.pg.argument(ctx, id)
	}
	a, err := scanArgument(s.r.QueryRowContext(ctx, `SELECT `+argCols+` FROM arguments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return protocol.Argument{}, protocol.Errorf(protocol.CodeArgumentNotFound, "argument %s not found", id)
	}
	if err != nil {
		return protocol.Argument{}, fmt.Errorf("read argument %s: %w", id, err)
	}
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

// Filter selects debates for List. A zero Limit means DefaultListLimit.
// PendingFirstOpponent keeps debates that still wait for their first opponent
// argument.
type Filter struct {
	State                protocol.State
	PendingFirstOpponent bool
	Limit                int
	Offset               int
}

// Page is one page of List: the debates, newest (last updated) first, and the
// number of debates matching the filter.
type Page struct {
	Debates []protocol.Debate
	Total   int
}

// List returns the debates matching f.
func (s *Store) List(ctx context.Context, f Filter) (Page, error) {
	if f.State != protocol.None && !f.State.Valid() {
		_, err := protocol.ParseState(string(f.State))
		return Page{}, err
	}
	if f.Limit < 0 || f.Offset < 0 {
		return Page{}, invalid("limit and offset must not be negative", "")
	}
	if f.Limit == 0 {
		f.Limit = DefaultListLimit
	}
	if s.pg != nil {
		return s.pg.list(ctx, f)
	}
	cond, args := listWhere(f)
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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

// listWhere returns the WHERE clause of List for f, with ? placeholders, and
// its arguments.
func listWhere(f Filter) (string, []any) {
	var where []string
	var args []any
	if f.State != protocol.None {
		where = append(where, "d.state = ?")
		args = append(args, string(f.State))
	}
	if f.PendingFirstOpponent {
		where = append(where, "d.state = 'AWAITING_OPPONENT' AND NOT EXISTS (SELECT 1 FROM arguments a WHERE a.debate_id = d.id AND a.role = 'opponent')")
	}
	if len(where) == 0 {
		return "", args
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// Delete removes a debate and its arguments, and wakes its waiters (who then
// get DEBATE_NOT_FOUND).
func (s *Store) Delete(ctx context.Context, id string) error {
	if s.pg != nil {
		return s.pg.delete(ctx, id)
	}
	// Between two batches, so that no batch stores the head of the debate
	// after it is dropped here: the writer trusts the heads it stores.
	select {
	case s.wr.token <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("delete debate %s: %w", id, ctx.Err())
	}
	defer func() { <-s.wr.token }()
	res, err := s.w.ExecContext(ctx, `DELETE FROM debates WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	} else if n == 0 {
		return notFound(id)
	}
	s.heads.drop(id)
	s.hub.notify(id, 0)
	return nil
}
