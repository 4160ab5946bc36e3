package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/store"
)

// TestPostgresRestart restarts PostgreSQL three times while 8 writers create
// debates and answer them through the agent commands' client: every write
// the server acknowledged is in the database afterwards, and every call
// either succeeded (riding out the restart on 503 DATABASE_UNAVAILABLE and
// refused connections) or failed as transient after its retry window.
func TestPostgresRestart(t *testing.T) {
	c := pgtest.Own(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	st, err := store.Open(ctx, c.URL("postgres"), store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := New(st, Options{Logger: log})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, ln) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	cl := client.New("http://"+ln.Addr().String(), "", nil)

	const writers, perPhase = 8, 40
	var (
		acked    atomic.Int64
		progress = make(chan struct{}, 1)
		done     = make(chan struct{})
		wrote    [writers][]string // "debate argument" pairs acknowledged
		failed   [writers][]error
		wg       sync.WaitGroup
	)
	ack := func(w int, debate, arg string) {
		wrote[w] = append(wrote[w], debate+" "+arg)
		acked.Add(1)
		select {
		case progress <- struct{}{}:
		default:
		}
	}
	for w := range writers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := fmt.Sprintf("w%d-%d", w, i)
				res, err := cl.CreateDebate(ctx, api.CreateDebateRequest{DebateID: id, Title: "Restart",
					DebateType: "general_debate", MotionContent: "Keep every write."})
				if err != nil {
					failed[w] = append(failed[w], err)
					continue
				}
				ack(w, id, res.Argument.ID)
				sub, err := cl.Submit(ctx, id, api.ArgumentRequest{Role: "opponent", TargetID: res.Argument.ID, Content: "Kept."})
				if err != nil {
					failed[w] = append(failed[w], err)
					continue
				}
				ack(w, id, sub.Argument.ID)
			}
		})
	}
	// advance waits until the writers have had perPhase more writes
	// acknowledged.
	advance := func(phase string) {
		t.Helper()
		want := acked.Load() + perPhase
		for acked.Load() < want {
			select {
			case <-progress:
			case <-ctx.Done():
				close(done)
				wg.Wait()
				t.Fatalf("%s: the writers made no progress (%d acknowledged)", phase, acked.Load())
			}
		}
	}
	advance("before the restarts")
	for i := range 3 {
		if err := c.Restart(); err != nil {
			close(done)
			wg.Wait()
			t.Fatal(err)
		}
		advance(fmt.Sprintf("after restart %d", i+1))
	}
	close(done)
	wg.Wait()

	var lost []string
	total := 0
	for w := range writers {
		for _, e := range failed[w] {
			if !client.Transient(e) {
				t.Errorf("writer %d: a call failed for good: %v", w, e)
			}
		}
		for _, p := range wrote[w] {
			total++
			debate, arg, _ := strings.Cut(p, " ")
			dc, err := st.Get(ctx, debate, -1)
			if err != nil {
				lost = append(lost, p+": "+err.Error())
				continue
			}
			if dc.Motion.ID != arg && !slices.ContainsFunc(dc.Arguments, func(a protocol.Argument) bool { return a.ID == arg }) {
				lost = append(lost, p)
			}
		}
	}
	if len(lost) > 0 {
		t.Fatalf("%d of %d acknowledged writes lost: %v", len(lost), total, lost)
	}
	unavailable := strings.Count(logs.String(), "database unavailable")
	t.Logf("3 restarts under %d writers: %d writes acknowledged, 0 lost; %d calls failed (all transient); %d answers were 503 DATABASE_UNAVAILABLE",
		writers, total, countAll(failed[:]), unavailable)
}

func countAll(errs [][]error) int {
	n := 0
	for _, e := range errs {
		n += len(e)
	}
	return n
}

// TestDatabaseUnavailable: an error that says the database could not be
// reached is a 503 DATABASE_UNAVAILABLE with Retry-After, on the routes and
// on /health, never a 500.
func TestDatabaseUnavailable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	if r := f.call("GET", "/health", ""); r.status != http.StatusOK || !strings.Contains(r.raw, `"status":"ok"`) {
		t.Fatalf("health with a database: %d %s", r.status, r.raw)
	}
	rec := httptest.NewRecorder()
	f.srv.writeError(rec, httptest.NewRequest("POST", "/debates", nil), fmt.Errorf("create debate d1: %w", net.ErrClosed))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != api.RetryAfter ||
		!strings.Contains(rec.Body.String(), `"DATABASE_UNAVAILABLE"`) {
		t.Fatalf("lost connection: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	f.st.Close()
	r := f.call("GET", "/health", "")
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || r.env.Error == nil ||
		r.env.Error.Code != api.CodeUnavailable {
		t.Fatalf("health without a database: %d %v %s", r.status, r.header, r.raw)
	}
}
