package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/daemon"
	"github.com/debatehq/debate/store"
)

// restartable is a protocol server on one address and one database that a
// test can kill and start again, or put behind a gateway answering 503.
type restartable struct {
	t    *testing.T
	db   string
	addr string
	down atomic.Bool // the gateway answers 503
	// unavailable is closed once the gateway has answered 503 to a poll.
	unavailable chan struct{}
	refuse      sync.Once
	srv         atomic.Pointer[server.Server]
	kill        func()
}

func newRestartable(t *testing.T) *restartable {
	r := &restartable{t: t, db: filepath.Join(t.TempDir(), "debate.db"), addr: "127.0.0.1:0", unavailable: make(chan struct{})}
	r.start()
	t.Cleanup(func() { r.kill() })
	return r
}

// start serves on r.addr (the same port as before after the first start).
func (r *restartable) start() {
	st, err := store.Open(context.Background(), r.db, store.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	srv := server.New(st, server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	r.srv.Store(srv)
	h := srv.Handler()
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.down.Load() {
			if strings.HasSuffix(req.URL.Path, "/poll") {
				defer r.refuse.Do(func() { close(r.unavailable) })
			}
			http.Error(w, "upstream restarting", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, req)
	})}
	done := make(chan struct{})
	go func() { defer close(done); _ = hs.Serve(ln) }()
	r.kill = func() {
		hs.Close() // connections cut as by kill -9
		<-done
		st.Close()
	}
}

// waitHeld blocks until the server holds a long-poll.
func (r *restartable) waitHeld() {
	r.t.Helper()
	waitUntil(r.t, "the server holds the wait", func() bool { return r.srv.Load().Waiting() > 0 })
}

// waitUntil blocks until cond holds, looking again every few milliseconds,
// and fails the test when it does not within ten seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("gave up waiting until %s", what)
		}
	}
}

// outage is how long a killed server stays away: a few of the client's
// retry pauses (100 ms, doubling), so that the wait meets refused
// connections before the server is back. It paces the scenario; nothing
// waits on it.
const outage = 700 * time.Millisecond

// TestWaitRidesOutARestart: a debate wait that is waiting when its server
// is killed, or when the gateway in front of it answers 503, keeps waiting
// and returns the argument submitted once the server is back.
func TestWaitRidesOutARestart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		outage func(r *restartable)
	}{
		{"killed and restarted", func(r *restartable) {
			r.kill()
			time.Sleep(outage) // refused connections meanwhile
			r.start()
		}},
		{"gateway answers 503", func(r *restartable) {
			// The upstream restarts behind the gateway: the held poll is
			// cut, and the gateway answers 503 until the wait has met one.
			r.down.Store(true)
			r.kill()
			r.start()
			<-r.unavailable
			r.down.Store(false)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRestartable(t)
			c := call{vars: map[string]string{"DEBATE_SERVER_URL": "http://" + r.addr}}
			motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")
			done := make(chan outcome, 1)
			go func() {
				a, err := c.exec("wait", "--debate-id", "d1", "--role", "proposer", "--argument-id", motion, "--deadline", "40s")
				done <- outcome{a, err}
			}()
			r.waitHeld()
			tt.outage(r)
			claim := c.run(t, "submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", "No.").mustOK(t)
			select {
			case o := <-done:
				a := o.must(t).mustOK(t)
				args, _ := a.get("arguments").([]any)
				if a.str("status") != "new_argument" || a.str("argument_id") != claim.str("argument_id") || a.str("action") != "respond" ||
					len(args) != 1 || args[0].(map[string]any)["id"] != claim.str("argument_id") {
					t.Errorf("want the opponent's CLAIM %s, alone in arguments:\n%s", claim.str("argument_id"), a.stdout)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("wait did not return the argument submitted after the restart")
			}
		})
	}
}

// TestWaitGivesUpAtItsDeadline: a server that stays down fails the wait
// with UNREACHABLE (exit 6) once the deadline has passed, not before.
func TestWaitGivesUpAtItsDeadline(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	start := time.Now()
	a := call{vars: map[string]string{"DEBATE_SERVER_URL": "http://" + addr}}.run(t,
		"wait", "--debate-id", "d1", "--role", "proposer", "--deadline", "1500ms")
	a.wantError(t, exitUnreachable, "UNREACHABLE")
	if took := time.Since(start); took < 1500*time.Millisecond {
		t.Errorf("gave up after %v, before its deadline", took)
	}
}

// TestWaitListsEveryNewArgument: a wait from an argument that a CLAIM, an
// INTERVENTION and a RULING followed prints all three, oldest first, and
// the RULING as the newest.
func TestWaitListsEveryNewArgument(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")
	var want []string
	want = append(want, c.run(t, "submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", "C1").mustOK(t).str("argument_id"))
	want = append(want, c.run(t, "intervention", "--debate-id", "d1", "--content", "Stop.").mustOK(t).str("argument_id"))
	want = append(want, c.run(t, "ruling", "--debate-id", "d1", "--content", "Cover the migration.").mustOK(t).str("argument_id"))
	a := c.run(t, "wait", "--debate-id", "d1", "--role", "proposer", "--argument-id", motion).mustOK(t)
	var got []string
	for _, x := range a.get("arguments").([]any) {
		got = append(got, x.(map[string]any)["id"].(string))
	}
	if !slices.Equal(got, want) || a.str("argument_id") != want[2] || a.str("action") != "align_to_ruling" {
		t.Errorf("arguments %v, want %v; newest %s, action %s", got, want, a.str("argument_id"), a.str("action"))
	}
}

// TestWaitRidesOutAKilledServerProcess: the server is a process of its own,
// killed with SIGKILL while debate wait is waiting and started again on the
// same address and database; the wait returns the argument submitted then.
func TestWaitRidesOutAKilledServerProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts server processes")
	}
	addr, db := freeAddr(t), filepath.Join(t.TempDir(), "debate.db")
	vars := map[string]string{"XDG_STATE_HOME": t.TempDir(), "HOME": t.TempDir(), "DEBATE_SERVER_URL": "http://" + addr}
	t.Cleanup(func() { invoke(t, vars, "serve", "--stop", "--addr", addr) })
	start := func() int {
		if r := invoke(t, vars, "serve", "--detach", "--addr", addr, "--db", db); r.code != exitOK {
			t.Fatalf("serve --detach: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		d, ok, err := (&env{getenv: call{vars: vars}.getenv}).supervisor().Read(addr)
		if err != nil || !ok {
			t.Fatalf("no pid file: %v", err)
		}
		return d.PID
	}
	pid := start()
	c := call{vars: vars}
	motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")
	done := make(chan outcome, 1)
	go func() {
		a, err := c.exec("wait", "--debate-id", "d1", "--role", "proposer", "--argument-id", motion, "--deadline", "60s")
		done <- outcome{a, err}
	}()
	waitUntil(t, "the server process holds the wait", func() bool {
		res, err := http.Get("http://" + addr + "/health")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var h struct{ Data api.Health }
		return json.NewDecoder(res.Body).Decode(&h) == nil && h.Data.Waiting > 0
	})
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the killed server has gone", func() bool { return !daemon.Alive(pid) })
	start()
	claim := c.run(t, "submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", "No.").mustOK(t)
	select {
	case o := <-done:
		a := o.must(t).mustOK(t)
		if a.str("status") != "new_argument" || a.str("argument_id") != claim.str("argument_id") {
			t.Errorf("want the CLAIM submitted after the restart:\n%s", a.stdout)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("wait did not return the argument submitted after the restart")
	}
}
