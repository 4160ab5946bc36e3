package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// holdWriteLock takes the database's write lock from a connection of its own,
// as another process would, so that writes queue behind a leader waiting for
// it. release commits and closes that connection.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", path+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if released {
			return
		}
		released = true
		if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
			t.Error(err)
		}
		conn.Close()
		db.Close()
	}
	t.Cleanup(release)
	return release
}

// waitQueued blocks until n writes are queued on s (the leader's own counts).
func waitQueued(s *Store, n int) {
	waitWriter(s, func(w *writer) bool { return len(w.queue) >= n })
}

// waitWriter blocks until done holds for s's writer, checked with its lock
// held each time a write joins the queue or the writer closes.
func waitWriter(s *Store, done func(*writer) bool) {
	w := sqliteOf(s).wr
	w.mu.Lock()
	defer w.mu.Unlock()
	for !done(w) {
		w.grown.Wait()
	}
}

type submitted struct {
	res protocol.Result
	err error
}

// queueWrites starts each write in turn, waiting until it is queued before
// starting the next, so that queue order is the order given.
func queueWrites(t *testing.T, s *Store, ctxs []context.Context, ops []func(context.Context) (protocol.Result, error)) []chan submitted {
	t.Helper()
	out := make([]chan submitted, len(ops))
	for i, f := range ops {
		out[i] = make(chan submitted, 1)
		ctx := context.Background()
		if ctxs != nil && ctxs[i] != nil {
			ctx = ctxs[i]
		}
		go func() {
			res, err := f(ctx)
			out[i] <- submitted{res, err}
		}()
		waitQueued(s, i+1)
	}
	return out
}

// TestBatchOutcomes queues writes behind a held write lock so that they are
// committed in one batch: some are refused, one is a replay of a write earlier
// in the same batch, one creates a debate and the next replays that create.
// Each caller must get its own outcome, and seq must stay contiguous.
func TestBatchOutcomes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s := openAt(t, path, Options{})
	motion := mustCreate(t, s, "d")
	other := mustCreate(t, s, "other")
	ch, cancel := s.Subscribe("d")
	defer cancel()

	submit := func(w protocol.Write) func(context.Context) (protocol.Result, error) {
		w.DebateID = "d"
		return func(ctx context.Context) (protocol.Result, error) { return s.Submit(ctx, w) }
	}
	create := protocol.NewDebate{ID: "e", Title: "E", Type: protocol.GeneralDebate, Content: "motion of e", ClientRequestID: "ce"}
	tests := []struct {
		name   string
		do     func(context.Context) (protocol.Result, error)
		code   protocol.Code
		replay bool
		seq    int
		state  protocol.State
	}{
		{name: "opponent claim", do: submit(protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID, Content: "c1", ClientRequestID: "k1"}),
			seq: 2, state: protocol.AwaitingProposer},
		{name: "opponent again, refused", do: submit(protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID, Content: "c", ClientRequestID: "k2"}),
			code: protocol.CodeActionNotAllowed},
		{name: "replay of the first claim", do: submit(protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID, Content: "changed", ClientRequestID: "k1"}),
			replay: true, seq: 2, state: protocol.AwaitingProposer},
		{name: "foreign target, refused", do: submit(protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, TargetID: other.ID, Content: "c", ClientRequestID: "k3"}),
			code: protocol.CodeInvalidInput},
		{name: "create", do: func(ctx context.Context) (protocol.Result, error) { return s.Create(ctx, create) },
			seq: 1, state: protocol.AwaitingOpponent},
		{name: "replay of the create", do: func(ctx context.Context) (protocol.Result, error) { return s.Create(ctx, create) },
			replay: true, seq: 1, state: protocol.AwaitingOpponent},
		{name: "unknown debate", do: func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: "ghost", Type: protocol.Intervention, Role: protocol.Arbitrator})
		}, code: protocol.CodeDebateNotFound},
	}
	ops := make([]func(context.Context) (protocol.Result, error), len(tests))
	for i, tt := range tests {
		ops[i] = tt.do
	}

	release := holdWriteLock(t, path)
	before := sqliteOf(s).wr.commits.Load()
	outs := queueWrites(t, s, nil, ops)
	release()

	var first protocol.Result
	for i, tt := range tests {
		got := <-outs[i]
		if tt.code != "" {
			wantCode(t, got.err, tt.code)
			continue
		}
		if got.err != nil {
			t.Fatalf("%s: %v", tt.name, got.err)
		}
		a := got.res.Argument
		if got.res.Replay != tt.replay || a.Seq != tt.seq || got.res.Debate.State != tt.state {
			t.Errorf("%s: replay %v seq %d state %s, want %v %d %s", tt.name, got.res.Replay, a.Seq, got.res.Debate.State, tt.replay, tt.seq, tt.state)
		}
		switch tt.name {
		case "opponent claim":
			first = got.res
		case "replay of the first claim":
			if a != first.Argument {
				t.Errorf("replay returned %+v, want the original %+v", a, first.Argument)
			}
		}
	}
	if n := sqliteOf(s).wr.commits.Load() - before; n != 1 {
		t.Errorf("%d commits for the batch, want 1", n)
	}
	select {
	case <-ch:
	default:
		t.Error("subscribers of d not signalled")
	}
	_, args, err := s.Since(ctx, "d", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, args)
	if len(args) != 2 || args[1].ClientRequestID != "k1" || args[1].Content != "c1" {
		t.Errorf("stored %+v, want the motion and c1", args)
	}
	if n := countArgs(t, s, "e"); n != 1 {
		t.Errorf("debate e has %d arguments, want 1", n)
	}
}

