package orchestrator

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestCancel: when the context ends mid-run, no call starts any more, the
// nodes not finished are interrupted, and Run returns the partial tree with
// the context's error.
func TestCancel(t *testing.T) {
	s := &script{judge: map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
	}, words: 5}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var cancelled atomic.Bool
	var late atomic.Int32        // calls that arrived after the cancellation
	var d2Waiting sync.WaitGroup // d2's positions, all in flight before the cancellation
	d2Waiting.Add(3)
	fake := func(ctx context.Context, r providers.Request) (providers.Response, error) {
		if cancelled.Load() {
			late.Add(1)
		}
		switch node := nodeOf(r); {
		case node == "d2":
			// d2's positions hang until the run is cancelled.
			d2Waiting.Done()
			<-ctx.Done()
			return providers.Response{}, ctx.Err()
		case node == "d1" && r.Participant == "judge":
			// The user presses Ctrl-C while d1's judge is thinking.
			d2Waiting.Wait()
			cancelled.Store(true)
			cancel()
			return providers.Response{}, ctx.Err()
		}
		return s.answer(ctx, r)
	}
	cfg := testConfig(3, "t1")
	cfg.Params.Synthesis = nil // on: it must not run after the cancellation either
	cfg.SharedContext.Documents = []configs.Document{{Path: "doc.md", Content: "a document"}}
	rec := &recorder{}
	run, err := english(cfg, completer(fake), promptSet(t), Options{Events: rec.add}).Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if run == nil {
		t.Fatal("no partial run")
	}
	top := run.Topics[0]
	if got, want := shape(top.Root), []string{"root split", "d1 interrupted", "d2 interrupted"}; !slices.Equal(got, want) {
		t.Fatalf("shape %q, want %q", got, want)
	}
	if top.Status != tree.Interrupted {
		t.Errorf("topic %s, want interrupted", top.Status)
	}
	for _, id := range []string{"d1", "d2"} {
		n := top.Root.Find(id)
		if n.StopReason != "interrupted by the user" || len(n.Errors) != 0 {
			t.Errorf("%s: stop reason %q, errors %+v", id, n.StopReason, n.Errors)
		}
	}
	if d1 := top.Root.Find("d1"); len(d1.Positions) != 3 || len(d1.Rebuttals) != 3 {
		t.Errorf("d1 lost what it reached: %d positions, %d rebuttals", len(d1.Positions), len(d1.Rebuttals))
	}
	if n := late.Load(); n != 0 {
		t.Errorf("%d calls started after the cancellation", n)
	}
	// root 7, d1 3+3+1, d2 3 positions
	if got := rec.count(tree.CallStarted, nil); got != 17 {
		t.Errorf("%d calls started, want 17", got)
	}
	if got := rec.count(tree.CallStarted, nil) - rec.count(tree.CallFinished, nil) - rec.count(tree.CallFailed, nil); got != 0 {
		t.Errorf("%d calls left in flight by the events", got)
	}
	if got := rec.count(tree.AttemptFailed, nil); got != 0 {
		t.Errorf("%d attempts cut short by the interrupt reported as failed attempts", got)
	}
	if top.Synthesis != "" || run.Edits != "" || top.Usage.Failures != 0 {
		t.Errorf("synthesis %q, edits %q, failures %d after cancellation", top.Synthesis, run.Edits, top.Usage.Failures)
	}
	if run.FinishedAt.IsZero() {
		t.Error("partial run has no finish time")
	}
}

// TestCancelledBeforeStart: a run whose context is already done makes no call
// and reports every topic interrupted.
func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &script{words: 5}
	run, err := english(testConfig(3, "t1", "t2"), completer(s.answer), promptSet(t), Options{}).Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if len(s.requests) != 0 {
		t.Errorf("%d calls made", len(s.requests))
	}
	for _, top := range run.Topics {
		if top.Status != tree.Interrupted || top.Root.Status != tree.Interrupted {
			t.Errorf("%s: %s", top.ID, top.Status)
		}
	}
}
