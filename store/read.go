package store

import (
	"context"
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
	return s.db.get(ctx, id, limit)
}

// Since returns the debate and its arguments with seq > afterSeq, oldest
// first. Together with Subscribe it gives a gap-free feed of new arguments.
func (s *Store) Since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error) {
	return s.db.since(ctx, debateID, afterSeq)
}

// Argument returns one argument by id.
func (s *Store) Argument(ctx context.Context, id string) (protocol.Argument, error) {
	return s.db.argument(ctx, id)
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
	return s.db.list(ctx, f)
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
	return s.db.delete(ctx, id)
}
