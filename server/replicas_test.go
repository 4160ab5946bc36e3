package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/store"
)

// replica is one "debate serve" on a shared database.
type replica struct {
	st  *store.Store
	srv *Server
	c   *loadClient
}

func newReplica(t *testing.T, db string) replica {
	t.Helper()
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(st, Options{Logger: discardLogger()})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.stop()
		ts.Close()
		st.Close()
	})
	return replica{st: st, srv: srv, c: &loadClient{base: ts.URL, hc: &http.Client{Transport: &http.Transport{
		MaxIdleConns: 128, MaxIdleConnsPerHost: 128, DisableCompression: true}}}}
}

// TestReplicas runs two servers on one PostgreSQL database, as two
// "debate serve" replicas behind a proxy: 100 concurrent writers spread over
// both, replaying through the other one, leave seq contiguous with no
// duplicate; and a long-poll waiting on one replica wakes on a write through
// the other (the latency is printed: go test -run TestReplicas -v ./server).
func TestReplicas(t *testing.T) {
	db := pgtest.Database(t)
	a, b := newReplica(t, db), newReplica(t, db)
	t.Run("one-debate", func(t *testing.T) { loadOneDebate(t, []*loadClient{a.c, b.c}, b.st) })
	t.Run("wake-across", func(t *testing.T) {
		p50 := loadWake(t, a.c, b.c, a.srv)
		t.Logf("waiter on replica A, write on replica B: p50 %s (target 20ms)", ms(p50))
	})
}
