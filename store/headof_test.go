package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// TestWriteHeadAfterForeignCommit writes to a debate from one Store, whose
// writer then keeps the debate's head in memory, then from another Store on
// the same file (another process), then from the first again: that write
// must start from the other Store's argument, read from the database, not
// from the head in memory.
func TestWriteHeadAfterForeignCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	a := openAt(t, path, Options{})
	b := openAt(t, path, Options{})
	motion := mustCreate(t, a, "d")
	c1 := claim(t, a, "d", protocol.Opponent, motion.ID, "k1")
	hits := sqliteOf(a).wr.fromMemory.Load()
	c2 := claim(t, a, "d", protocol.Proposer, c1.ID, "k2")
	if sqliteOf(a).wr.fromMemory.Load() != hits+1 {
		t.Fatal("a write after the writer's own commit read its head from the database")
	}

	c3 := claim(t, b, "d", protocol.Opponent, c2.ID, "k3")
	hits = sqliteOf(a).wr.fromMemory.Load()
	// From the head in memory (seq 3, awaiting the opponent) the proposer
	// would be refused, and seq 4 is taken.
	c4 := claim(t, a, "d", protocol.Proposer, c3.ID, "k4")
	if c4.Seq != 5 || c4.ParentID != c3.ID {
		t.Fatalf("after another Store's write: seq %d parent %s, want 5 and %s", c4.Seq, c4.ParentID, c3.ID)
	}
	if sqliteOf(a).wr.fromMemory.Load() != hits {
		t.Fatal("a write after another Store's commit took its head from memory")
	}

	// Without a target, the parent is the newest argument, written by b.
	c5 := claim(t, b, "d", protocol.Opponent, c4.ID, "k5")
	res, err := a.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "stop", ClientRequestID: "k6"})
	if err != nil || res.Argument.Seq != 7 || res.Argument.ParentID != c5.ID {
		t.Fatalf("intervention after another Store's write: %+v, %v; want seq 7 after %s", res.Argument, err, c5.ID)
	}
	_, args, err := b.Since(ctx, "d", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, args)
}

