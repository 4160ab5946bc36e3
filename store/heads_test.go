package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/debatehq/debate/protocol"
)

// TestHeadsAcrossStores checks that the heads Wait answers from never hide a
// commit: one of this Store at once, one of another Store on the same file
// (another process) as soon as this Store writes, and for a waiter through
// the watcher.
func TestHeadsAcrossStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	a := openAt(t, path, Options{PollInterval: 50 * time.Millisecond})
	b := openAt(t, path, Options{})
	motion := mustCreate(t, a, "d")
	mustCreate(t, a, "e")
	newest := func(s *Store) protocol.Argument {
		t.Helper()
		w, err := s.Wait(ctx, "d", protocol.Proposer, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		return w.Argument
	}
	if got := newest(a); got.ID != motion.ID {
		t.Fatalf("newest %+v, want the motion", got)
	}

	// A write of this Store replaces the head at once.
	c1 := claim(t, a, "d", protocol.Opponent, motion.ID, "k1")
	if got := newest(a); got.ID != c1.ID {
		t.Fatalf("after its own write: newest seq %d, want %d", got.Seq, c1.Seq)
	}

	// Another Store's write is seen once this Store writes (its writer finds
	// the foreign commit), if the head has not expired before.
	c2 := claim(t, b, "d", protocol.Proposer, c1.ID, "k2")
	claim(t, a, "e", protocol.Opponent, mustArg(t, a, "e"), "k3")
	if got := newest(a); got.ID != c2.ID {
		t.Fatalf("after another store's write: newest seq %d, want %d", got.Seq, c2.Seq)
	}

	// A waiter is woken through the watcher, which drops the stale head.
	done := make(chan protocol.WaitResult, 1)
	go func() {
		w, err := a.Wait(ctx, "d", protocol.Opponent, c2.ID, 5*time.Second)
		if err != nil {
			t.Error(err)
		}
		done <- w
	}()
	waitSubscribed(a, 1)
	c3 := claim(t, b, "d", protocol.Opponent, c2.ID, "k4")
	if w := <-done; !w.HasNew || w.Argument.ID != c3.ID {
		t.Fatalf("waiter got %+v, want seq %d", w.Argument, c3.Seq)
	}

	// A deleted debate is not answered from its head.
	if err := a.Delete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Wait(ctx, "d", protocol.Proposer, "", 0); protocol.CodeOf(err) != protocol.CodeDebateNotFound {
		t.Fatalf("wait on a deleted debate: %v", err)
	}
}

// mustArg returns the id of the newest argument of a debate.
func mustArg(t *testing.T, s *Store, debate string) string {
	t.Helper()
	w, err := s.Wait(context.Background(), debate, protocol.Proposer, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return w.Argument.ID
}

// A head read before its debate's head was dropped (the debate deleted, or
// moved by another process) is not stored after the drop: a waiter would
// take it for the debate's head until it expired.
func TestHeadsPutAfterDrop(t *testing.T) {
	t.Parallel()
	h := newHeads(time.Hour)
	d := protocol.Debate{ID: "d", State: protocol.AwaitingOpponent}
	a := protocol.Argument{ID: "m", DebateID: "d", Seq: 1}
	for _, tt := range []struct {
		name string
		drop func()
	}{
		{"one head", func() { h.drop("d") }},
		{"every head", h.foreign},
		{"nothing to compare with", h.reset},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gen := h.generation()
			tt.drop()
			h.shared = time.Time{} // so that only the generation decides
			h.put(gen, d, a)
			if _, _, ok := h.get("d"); ok {
				t.Fatal("a head read before the drop was stored after it")
			}
			h.put(h.generation(), d, a)
			if _, _, ok := h.get("d"); !ok {
				t.Fatal("a head read after the drop was not stored")
			}
		})
	}
}
