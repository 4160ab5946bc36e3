package api

import (
	"net/url"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

func TestParseListQuery(t *testing.T) {
	tests := []struct {
		query string
		want  ListQuery
		err   string // part of the error message; "" for none
	}{
		{"", ListQuery{}, ""},
		{"state=CLOSED&limit=5&offset=10&pending_first_opponent=true",
			ListQuery{State: protocol.Closed, Limit: 5, Offset: 10, PendingFirstOpponent: true}, ""},
		{"limit=", ListQuery{}, ""},
		{"state=SLEEPING", ListQuery{}, `unknown state "SLEEPING"`},
		{"limit=-1", ListQuery{}, `limit: want a non-negative integer up to 2147483647, got "-1"`},
		{"offset=x", ListQuery{}, `offset: want a non-negative integer up to 2147483647, got "x"`},
		{"limit=2147483647", ListQuery{Limit: 2147483647}, ""},
		{"offset=2147483648", ListQuery{}, `offset: want a non-negative integer up to 2147483647, got "2147483648"`},
		{"limit=99999999999999999999", ListQuery{}, `limit: want a non-negative integer up to 2147483647`},
		{"pending_first_opponent=maybe", ListQuery{}, `pending_first_opponent: want true or false, got "maybe"`},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		got, err := ParseListQuery(q)
		if tt.err != "" {
			if protocol.CodeOf(err) != protocol.CodeInvalidInput || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want INVALID_INPUT with %q", tt.query, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %+v, %v; want %+v", tt.query, got, err, tt.want)
		}
	}
}

// FuzzParseListQuery: any query either parses into a valid filter or is
// refused as INVALID_INPUT; it never panics.
func FuzzParseListQuery(f *testing.F) {
	f.Add("state=CLOSED&limit=5&offset=10&pending_first_opponent=1")
	f.Add("limit=99999999999999999999")
	f.Add("state=&offset=%00")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		got, err := ParseListQuery(q)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeInvalidInput {
				t.Fatalf("%q: %v is not INVALID_INPUT", raw, err)
			}
			return
		}
		if got.Limit < 0 || got.Offset < 0 || (got.State != protocol.None && !got.State.Valid()) {
			t.Fatalf("%q: invalid filter %+v", raw, got)
		}
	})
}

// TestQueryValue compares QueryValue with url.ParseQuery's first value.
func TestQueryValue(t *testing.T) {
	queries := []string{
		"",
		"role=proposer",
		"role=proposer&argument_id=a-1&wait=30",
		"argument_id=&role=opponent",
		"role=a&role=b",
		"role",
		"role=x=y",
		"&&role=p&&",
		"role=%zz&role=ok",
		"ro%6ce=escaped%20key",
		"role=a+b%2Bc",
		"role=a;b&role=c",
		"x=1;role=bad&role=good",
		"%zz=1&role=r",
		"role=%",
		"ROLE=upper",
		strings.Repeat("x=1&", 100) + "role=late",
		strings.Repeat("x=1&", 20000) + "role=beyond the limit",
	}
	for _, raw := range queries {
		q, _ := url.ParseQuery(raw)
		for _, name := range []string{"role", "argument_id", "wait", "x", ""} {
			if got, want := QueryValue(raw, name), q.Get(name); got != want {
				t.Errorf("QueryValue(%.40q, %q) = %q, want %q", raw, name, got, want)
			}
		}
	}
}

func FuzzQueryValue(f *testing.F) {
	f.Add("role=proposer&argument_id=a-1&wait=30", "role")
	f.Add("role=a%20b;c&role=d+e", "role")
	f.Add("%zz=1&=2&role", "")
	f.Fuzz(func(t *testing.T, raw, name string) {
		q, _ := url.ParseQuery(raw)
		if got, want := QueryValue(raw, name), q.Get(name); got != want {
			t.Errorf("QueryValue(%q, %q) = %q, want %q", raw, name, got, want)
		}
	})
}
