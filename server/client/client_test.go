package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

func newServer(t *testing.T, token string) (*httptest.Server, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(st, server.Options{Token: token, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); st.Close() })
	return ts, st
}

func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestEveryMethod drives a debate and a document through every method.
func TestEveryMethod(t *testing.T) {
	ts, _ := newServer(t, "tok")
	c := New(ts.URL, "tok", ts.Client())
	ctx := context.Background()
	if err := c.Health(ctx); err != nil {
		t.Fatal(err)
	}
	created, err := c.CreateDebate(ctx, api.CreateDebateRequest{DebateID: "d1", Title: "T", DebateType: "general_debate", MotionContent: "M"})
	if err != nil || created.Argument.Type != "MOTION" || created.Argument.ClientRequestID == "" {
		t.Fatalf("create: %+v %v", created, err)
	}
	claim, err := c.Submit(ctx, "d1", api.ArgumentRequest{Role: "opponent", TargetID: created.Argument.ID, Content: "No."})
	if err != nil || claim.Debate.State != "AWAITING_PROPOSER" {
		t.Fatalf("submit: %+v %v", claim, err)
	}
	// The server's refusal arrives with its context.
	_, err = c.Submit(ctx, "d1", api.ArgumentRequest{Role: "opponent", TargetID: claim.Argument.ID, Content: "Again."})
	var e *Error
	if !errors.As(err, &e) || e.Status != 403 || e.Code != "ACTION_NOT_ALLOWED" || e.CurrentState != "AWAITING_PROPOSER" ||
		!slices.Equal(e.AllowedRoles, []string{"proposer"}) || e.Suggestion == "" {
		t.Fatalf("refusal: %#v", err)
	}
	p, err := c.Poll(ctx, "d1", "proposer", created.Argument.ID, 0)
	if err != nil || !p.HasNewArgument || p.Action != "respond" || p.Argument.ID != claim.Argument.ID {
		t.Fatalf("poll: %+v %v", p, err)
	}
	appeal, err := c.Appeal(ctx, "d1", api.ArgumentRequest{Role: "ignored", TargetID: claim.Argument.ID, Content: "Rule."})
	if err != nil || appeal.Debate.State != "AWAITING_ARBITRATOR" {
		t.Fatalf("appeal: %+v %v", appeal, err)
	}
	if r, err := c.Ruling(ctx, "d1", api.RulingRequest{Content: "Go on."}); err != nil || r.Debate.State != "AWAITING_PROPOSER" {
		t.Fatalf("ruling: %+v %v", r, err)
	}
	if r, err := c.Intervention(ctx, "d1", api.InterventionRequest{}); err != nil || r.Debate.State != "INTERVENTION_PENDING" {
		t.Fatalf("intervention: %+v %v", r, err)
	}
	r, err := c.Ruling(ctx, "d1", api.RulingRequest{Content: "Continue."})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Resolution(ctx, "d1", api.ArgumentRequest{TargetID: r.Argument.ID, Content: "Agreed."})
	if err != nil || res.Debate.State != "CLOSED" || res.AutoRuling == nil {
		t.Fatalf("resolution: %+v %v", res, err)
	}
	got, err := c.GetDebate(ctx, "d1", 2)
	if err != nil || len(got.Arguments) != 2 || got.Arguments[1].Type != "RULING" || got.Motion.ID != created.Argument.ID {
		t.Fatalf("get: %+v %v", got, err)
	}
	list, err := c.ListDebates(ctx, ListOptions{State: "CLOSED", Limit: 10})
	if err != nil || list.Total != 1 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := c.DeleteDebate(ctx, "d1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetDebate(ctx, "d1", -1); codeOf(err) != "DEBATE_NOT_FOUND" {
		t.Fatalf("after delete: %v", err)
	}
	doc, err := c.CreateDocument(ctx, api.CreateDocumentRequest{Title: "plan", Content: "v1"})
	if err != nil || doc.Document.Version != 1 {
		t.Fatalf("create document: %+v %v", doc, err)
	}
	if v2, err := c.SubmitDocument(ctx, doc.Document.ID, api.SubmitDocumentRequest{Content: "v2"}); err != nil || v2.Document.Version != 2 {
		t.Fatalf("submit document: %+v %v", v2, err)
	}
	if v1, err := c.GetDocument(ctx, doc.Document.ID, 1); err != nil || v1.Document.Content != "v1" {
		t.Fatalf("get document: %+v %v", v1, err)
	}
	if _, err := New(ts.URL, "wrong", ts.Client()).ListDebates(ctx, ListOptions{}); codeOf(err) != "AUTH_FAILED" {
		t.Fatalf("wrong token: %v", err)
	}
}

