package api

import (
	"net/url"
	"strconv"

	"github.com/debatehq/debate/protocol"
)

// ListQuery is the query of a debate list (GET /debates and the web UI's
// list): ?state=&limit=&offset=&pending_first_opponent=.
type ListQuery struct {
	State                protocol.State
	Limit                int
	Offset               int
	PendingFirstOpponent bool
}

// ParseListQuery reads a debate list's query. A bad value is an
// INVALID_INPUT error naming it.
func ParseListQuery(q url.Values) (ListQuery, error) {
	var l ListQuery
	var err error
	if v := q.Get("state"); v != "" {
		if l.State, err = protocol.ParseState(v); err != nil {
			return l, err
		}
	}
	if l.Limit, err = QueryInt(q, "limit", 0); err != nil {
		return l, err
	}
	if l.Offset, err = QueryInt(q, "offset", 0); err != nil {
		return l, err
	}
	l.PendingFirstOpponent, err = queryBool(q, "pending_first_opponent")
	return l, err
}

// QueryInt reads a non-negative integer query parameter; def when absent.
func QueryInt(q url.Values, name string, def int) (int, error) {
	v, ok := q[name]
	if !ok || v[0] == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v[0])
	if err != nil || n < 0 {
		return 0, protocol.Errorf(protocol.CodeInvalidInput, "%s: want a non-negative integer, got %q", name, v[0])
	}
	return n, nil
}

func queryBool(q url.Values, name string) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, protocol.Errorf(protocol.CodeInvalidInput, "%s: want true or false, got %q", name, v)
	}
	return b, nil
}
