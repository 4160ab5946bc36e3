package ops

import (
	"fmt"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// TestStatusFromEvents: the live lines and the run's counts follow the
// engine's events, and a run of many topics shows only those running.
func TestStatusFromEvents(t *testing.T) {
	t.Parallel()
	cfg := &configs.Config{Output: configs.Output{Dir: "/out"}, Budget: configs.Budget{MaxCost: 3}}
	var sel tree.Selection
	for i := range 60 {
		id := fmt.Sprintf("t%d", i)
		cfg.Topics = append(cfg.Topics, configs.Topic{ID: id, Title: "Topic " + id})
		sel.Topics = append(sel.Topics, id)
	}
	r := newRun("r1", cfg, sel, false, func() {})
	_, changed := r.watch()
	for _, ev := range []tree.Event{
		{Kind: tree.TopicStarted, Topic: "t1"},
		{Kind: tree.NodeStarted, Topic: "t1", Node: "root"},
		{Kind: tree.CallProgress, Topic: "t1", Usage: tree.Usage{CompletionTokens: 7}},
		{Kind: tree.CallProgress, Topic: "t1", Usage: tree.Usage{CompletionTokens: -7}},
		{Kind: tree.CallFinished, Topic: "t1", Usage: tree.Usage{PromptTokens: 100, CompletionTokens: 20, Cost: 0.25}},
		{Kind: tree.CallFailed, Topic: "t1"},
		{Kind: tree.NodeFinished, Topic: "t1", Node: "root"},
		{Kind: tree.TopicFinished, Topic: "t1", Decision: tree.Agreed},
		{Kind: tree.TopicStarted, Topic: "t2"},
	} {
		r.event(ev)
	}
	select {
	case <-changed:
	default:
		t.Fatal("no change signalled")
	}
	st := r.status()
	if st.Done != 1 || st.Total != 60 || st.Calls != 1 || st.Failures != 1 || st.Tokens != 120 || st.Cost != 0.25 || st.MaxCost != 3 {
		t.Errorf("status %+v", st)
	}
	if len(st.Topics) != 1 || st.Topics[0].ID != "t2" || st.LinesOmitted != 59 {
		t.Errorf("lines %+v, %d omitted; want t2 alone, running", st.Topics, st.LinesOmitted)
	}
	r.mu.Lock()
	t1 := r.st.Topics[1]
	r.mu.Unlock()
	if t1.State != TopicDone || t1.Decision != "agreed" || t1.Nodes != 1 || t1.Calls != 1 {
		t.Errorf("t1's line %+v", t1)
	}
}

// TestElapsedStopsAtTheEnd: an ended run's status gives how long it went,
// however long after its end it is read.
func TestElapsedStopsAtTheEnd(t *testing.T) {
	t.Parallel()
	r := newRun("r1", &configs.Config{Output: configs.Output{Dir: "/out"}}, tree.Selection{}, true, func() {})
	r.finish(nil, nil, false)
	r.mu.Lock()
	r.started = r.started.Add(-time.Hour) // read an hour later
	r.mu.Unlock()
	if st := r.status(); st.State != Finished || st.Elapsed != "0s" {
		t.Errorf("an hour after a run that went 0s: state %s, elapsed %s", st.State, st.Elapsed)
	}
}
