package api

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/debatehq/debate/protocol"
)

// MaxWait is the longest long-poll (?wait=) a client may ask for: the
// server refuses a longer one, and a waiting client asks for no more.
const MaxWait = 60 * time.Second

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

// MaxQueryInt is the largest number a query parameter may hold: the
// largest 32-bit integer, which every backend's columns and limits take.
const MaxQueryInt = math.MaxInt32

// QueryInt reads a query parameter holding an integer from 0 to MaxQueryInt;
// def when absent.
func QueryInt(q url.Values, name string, def int) (int, error) {
	v, ok := q[name]
	if !ok || v[0] == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v[0], 10, 32)
	if err != nil || n < 0 {
		return 0, protocol.Errorf(protocol.CodeInvalidInput, "%s: want a non-negative integer up to %d, got %q", name, MaxQueryInt, v[0]).
			WithSuggestion("send " + name + " as a whole number from 0 to " + strconv.Itoa(MaxQueryInt))
	}
	return int(n), nil
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

// maxScanned is the most parameters QueryValue scans itself; a longer query
// is parsed by url.ParseQuery, which knows its limit on their number.
const maxScanned = 64

// QueryValue returns the first value of name in a raw (still escaped) URL
// query: url.ParseQuery(raw).Get(name), which it reads without building the
// map. As ParseQuery, it skips a parameter holding a semicolon or a bad
// escape.
func QueryValue(raw, name string) string {
	if strings.Count(raw, "&") >= maxScanned {
		q, _ := url.ParseQuery(raw)
		return q.Get(name)
	}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(k); err != nil || k != name {
			continue
		}
		if v, err := url.QueryUnescape(v); err == nil {
			return v
		}
	}
	return ""
}