// TestBatchHeadsFromMemory commits one batch of writes whose heads come from
// memory: a write refused by the database after its savepoint opened (a
// trigger), which must leave no trace; a write to the same debate after it;
// a replay of that write; a write without a target, whose parent is the
// batch's previous write; and a write to another debate.
func TestBatchHeadsFromMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	// The trigger goes in before the Store opens, so that its writer sees no
	// other process's commit afterwards.
	s0 := openAt(t, path, Options{})
	s0.Close()
	db, err := sql.Open("sqlite", path+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TRIGGER refuse BEFORE INSERT ON arguments WHEN NEW.content = 'refused'
BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openAt(t, path, Options{})
	motion := mustCreate(t, s, "d")
	other := mustCreate(t, s, "e")
	c1 := claim(t, s, "d", protocol.Opponent, motion.ID, "k1")

	release := holdWriteLock(t, path)
	submit := func(w protocol.Write) func(context.Context) (protocol.Result, error) {
		return func(ctx context.Context) (protocol.Result, error) { return s.Submit(ctx, w) }
	}
	proposer := protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: c1.ID, Content: "second claim", ClientRequestID: "k3"}
	refused := proposer
	refused.Content, refused.ClientRequestID = "refused", "k2"
	replay := proposer
	replay.Content = "changed on replay"
	hits, commits := sqliteOf(s).wr.fromMemory.Load(), sqliteOf(s).wr.commits.Load()
	out := queueWrites(t, s, nil, []func(context.Context) (protocol.Result, error){
		submit(refused),
		submit(proposer),
		submit(replay),
		submit(protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "stop", ClientRequestID: "k4"}),
		submit(protocol.Write{DebateID: "e", Type: protocol.Claim, Role: protocol.Opponent, TargetID: other.ID, Content: "claim in e", ClientRequestID: "k5"}),
	})
	release()
	got := make([]submitted, len(out))
	for i, ch := range out {
		got[i] = <-ch
	}

	if err := got[0].err; err == nil || !strings.Contains(err.Error(), "refused by the test trigger") {
		t.Fatalf("refused write: %+v, %v", got[0].res, err)
	}
	second := got[1].res.Argument
	if got[1].err != nil || second.Seq != 3 || second.ParentID != c1.ID || got[1].res.Debate.State != protocol.AwaitingOpponent {
		t.Fatalf("write after the refused one: %+v, %v; want seq 3 after %s", got[1].res, got[1].err, c1.ID)
	}
	if got[2].err != nil || !got[2].res.Replay || got[2].res.Argument != second || got[2].res.Debate.State != protocol.AwaitingOpponent {
		t.Fatalf("replay in the batch: %+v, %v; want the original %+v", got[2].res, got[2].err, second)
	}
	if a := got[3].res.Argument; got[3].err != nil || a.Seq != 4 || a.ParentID != second.ID || got[3].res.Debate.State != protocol.InterventionPending {
		t.Fatalf("intervention in the batch: %+v, %v; want seq 4 after %s", got[3].res, got[3].err, second.ID)
	}
	if a := got[4].res.Argument; got[4].err != nil || a.Seq != 2 || a.ParentID != other.ID {
		t.Fatalf("claim in e: %+v, %v", got[4].res, got[4].err)
	}
	if n := sqliteOf(s).wr.commits.Load() - commits; n != 1 {
		t.Errorf("%d commits, want the batch in one", n)
	}
	if n := sqliteOf(s).wr.fromMemory.Load() - hits; n != 5 {
		t.Errorf("%d of 5 heads came from memory", n)
	}

	_, args, err := s.Since(ctx, "d", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, args)
	if len(args) != 4 {
		t.Fatalf("%d arguments stored in d, want 4", len(args))
	}
	// The heads the batch left are those a poll reads.
	w, err := s.Wait(ctx, "d", protocol.Proposer, "", 0)
	if err != nil || w.Argument != args[3] || w.Debate.State != protocol.InterventionPending {
		t.Fatalf("newest after the batch: %+v, %v; want %+v", w.Argument, err, args[3])
	}
}

// TestReplayWhereTheWriteIsAllowed replays writes, with heads from memory,
// in states where they would be allowed again: the insert finds the
// original, writes nothing and the original comes back.
func TestReplayWhereTheWriteIsAllowed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	motion := mustCreate(t, s, "d")
	c1 := claim(t, s, "d", protocol.Opponent, motion.ID, "k1")
	c2 := claim(t, s, "d", protocol.Proposer, c1.ID, "k2")
	hits := sqliteOf(s).wr.fromMemory.Load()
	for _, tt := range []struct {
		name string
		w    protocol.Write
		orig protocol.Argument
	}{
		{"same write", protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID, Content: "claim k1", ClientRequestID: "k1"}, c1},
		{"another target and content", protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: c2.ID, Content: "changed", ClientRequestID: "k1"}, c1},
		{"another type", protocol.Write{Type: protocol.Intervention, Role: protocol.Arbitrator, ClientRequestID: "k2"}, c2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.w.DebateID = "d"
			res, err := s.Submit(ctx, tt.w)
			if err != nil || !res.Replay || res.Argument != tt.orig || res.Debate.State != protocol.AwaitingOpponent {
				t.Fatalf("got %+v, %v; want a replay of %+v", res, err, tt.orig)
			}
		})
	}
	if n := sqliteOf(s).wr.fromMemory.Load() - hits; n != 3 {
		t.Errorf("%d of 3 heads came from memory", n)
	}
	if n := countArgs(t, s, "d"); n != 3 {
		t.Errorf("%d arguments stored, want 3", n)
	}
	// The next write follows c2, as if no replay had come.
	if c3 := claim(t, s, "d", protocol.Opponent, c2.ID, "k3"); c3.Seq != 4 {
		t.Errorf("next write has seq %d, want 4", c3.Seq)
	}
}