// TestBatchResolution puts a RESOLUTION and writes to other debates in one
// batch: the RULING that closes the debate follows in the same batch.
func TestBatchResolution(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "debate.db")
	s := openAt(t, path, Options{})
	motion := mustCreate(t, s, "d")
	c := claim(t, s, "d", protocol.Opponent, motion.ID, "k1")
	m2 := mustCreate(t, s, "d2")

	release := holdWriteLock(t, path)
	outs := queueWrites(t, s, nil, []func(context.Context) (protocol.Result, error){
		func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: "d2", Type: protocol.Claim, Role: protocol.Opponent, TargetID: m2.ID, Content: "c", ClientRequestID: "a"})
		},
		func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Resolution, Role: protocol.Proposer, TargetID: c.ID, Content: "agreed", ClientRequestID: "k2"})
		},
		func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: c.ID, Content: "late", ClientRequestID: "k3"})
		},
	})
	release()
	if got := <-outs[0]; got.err != nil || got.res.Argument.Seq != 2 {
		t.Errorf("claim on d2: %+v, %v", got.res.Argument, got.err)
	}
	res := <-outs[1]
	if res.err != nil || res.res.AutoRuling == nil || res.res.AutoRuling.Seq != 4 || res.res.Debate.State != protocol.Closed {
		t.Fatalf("resolution: %+v, %v", res.res, res.err)
	}
	wantCode(t, (<-outs[2]).err, protocol.CodeActionNotAllowed)
}

// TestQueuedCancel cancels writes while they wait for the write lock, the
// leader's own and a follower's: both callers get ctx's error and nothing of
// theirs is written, while the write between them is.
func TestQueuedCancel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s := openAt(t, path, Options{})
	motion := mustCreate(t, s, "d")
	mustCreate(t, s, "d2")

	lctx, lcancel := context.WithCancel(ctx)
	fctx, fcancel := context.WithCancel(ctx)
	write := func(debate, key string, role protocol.Role) func(context.Context) (protocol.Result, error) {
		return func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: debate, Type: protocol.Claim, Role: role, TargetID: motion.ID, Content: key, ClientRequestID: key})
		}
	}
	release := holdWriteLock(t, path)
	outs := queueWrites(t, s, []context.Context{lctx, nil, fctx}, []func(context.Context) (protocol.Result, error){
		write("d", "leader", protocol.Opponent),
		write("d2", "middle", protocol.Opponent),
		write("d", "follower", protocol.Opponent),
	})
	// A queued follower returns at once, while the lock is still held.
	fcancel()
	if got := <-outs[2]; !errors.Is(got.err, context.Canceled) {
		t.Fatalf("cancelled follower: %+v, %v", got.res, got.err)
	}
	// The leader is waiting for the lock: it answers after, unwritten.
	lcancel()
	release()
	if got := <-outs[0]; !errors.Is(got.err, context.Canceled) {
		t.Fatalf("cancelled leader: %+v, %v", got.res, got.err)
	}
	// The middle write targets d's motion from d2: refused, but it ran.
	wantCode(t, (<-outs[1]).err, protocol.CodeInvalidInput)
	if n := countArgs(t, s, "d"); n != 1 {
		t.Errorf("cancelled writes stored: d has %d arguments", n)
	}
	// The writer is idle again and writes as usual.
	claim(t, s, "d", protocol.Opponent, motion.ID, "after")
}

// TestCloseWithWritesQueued closes the Store while writes wait for the write
// lock: every caller gets an answer, each write is either committed or
// fails with the store closed, and writes after Close fail at once.
func TestCloseWithWritesQueued(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	motion := mustCreate(t, s, "d")

	const n = 2 * perDebateCap
	ops := make([]func(context.Context) (protocol.Result, error), n)
	for i := range ops {
		ops[i] = func(ctx context.Context) (protocol.Result, error) {
			return s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, TargetID: motion.ID})
		}
	}
	release := holdWriteLock(t, path)
	outs := queueWrites(t, s, nil, ops)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	waitWriter(s, func(w *writer) bool { return w.closed })
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	var ok, refused, failed int
	for _, out := range outs {
		got := <-out
		switch {
		case got.err == nil:
			ok++
		case protocol.CodeOf(got.err) == protocol.CodeActionNotAllowed:
			refused++
		case errors.Is(got.err, errClosed):
			failed++
		default:
			t.Errorf("unexpected outcome %+v, %v", got.res, got.err)
		}
	}
	if ok != 1 || failed == 0 || ok+refused+failed != n {
		t.Errorf("%d written, %d refused, %d failed on close; want 1 written and some failed", ok, refused, failed)
	}
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator}); !errors.Is(err, errClosed) {
		t.Errorf("submit after close: %v", err)
	}

	s2 := openAt(t, path, Options{})
	if got := countArgs(t, s2, "d"); got != 1+ok {
		t.Errorf("%d arguments stored, want %d", got, 1+ok)
	}
}