// flaky forwards each request to the server but, for the first failures
// ones, drops the answer and reports a broken connection: the write happened,
// the client does not know.
type flaky struct {
	next     http.RoundTripper
	failures atomic.Int32
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := f.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if f.failures.Add(-1) >= 0 {
		res.Body.Close()
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	}
	return res, nil
}

func TestRetryKeepsTheRequestID(t *testing.T) {
	ts, st := newServer(t, "")
	ctx := context.Background()
	created, err := New(ts.URL, "", ts.Client()).CreateDebate(ctx, api.CreateDebateRequest{DebateID: "d1", Title: "T", DebateType: "general_debate", MotionContent: "M"})
	if err != nil {
		t.Fatal(err)
	}
	tr := &flaky{next: ts.Client().Transport}
	tr.failures.Store(2)
	c := New(ts.URL, "", &http.Client{Transport: tr})
	c.backoff = time.Millisecond
	res, err := c.Submit(ctx, "d1", api.ArgumentRequest{Role: "opponent", TargetID: created.Argument.ID, Content: "No."})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Replay {
		t.Errorf("the third attempt was not a replay of the first: %+v", res)
	}
	got, err := st.Get(ctx, "d1", -1)
	if err != nil || len(got.Arguments) != 1 {
		t.Fatalf("retries wrote %d arguments, want 1 (%v)", len(got.Arguments), err)
	}

}

// refusing fails every request as a server that is down does, and records
// when each attempt came and the client_request_id it carried.
type refusing struct {
	mu       sync.Mutex
	start    time.Time
	at       []time.Duration
	requests []string
}

func (f *refusing) RoundTrip(r *http.Request) (*http.Response, error) {
	var body struct {
		ClientRequestID string `json:"client_request_id"`
	}
	if r.Body != nil {
		_ = json.NewDecoder(r.Body).Decode(&body)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at = append(f.at, time.Since(f.start))
	f.requests = append(f.requests, body.ClientRequestID)
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
}

// TestRetryBudgets: a write keeps trying a server that is down for 30 s with
// one client_request_id, a read for 2 s, and a poll once (its caller's loop
// owns the waiting).
func TestRetryBudgets(t *testing.T) {
	tests := []struct {
		name     string
		call     func(ctx context.Context, c *Client) error
		budget   time.Duration
		attempts int // exact count when the budget is 0
	}{
		{"write", func(ctx context.Context, c *Client) error {
			_, err := c.Submit(ctx, "d1", api.ArgumentRequest{Role: "opponent", TargetID: "a1", Content: "No."})
			return err
		}, WriteRetry, 0},
		{"document write", func(ctx context.Context, c *Client) error {
			_, err := c.CreateDocument(ctx, api.CreateDocumentRequest{Content: "plan"})
			return err
		}, WriteRetry, 0},
		{"read", func(ctx context.Context, c *Client) error {
			_, err := c.GetDebate(ctx, "d1", -1)
			return err
		}, ReadRetry, 0},
		{"poll", func(ctx context.Context, c *Client) error {
			_, err := c.Poll(ctx, "d1", "opponent", "", time.Second)
			return err
		}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := &refusing{start: time.Now()}
				err := tt.call(context.Background(), New("http://127.0.0.1:1", "", &http.Client{Transport: tr}))
				var e *Error
				if !errors.As(err, &e) || e.Code != CodeUnreachable || e.Err == nil || e.Status != 0 {
					t.Fatalf("want UNREACHABLE with its cause, got %#v", err)
				}
				if tt.budget == 0 {
					if len(tr.at) != tt.attempts {
						t.Fatalf("%d attempts, want %d", len(tr.at), tt.attempts)
					}
					return
				}
				last := tr.at[len(tr.at)-1]
				if last > tt.budget || last < tt.budget-maxBackoff {
					t.Errorf("last attempt after %v, want within %v of %v (attempts at %v)", last, maxBackoff, tt.budget, tr.at)
				}
				if len(tr.at) < 5 {
					t.Errorf("only %d attempts in %v", len(tr.at), tt.budget)
				}
				for i := 1; i < len(tr.at); i++ {
					if gap := tr.at[i] - tr.at[i-1]; gap > maxBackoff {
						t.Errorf("pause of %v between attempts %d and %d, more than %v", gap, i, i+1, maxBackoff)
					}
				}
				for _, id := range tr.requests {
					if id != tr.requests[0] {
						t.Fatalf("client_request_id changed between attempts: %q", tr.requests)
					}
				}
			})
		})
	}
}

func TestUnreachableAndTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := New("http://"+addr, "", nil)
	c.backoff = time.Millisecond
	if err := c.Health(context.Background()); codeOf(err) != CodeUnreachable {
		t.Fatalf("closed port: %v", err)
	}

	ts, _ := newServer(t, "")
	c = New(ts.URL, "", ts.Client())
	if _, err := c.CreateDebate(context.Background(), api.CreateDebateRequest{DebateID: "d1", Title: "T", DebateType: "general_debate", MotionContent: "M"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// Nothing new arrives: the context's deadline ends the long-poll.
	p, err := c.Poll(ctx, "d1", "opponent", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Poll(ctx, "d1", "proposer", p.Argument.ID, 30*time.Second)
	if codeOf(err) != CodeTimeout {
		t.Fatalf("poll past the deadline: %v", err)
	}
}

// TestDeadlineDuringRetries: when the caller's deadline cuts a retry, the
// error is what made the retries needed, not the cut: a server that went
// away is unreachable, not slow.
func TestDeadlineDuringRetries(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"success":false,"error":{"code":"DATABASE_UNAVAILABLE","message":"the database is not answering"}}`)
			return
		}
		io.Copy(io.Discard, r.Body) // so that the server notices the caller leaving
		<-r.Context().Done()        // the retry hangs until the caller gives up
	}))
	defer ts.Close()
	c := New(ts.URL, "", ts.Client())
	c.backoff = time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.CreateDebate(ctx, api.CreateDebateRequest{DebateID: "d1", Title: "T", DebateType: "general_debate", MotionContent: "M"})
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || calls.Load() < 2 {
		t.Fatalf("after %d calls: %v, want the 503 that made the retry needed", calls.Load(), err)
	}
}

// TestWriteOnClosedKeepAlive: a server that closes a kept-alive connection
// as a write arrives on it (as one does at its connection cap or idle
// timeout) does not fail the write: it is sent again at once, with the same
// client_request_id, not after the retry pause.
func TestWriteOnClosedKeepAlive(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, "")
	inner := ts.Config.Handler
	var cut atomic.Bool
	var mu sync.Mutex
	var submits []string // Idempotency-Key of each attempt
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debates/d1/arguments" {
			inner.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		submits = append(submits, r.Header.Get("Idempotency-Key"))
		mu.Unlock()
		if cut.CompareAndSwap(false, true) {
			c, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				c.Close() // no answer: the connection ends under the request
			}
			return
		}
		inner.ServeHTTP(w, r)
	})
	c := New(ts.URL, "", ts.Client())
	c.backoff = time.Hour // a retry by the pause would outlast the deadline
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w, err := c.CreateDebate(ctx, api.CreateDebateRequest{DebateID: "d1", Title: "T", DebateType: "general_debate", MotionContent: "M"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Submit(ctx, "d1", api.ArgumentRequest{Role: "opponent", TargetID: w.Argument.ID, Content: "No.", ClientRequestID: "k1"})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || len(submits) != 2 || submits[0] != "k1" || submits[1] != "k1" {
		t.Fatalf("submit on a closed keep-alive: %v; attempts with keys %q", err, submits)
	}
}
