package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/daemon"
	"github.com/debatehq/debate/store"
)

// restartable is a protocol server on one address and one database that a
// test can kill and start again, or put behind a gateway answering 503.
type restartable struct {
	t     *testing.T
	db    string
	addr  string
	polls atomic.Int32 // polls that reached the server
	down  atomic.Bool  // the gateway answers 503
	kill  func()
}

func newRestartable(t *testing.T) *restartable {
	r := &restartable{t: t, db: filepath.Join(t.TempDir(), "debate.db"), addr: "127.0.0.1:0"}
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
	h := server.New(st, server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).Handler()
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.down.Load() {
			http.Error(w, "upstream restarting", http.StatusServiceUnavailable)
			return
		}
		if strings.HasSuffix(req.URL.Path, "/poll") {
			r.polls.Add(1)
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

// waitPolls blocks until n polls have reached the server.
func (r *restartable) waitPolls(n int32) {
	for deadline := time.Now().Add(10 * time.Second); r.polls.Load() < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.t.Fatalf("only %d polls reached the server", r.polls.Load())
		}
	}
}

// TestWaitRidesOutARestart: a debate wait that is waiting when its server
// is killed, or when the gateway in front of it answers 503, keeps waiting
// and returns the argument submitted once the server is back.
func TestWaitRidesOutARestart(t *testing.T) {
	tests := []struct {
		name   string
		outage func(r *restartable)
	}{
		{"killed and restarted", func(r *restartable) {
			r.kill()
			time.Sleep(700 * time.Millisecond) // refused connections meanwhile
			r.start()
		}},
		{"gateway answers 503", func(r *restartable) {
			r.down.Store(true)
			time.Sleep(700 * time.Millisecond)
			r.down.Store(false)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRestartable(t)
			c := call{vars: map[string]string{"DEBATE_SERVER_URL": "http://" + r.addr}}
			motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")
			done := make(chan outcome, 1)
			go func() {
				a, err := c.exec("wait", "--debate-id", "d1", "--role", "proposer", "--argument-id", motion, "--deadline", "40s")
				done <- outcome{a, err}
			}()
			r.waitPolls(1)
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
	time.Sleep(300 * time.Millisecond) // the wait is held by the server
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for daemon.Alive(pid) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // refused connections meanwhile
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
