package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// usageBook counts tokens and calls per model, so that costs are computed
// from integer totals in a fixed order whatever order the calls ended in.
type usageBook struct {
	mu      sync.Mutex
	byModel map[string]tree.Usage
}

func (b *usageBook) add(model string, u tree.Usage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byModel == nil {
		b.byModel = map[string]tree.Usage{}
	}
	b.byModel[model] = b.byModel[model].Add(u)
}

// total returns the sum over every model with its cost from pricing (per
// million tokens).
func (b *usageBook) total(pricing map[string]configs.Price) tree.Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sum tree.Usage
	for _, m := range sortedKeys(b.byModel) {
		u := b.byModel[m]
		if p, ok := pricing[m]; ok {
			u.Cost = (float64(u.PromptTokens)*p.Input + float64(u.CompletionTokens)*p.Output) / 1e6
		}
		sum = sum.Add(u)
	}
	return sum
}

// member is one participant's state within a topic: its consecutive-failure
// counter and whether it has switched to its fallback model.
type member struct {
	p          configs.Participant
	order      int // position in the run's participant list, for sorting
	failures   int
	onFallback bool
	// probe serializes the calls of a participant that is failing on its
	// primary model, so that exactly maxConsecutiveFailures calls are tried
	// before the switch even when nodes run in parallel.
	probe chan struct{}
}

func (m *member) model() string {
	if m.onFallback {
		return m.p.Fallback
	}
	return m.p.Model
}

// canFallBack reports whether the member has a fallback it is not using yet.
func (m *member) canFallBack() bool {
	return !m.onFallback && m.p.Fallback != "" && m.p.Fallback != m.p.Model
}

// call is one model call of a topic.
type call struct {
	node string
	step tree.Step
	who  *member
	msgs []providers.Message
	json bool
	// model, when set, is used as is, once, whatever the participant's
	// current model is (the judge's repair and its one-off fallback).
	model string
	// maxTokens, when positive, replaces the configured token limit.
	maxTokens int
}

// call makes c with the participant's current model. When the failure makes
// the participant switch to its fallback, the same call is tried once more
// with it. It returns the model that produced the answer (or failed last).
func (t *topicRun) call(ctx context.Context, c call) (providers.Response, string, error) {
	if c.model != "" {
		resp, err := t.do(ctx, c, c.model)
		t.settle(ctx, c, c.model, err)
		return resp, c.model, err
	}
	model, release, err := t.acquire(ctx, c.who)
	if err != nil {
		return providers.Response{}, model, err
	}
	resp, err := t.do(ctx, c, model)
	next := t.settle(ctx, c, model, err)
	release()
	if err == nil || ctx.Err() != nil || next == model {
		return resp, model, err
	}
	resp, err = t.do(ctx, c, next)
	t.settle(ctx, c, next, err)
	return resp, next, err
}

// acquire returns the participant's current model. A participant failing on
// its primary model with a fallback in reserve is called one call at a time;
// release ends the turn.
func (t *topicRun) acquire(ctx context.Context, m *member) (model string, release func(), err error) {
	t.mu.Lock()
	model, probing := m.model(), m.failures > 0 && m.canFallBack()
	t.mu.Unlock()
	if !probing {
		return model, func() {}, nil
	}
	select {
	case m.probe <- struct{}{}:
	case <-ctx.Done():
		return model, nil, ctx.Err()
	}
	release = func() { <-m.probe }
	t.mu.Lock()
	model, probing = m.model(), m.canFallBack()
	t.mu.Unlock()
	if !probing {
		release()
		release = func() {}
	}
	return model, release, nil
}

// settle counts a call's outcome against the participant's current model and
// switches it to its fallback when the failures reach the limit. It returns
// the participant's model after the outcome.
func (t *topicRun) settle(ctx context.Context, c call, model string, err error) string {
	m := c.who
	t.mu.Lock()
	cur := m.model()
	switch {
	case model != cur, err != nil && ctx.Err() != nil:
		// an outcome of another model, or a call cut by cancellation
	case err == nil:
		m.failures = 0
	default:
		m.failures++
		if m.failures < t.e.maxFailures() || !m.canFallBack() {
			break
		}
		fb := tree.Fallback{
			Participant: m.p.ID, From: m.p.Model, To: m.p.Fallback, Node: c.node,
			Reason: fmt.Sprintf("%d consecutive failures, last at %s: %v", m.failures, c.step, err),
		}
		m.onFallback, m.failures = true, 0
		cur = m.model()
		t.fallbacks = append(t.fallbacks, fb)
		t.mu.Unlock()
		t.e.log.Warn("participant falls back for the rest of the topic",
			"topic", t.topic.ID, "participant", fb.Participant, "from", fb.From, "to", fb.To, "node", fb.Node, "reason", fb.Reason)
		t.e.emit(tree.Event{Kind: tree.FellBack, Topic: t.topic.ID, Node: c.node, Participant: m.p.ID, Step: c.step, Model: fb.To, Fallback: &fb})
		return cur
	}
	t.mu.Unlock()
	return cur
}

// do makes one call with model, unless ctx has ended, and accounts for it.
func (t *topicRun) do(ctx context.Context, c call, model string) (providers.Response, error) {
	if err := ctx.Err(); err != nil {
		return providers.Response{}, err
	}
	e := t.e
	ev := tree.Event{Topic: t.topic.ID, Node: c.node, Participant: c.who.p.ID, Step: c.step, Model: model}
	start := ev
	start.Kind = tree.CallStarted
	e.emit(start)
	req := e.request(c, model)
	req.Origin = providers.Origin{Topic: t.topic.ID, Node: c.node, Step: string(c.step)}
	resp, err := e.c.Complete(ctx, req)
	if err != nil {
		if ctx.Err() == nil {
			t.book.add(model, tree.Usage{Failures: 1})
			e.log.Warn("call failed", "topic", t.topic.ID, "node", c.node, "participant", c.who.p.ID, "step", c.step, "model", model, "err", err)
		}
		ev.Kind, ev.Err = tree.CallFailed, err.Error()
		e.emit(ev)
		return resp, err
	}
	u := tree.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens, Calls: 1}
	t.book.add(model, u)
	e.spent.Add(int64(u.Total()))
	ev.Kind, ev.Usage = tree.CallFinished, u
	e.emit(ev)
	return resp, nil
}

// request maps a call to a provider request; the length and temperature
// limits are left for the providers to take from the config unless the call
// sets its own length limit.
func (e *Engine) request(c call, model string) providers.Request {
	r := providers.Request{Participant: c.who.p.ID, Model: model, Messages: c.msgs, JSON: c.json}
	if c.maxTokens > 0 {
		r.MaxTokens = &c.maxTokens
	}
	return r
}

// sortedFallbacks returns the topic's fallbacks in participant order; a
// participant falls back at most once per topic.
func (t *topicRun) sortedFallbacks() []tree.Fallback {
	t.mu.Lock()
	defer t.mu.Unlock()
	order := map[string]int{}
	for _, m := range t.members {
		order[m.p.ID] = m.order
	}
	out := slices.Clone(t.fallbacks)
	slices.SortStableFunc(out, func(a, b tree.Fallback) int { return order[a.Participant] - order[b.Participant] })
	if out == nil {
		out = []tree.Fallback{}
	}
	return out
}
