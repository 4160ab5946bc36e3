package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/protocol"
)

// pgRead runs fn in a read-only REPEATABLE READ transaction, so that its
// statements see one snapshot.
func (p *pgDB) pgRead(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := p.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (p *pgDB) get(ctx context.Context, id string, limit int) (Context, error) {
	var c Context
	err := p.pgRead(ctx, func(tx pgx.Tx) error {
		var err error
		c.Debate, err = pgScanDebate(tx.QueryRow(ctx, `SELECT `+debateCols+` FROM debates WHERE id = $1`, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return err
		}
		c.Motion, err = pgScanArgument(tx.QueryRow(ctx, `SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND seq = 1`, id))
		if err != nil {
			return fmt.Errorf("motion: %w", err)
		}
		if limit == 0 {
			return nil
		}
		var lim *int // NULL: no limit
		if limit > 0 {
			lim = &limit
		}
		c.Arguments, err = pgArguments(ctx, tx, `SELECT * FROM (SELECT `+argCols+` FROM arguments
			WHERE debate_id = $1 AND seq > 1 ORDER BY seq DESC LIMIT $2) a ORDER BY seq`, id, lim)
		if err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
		return nil
	})
	if err != nil {
		return Context{}, wrapUnlessCoded(err, "get debate "+id)
	}
	return c, nil
}

func (p *pgDB) since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error) {
	var d protocol.Debate
	var args []protocol.Argument
	err := p.pgRead(ctx, func(tx pgx.Tx) error {
		var err error
		d, err = pgScanDebate(tx.QueryRow(ctx, `SELECT `+debateCols+` FROM debates WHERE id = $1`, debateID))
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(debateID)
		}
		if err != nil {
			return err
		}
		args, err = pgArguments(ctx, tx, `SELECT `+argCols+` FROM arguments WHERE debate_id = $1 AND seq > $2 ORDER BY seq`, debateID, afterSeq)
		return err
	})
	if err != nil {
		return protocol.Debate{}, nil, wrapUnlessCoded(err, "read debate "+debateID)
	}
	return d, args, nil
}

func (p *pgDB) argument(ctx context.Context, id string) (protocol.Argument, error) {
	a, err := pgScanArgument(p.pool.QueryRow(ctx, `SELECT `+argCols+` FROM arguments WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return protocol.Argument{}, protocol.Errorf(protocol.CodeArgumentNotFound, "argument %s not found", id)
	}
	if err != nil {
		return protocol.Argument{}, fmt.Errorf("read argument %s: %w", id, err)
	}
	return a, nil
}

// position returns the debate and seq of argument id; found is false when
// there is no such argument.
func (p *pgDB) position(ctx context.Context, id string) (debateID string, seq int, found bool, err error) {
	err = p.pool.QueryRow(ctx, `SELECT debate_id, seq FROM arguments WHERE id = $1`, id).Scan(&debateID, &seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, false, nil
	}
	return debateID, seq, err == nil, err
}

// newest reads a debate and its newest argument in one statement.
func (p *pgDB) newest(ctx context.Context, debateID string) (protocol.Debate, protocol.Argument, error) {
	var d protocol.Debate
	var a protocol.Argument
	var typ, state, aType, aRole, aState string
	var parent *string
	err := p.pool.QueryRow(ctx, `SELECT d.title, d.debate_type, d.state, d.created_at, d.updated_at, `+
		prefixed("a.", argCols)+` FROM debates d JOIN arguments a ON a.debate_id = d.id WHERE d.id = $1 ORDER BY a.seq DESC LIMIT 1`, debateID).
		Scan(&d.Title, &typ, &state, &d.CreatedAt, &d.UpdatedAt,
			&a.ID, &a.DebateID, &parent, &aType, &aRole, &a.Content, &a.ClientRequestID, &a.Seq, &aState, &a.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, a, notFound(debateID)
	}
	if err != nil {
		return d, a, fmt.Errorf("read debate %s: %w", debateID, err)
	}
	d.ID, d.Type, d.State = debateID, protocol.DebateType(typ), protocol.State(state)
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	if parent != nil {
		a.ParentID = *parent
	}
	a.Type, a.Role, a.StateAfter = protocol.ArgType(aType), protocol.Role(aRole), protocol.State(aState)
	a.CreatedAt = a.CreatedAt.UTC()
	return d, a, nil
}

func (p *pgDB) list(ctx context.Context, f Filter) (Page, error) {
	cond, args := listWhere(f)
	cond = numbered(cond)
	var pg Page
	err := p.pgRead(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM debates d`+cond, args...).Scan(&pg.Total); err != nil {
			return err
		}
		n := len(args)
		rows, err := tx.Query(ctx, `SELECT `+prefixed("d.", debateCols)+` FROM debates d`+cond+
			` ORDER BY d.updated_at DESC, d.id DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2), append(args, f.Limit, f.Offset)...)
		if err != nil {
			return err
		}
		pg.Debates, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (protocol.Debate, error) { return pgScanDebate(r) })
		return err
	})
	if err != nil {
		return Page{}, fmt.Errorf("list debates: %w", err)
	}
	if pg.Debates == nil {
		pg.Debates = []protocol.Debate{}
	}
	return pg, nil
}

func (p *pgDB) delete(ctx context.Context, id string) error {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	}
	defer tx.Rollback(context.Background())
	tag, err := tx.Exec(ctx, `DELETE FROM debates WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete debate %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(id)
	}
	b := &pgx.Batch{}
	queueNotify(b, id, 0)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("delete debate %s: notify: %w", id, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("delete debate %s: commit: %w", id, err)
	}
	p.s.hub.notify(id, 0)
	return nil
}

func pgArguments(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]protocol.Argument, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (protocol.Argument, error) { return pgScanArgument(r) })
	if out == nil && err == nil {
		out = []protocol.Argument{}
	}
	return out, err
}

// numbered rewrites the ? placeholders of q, in order, as PostgreSQL's $1,
// $2, … (q has no ? inside a literal).
func numbered(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wrapUnlessCoded adds context to err unless it is already a protocol error,
// whose message is for the user as it is.
func wrapUnlessCoded(err error, what string) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}
