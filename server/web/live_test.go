package web

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// TestListEvents: the list's event stream sends the count of debates that
// need the arbitrator at once and again after each change, and ends when
// the server shuts down.
func TestListEvents(t *testing.T) {
	done := make(chan struct{})
	f := newFixtureDone(t, done)
	seed(f) // d-old awaits the arbitrator
	req, _ := http.NewRequest(http.MethodGet, f.ts.URL+"/ui/events", nil)
	res, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q", ct)
	}
	lines := bufio.NewScanner(res.Body)
	next := func() string {
		t.Helper()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				return data
			}
		}
		t.Fatalf("stream ended: %v", lines.Err())
		return ""
	}
	if got := next(); got != `{"needs":1}` {
		t.Fatalf("first event %s, want needs 1", got)
	}
	// The proposer of d-new appeals: two debates need the arbitrator.
	c, err := f.st.Get(context.Background(), "d-new", 1)
	if err != nil {
		t.Fatal(err)
	}
	f.submit(protocol.Write{DebateID: "d-new", Type: protocol.Appeal, Role: protocol.Proposer, TargetID: c.Arguments[0].ID,
		Content: "Rule, please.", ClientRequestID: "a2"})
	for got := next(); got != `{"needs":2}`; got = next() {
		if got != `{"needs":1}` {
			t.Fatalf("event %s", got)
		}
	}
	close(done)
	for lines.Scan() {
	}
	if err := lines.Err(); err != nil {
		t.Fatalf("stream did not end cleanly at shutdown: %v", err)
	}
}
