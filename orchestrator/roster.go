package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/internal/prefix"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// maxBackoff caps one exponential backoff wait; a server's Retry-After may
// ask for longer.
const maxBackoff = 30 * time.Second

// roster holds the participants of one topic or one motion, each with its
// current model, its consecutive-failure counter and its fallback, and makes
// every call of that topic or motion through one attempt loop:
//
//   - a success resets the participant's counter; each failed attempt of a
//     transient kind adds one;
//   - below fallback.maxConsecutiveFailures the same model is tried again
//     after an exponential backoff from fallback.retryDelay with jitter, no
//     shorter than the server's Retry-After;
//   - when the counter reaches the limit and the participant has a fallback,
//     it switches to it for the rest of the topic and the same call goes on
//     with the fallback at once;
//   - a key refused, a model not found or a prompt too long for the model
//     switches to the fallback at once, without a retry; any other permanent
//     failure ends the call with the provider's words;
//   - on the fallback, or without one, the endpoint's api.maxRetries bounds
//     the retries of one call.
type roster struct {
	s     supply
	scope string // the topic or motion id, for events and logs
	// motion: the scope is a motion, whose events and logs name its turns.
	motion bool
	book   usageBook

	mu        sync.Mutex // guards the members' counters and the fallbacks
	members   []*member
	fallbacks []tree.Fallback
}

// member is one participant's state within a roster.
type member struct {
	p          configs.Participant
	maxRetries int // api.maxRetries of the participant's endpoint
	failures   int
	onFallback bool
	// probe serializes the attempts of a participant that is failing on its
	// primary model, so that exactly maxConsecutiveFailures attempts are
	// made before the switch even when its calls run in parallel.
	probe chan struct{}
}

// supply is what a roster needs of the engine to make calls, and nothing
// else of it.
type supply struct {
	c   Completer
	cfg *configs.Config // endpoints, the fallback policy, the token limit
	log *slog.Logger
	say Sayer
	// emit reports an event; listened says whether anyone consumes them,
	// so that requests report when they are sent and answered.
	emit     func(tree.Event)
	listened bool
	jitter   func() float64 // in [0,1), for the backoff
	calls    *atomic.Uint64 // numbers the run's calls
	prefixes *prefix.Book   // the prompts sent per model and endpoint
	// account returns the usage of an answer of model to msgs and counts
	// it against the run's budget.
	account func(resp providers.Response, msgs []providers.Message, model string) tree.Usage
}

// supply returns what the engine's rosters need of it.
func (e *Engine) supply() supply {
	return supply{c: e.c, cfg: e.cfg, log: e.log, say: e.opt.Say, emit: e.emit, listened: e.opt.Events != nil, jitter: e.opt.Jitter,
		calls: &e.calls, prefixes: &e.prefixes, account: e.account}
}

// maxFailures is the number of consecutive failures that switch a
// participant to its fallback model.
func (s supply) maxFailures() int { return s.cfg.Fallback.MaxConsecutiveFailures }

// retryDelay is the base of the backoff between two attempts of a call.
func (s supply) retryDelay() time.Duration {
	return time.Duration(s.cfg.Fallback.RetryDelay) * time.Millisecond
}

func (e *Engine) newRoster(scope string) *roster {
	return &roster{s: e.supply(), scope: scope}
}

// newMotionRoster returns the roster of a motion.
func (e *Engine) newMotionRoster(id string) *roster {
	return &roster{s: e.supply(), scope: id, motion: true}
}

// where returns the log attributes that place call c: its topic and node,
// or its motion and turn.
func (r *roster) where(c call) []any {
	if r.motion {
		return []any{"motion", r.scope, "turn", c.turn}
	}
	return []any{"topic", r.scope, "node", c.node}
}

// event returns an event of kind k about call c, placed as where places it.
func (r *roster) event(k tree.EventKind, c call) tree.Event {
	ev := tree.Event{Kind: k, Participant: c.who.p.ID, Step: c.step}
	if r.motion {
		ev.Motion, ev.Turn = r.scope, c.turn
	} else {
		ev.Topic, ev.Node = r.scope, c.node
	}
	return ev
}

// noun is what the roster's scope is: "topic" or "motion".
func (r *roster) noun() string {
	if r.motion {
		return "motion"
	}
	return "topic"
}

// add enrols a participant and returns its state.
func (r *roster) add(p configs.Participant) *member {
	retries := configs.DefaultMaxRetries
	if n := r.s.cfg.Endpoint(p.ID).MaxRetries; n != nil {
		retries = *n
	}
	m := &member{p: p, maxRetries: retries, probe: make(chan struct{}, 1)}
	r.members = append(r.members, m)
	return m
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

// call is one model call of a topic or motion.
type call struct {
	node   string
	turn   int // of a motion's call
	step   tree.Step
	who    *member
	msgs   []providers.Message
	json   bool
	schema *schema // the answer's JSON schema, for endpoints that take one
	// maxTokens, when positive, replaces the configured token limit.
	maxTokens int
	// reaskCut asks an answer cut at the token limit again, once, with a
	// larger limit (reask).
	reaskCut bool
}

// next is what the attempt loop does after an attempt.
type next int

const (
	stop     next = iota // the call is over, answered or failed
	retry                // the same model again, after a wait
	switched             // the participant's fallback, at once
)

// call makes c through the attempt loop and returns the answer with the
// model that gave it, or the last failure with the model that failed last.
func (r *roster) call(ctx context.Context, c call) (providers.Response, string, error) {
	if c.reaskCut {
		return r.reask(ctx, c)
	}
	id := r.s.calls.Add(1)
	retries := 0
	for attempt := 1; ; attempt++ {
		model, release, err := r.acquire(ctx, c.who)
		if err != nil {
			return providers.Response{}, model, err
		}
		resp, err := r.do(ctx, c, model, attempt, id)
		what, wait, fb := r.settle(ctx, c, model, err, retries)
		release()
		if err != nil && ctx.Err() == nil {
			r.logFailure(c, model, attempt, err, what, wait)
		}
		if fb != nil {
			r.announce(c, *fb)
		}
		switch what {
		case stop:
			return resp, model, err
		case switched:
			retries = 0
		case retry:
			retries++
			if errors.As(err, new(replayed)) {
				wait = 0 // no server to spare: the failure was replayed
			}
			if werr := ctxwait.Sleep(ctx, wait); werr != nil {
				return resp, model, err
			}
		}
	}
}

// acquire returns the participant's current model. A participant failing on
// its primary model with a fallback in reserve makes one attempt at a time;
// release ends the turn.
func (r *roster) acquire(ctx context.Context, m *member) (model string, release func(), err error) {
	r.mu.Lock()
	model, probing := m.model(), m.failures > 0 && m.canFallBack()
	r.mu.Unlock()
	if !probing {
		return model, func() {}, nil
	}
	select {
	case m.probe <- struct{}{}:
	case <-ctx.Done():
		return model, nil, context.Cause(ctx)
	}
	release = func() { <-m.probe }
	r.mu.Lock()
	model, probing = m.model(), m.canFallBack()
	r.mu.Unlock()
	if !probing {
		release()
		release = func() {}
	}
	return model, release, nil
}

// settle counts an attempt's outcome against the participant and says what
// the call does next, with the wait before a retry, and the switch to the
// fallback it made, if any.
func (r *roster) settle(ctx context.Context, c call, model string, err error, retries int) (next, time.Duration, *tree.Fallback) {
	m := c.who
	r.mu.Lock()
	cur := m.model()
	if err == nil {
		if model == cur {
			m.failures = 0
		}
		r.mu.Unlock()
		return stop, 0, nil
	}
	if ctx.Err() != nil {
		r.mu.Unlock()
		return stop, 0, nil
	}
	pe := providers.Classify(err)
	then := pe.Class.Consequence()
	var fb *tree.Fallback
	what, wait := stop, time.Duration(0)
	switch {
	case !then.Retry && !then.FallBack:
	case model != cur:
		// Another call switched the participant while this attempt ran: the
		// outcome is the old model's, and this call goes on with the new one.
		what = switched
	case then.FallBack:
		if m.canFallBack() {
			fb, what = r.fallBack(m, c, unusable(pe)), switched
		}
	default:
		m.failures++
		switch {
		case m.failures >= r.s.maxFailures() && m.canFallBack():
			fb, what = r.fallBack(m, c, failedAttempts(m.failures, pe)), switched
		case m.canFallBack() || retries < m.maxRetries:
			what = retry
			wait = backoff(r.s.retryDelay(), retries, r.s.jitter(), pe.RetryAfter)
		}
	}
	r.mu.Unlock()
	return what, wait, fb
}

// logFailure logs a failed attempt: a warning when it ends the call, a
// routine line when the call goes on.
func (r *roster) logFailure(c call, model string, attempt int, err error, what next, wait time.Duration) {
	args := append([]any{tree.EventKey, tree.AttemptFailed}, r.where(c)...)
	args = append(args, "participant", c.who.p.ID, "step", c.step, "model", model, "attempt", attempt, "err", err)
	switch what {
	case stop:
		r.s.log.Warn("call failed", args...)
	case retry:
		r.s.log.Info("attempt failed; retrying", append(args, "wait", wait)...)
	case switched:
		r.s.log.Info("attempt failed; the fallback takes the call", args...)
	}
}

// switchTo moves the participant of c to its fallback for the rest of the
// topic for reason, unless it has none or uses it already. It reports
// whether it switched.
func (r *roster) switchTo(c call, reason ...tree.Reason) bool {
	r.mu.Lock()
	if !c.who.canFallBack() {
		r.mu.Unlock()
		return false
	}
	fb := r.fallBack(c.who, c, reason...)
	r.mu.Unlock()
	r.announce(c, *fb)
	return true
}

// fallBack switches m to its fallback; r.mu must be held.
func (r *roster) fallBack(m *member, c call, reason ...tree.Reason) *tree.Fallback {
	fb := tree.Fallback{Participant: m.p.ID, From: m.p.Model, To: m.p.Fallback, Node: c.node}
	fb.Reason, fb.Because = r.s.say.said(reason...)
	m.onFallback, m.failures = true, 0
	r.fallbacks = append(r.fallbacks, fb)
	return &fb
}

// announce logs a fallback and emits its event.
func (r *roster) announce(c call, fb tree.Fallback) {
	args := append([]any{tree.EventKey, tree.FellBack}, r.where(c)...)
	r.s.log.Warn("participant falls back for the rest of the "+r.noun(), append(args,
		"participant", fb.Participant, "from", fb.From, "to", fb.To, "reason", fb.Reason)...)
	ev := r.event(tree.FellBack, c)
	ev.Model, ev.Fallback = fb.To, &fb
	r.s.emit(ev)
}

// failedAttempts says why n transient failures switched a participant:
// "2 failed attempts, last 503", naming the last failure by its HTTP status
// or, without one, by its class.
func failedAttempts(n int, last *providers.Error) tree.Reason {
	what := last.Class.String()
	if last.Status != 0 {
		what = fmt.Sprint(last.Status)
	}
	return tree.Because(tree.AttemptsFailed, n, what)
}

// unusable says why a model cannot answer at all: the class of its failure
// and the HTTP status.
func unusable(e *providers.Error) tree.Reason {
	if e.Status != 0 {
		return tree.Because(tree.Unusable, e.Class, e.Status)
	}
	return tree.Because(tree.Unusable, e.Class)
}

// backoff returns the wait before retry n (0 for the first) of a call:
// base·2ⁿ capped at maxBackoff, of which the upper half is jittered by
// jitter ∈ [0,1). A server's Retry-After is a floor. A base of 0 waits only
// as long as the server asks.
func backoff(base time.Duration, n int, jitter float64, retryAfter time.Duration) time.Duration {
	d := max(base, 0)
	for i := 0; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	jitter = min(max(jitter, 0), 1)
	d = d/2 + time.Duration(jitter*float64(d/2))
	return max(d, retryAfter)
}

// do makes one attempt with model, unless ctx has ended, and accounts for it.
func (r *roster) do(ctx context.Context, c call, model string, attempt int, id uint64) (providers.Response, error) {
	if err := ctx.Err(); err != nil {
		return providers.Response{}, err
	}
	s := r.s
	ev := r.event(tree.CallStarted, c)
	ev.Model, ev.Call = model, id
	s.emit(ev)
	req := providers.Request{Participant: c.who.p.ID, Model: model, Messages: c.msgs, JSON: c.json, Attempt: attempt, Call: id,
		Origin: providers.Origin{Topic: r.scope, Node: c.node, Step: string(c.step)}}
	if s.listened {
		req.OnSent = func() { ev := ev; ev.Kind = tree.RequestSent; s.emit(ev) }
		req.OnDone = func() { ev := ev; ev.Kind = tree.RequestDone; s.emit(ev) }
	}
	if c.maxTokens > 0 {
		req.MaxTokens = &c.maxTokens
	}
	if c.schema != nil {
		req.Schema, req.SchemaName = c.schema.body, c.schema.name
	}
	streamed := 0 // tokens reported by CallProgress events
	req.OnText = progress(func(tokens int) {
		streamed += tokens
		p := ev
		p.Kind, p.Usage = tree.CallProgress, tree.Usage{CompletionTokens: tokens}
		s.emit(p)
	})
	s.prefixes.Add(cacheKey(s.cfg, c.who.p.ID, model), promptParts(c.msgs)...)
	resp, err := s.c.Complete(ctx, req)
	if streamed > 0 {
		p := ev
		p.Kind, p.Usage = tree.CallProgress, tree.Usage{CompletionTokens: -streamed}
		s.emit(p)
	}
	if err != nil {
		ev.Kind, ev.Err = tree.CallFailed, err.Error()
		s.emit(ev)
		if ctx.Err() == nil {
			// The one record of a failed attempt: counted in the usage and
			// reported to the progress display alike.
			r.book.add(model, tree.Usage{Failures: 1})
			ev.Kind = tree.AttemptFailed
			s.emit(ev)
		}
		return resp, err
	}
	u := s.account(resp, c.msgs, model)
	r.book.add(model, u)
	ev.Kind, ev.Usage = tree.CallFinished, u
	s.emit(ev)
	return resp, nil
}

// repair sends an unusable answer back to the participant that gave it,
// with the problem, once, and checks the new answer with check. It returns
// the last answer received and the model that gave it; the error is nil when
// that answer passed.
func (r *roster) repair(ctx context.Context, c call, build func(prompts.Repair) ([]prompts.Message, error), last providers.Response, problem error, check func(string) error) (providers.Response, string, error) {
	pm, err := build(prompts.Repair{Previous: last.Text, Error: problem.Error()})
	if err != nil {
		return last, "", fmt.Errorf("answer invalid (%w) and no repair prompt: %w", problem, err)
	}
	c.msgs = append(c.msgs[:len(c.msgs):len(c.msgs)], messages(pm)...)
	resp, model, err := r.call(ctx, c)
	if err != nil {
		return last, model, fmt.Errorf("answer invalid (%w) and the repair call failed: %w", problem, err)
	}
	if err := check(resp.Text); err != nil {
		return resp, model, &invalidAfterRepair{err: err}
	}
	return resp, model, nil
}

// sortedFallbacks returns the fallbacks in participant order; a participant
// falls back at most once per roster.
func (r *roster) sortedFallbacks() []tree.Fallback {
	r.mu.Lock()
	defer r.mu.Unlock()
	order := map[string]int{}
	for i, m := range r.members {
		order[m.p.ID] = i
	}
	out := slices.Clone(r.fallbacks)
	slices.SortStableFunc(out, func(a, b tree.Fallback) int { return order[a.Participant] - order[b.Participant] })
	if out == nil {
		out = []tree.Fallback{}
	}
	return out
}

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

// progressBytes is how much streamed text makes a progress event: about
// 64 tokens.
const progressBytes = 256

// progress turns the bytes of a streamed answer into estimated tokens
// (providers.BytesPerToken a token), reported to report in steps of
// progressBytes.
func progress(report func(tokens int)) func(int) {
	pending := 0
	return func(n int) {
		pending += n
		if pending >= progressBytes {
			t := pending / providers.BytesPerToken
			pending -= t * providers.BytesPerToken
			report(t)
		}
	}
}

// account returns one answered call's usage and counts it against the
// run's budget, in tokens and in money.
func (e *Engine) account(resp providers.Response, msgs []providers.Message, model string) tree.Usage {
	u := e.usage(resp, msgs, model)
	e.spent.Add(int64(u.Total()))
	e.spend(model, u)
	return u
}

// usage is one answered call's usage; tokens the provider did not report
// were estimated, are counted alike (the budget included) and marked. Usage
// that is not plausible is refused, logged the first time, and estimated
// from msgs and the answer like usage not reported.
func (e *Engine) usage(resp providers.Response, msgs []providers.Message, model string) tree.Usage {
	pu := resp.Usage
	if problem := pu.Implausible(); problem != "" {
		e.badUsage.Do(func() {
			e.log.Warn("a provider reported implausible usage; estimated from the text instead (logged once)",
				"model", model, "problem", problem)
		})
		pu = providers.Estimate(msgs, resp.Text, resp.Reasoning)
	}
	return usage(pu)
}

// usage is the usage of one call as the provider's figures pu give it.
func usage(pu providers.Usage) tree.Usage {
	u := tree.Usage{
		PromptTokens: pu.PromptTokens, CompletionTokens: pu.CompletionTokens,
		CachedPromptTokens: pu.CachedPromptTokens, ReasoningTokens: pu.ReasoningTokens,
		ProviderCost: pu.Cost, Calls: 1,
	}
	if pu.Estimated {
		u.EstimatedCalls = 1
	}
	return u
}

// total returns the sum over every model with its cost from pricing (per
// million tokens), or for a model without a price what its provider
// reported.
func (b *usageBook) total(pricing map[string]configs.Price) tree.Usage {
	byModel := b.priced(pricing)
	var sum tree.Usage
	for _, m := range sortedKeys(byModel) {
		sum = sum.Add(byModel[m])
	}
	return sum
}

// priced returns every model's usage with its cost from pricing, or for a
// model without a price what its provider reported; nil when nothing was
// counted.
func (b *usageBook) priced(pricing map[string]configs.Price) map[string]tree.Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.byModel) == 0 {
		return nil
	}
	out := make(map[string]tree.Usage, len(b.byModel))
	for m, u := range b.byModel {
		if p, ok := pricing[m]; ok {
			u.Cost = p.Cost(u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens)
		} else {
			u.Cost = u.ProviderCost
		}
		out[m] = u
	}
	return out
}

// cacheKey names the model at the endpoint the participant's calls go to:
// providers cache per model and endpoint.
func cacheKey(cfg *configs.Config, participant, model string) string {
	return model + "\x00" + cfg.Endpoint(participant).BaseURL
}

// countEligible adds the cache-eligible prompt tokens of the run, per model
// and in total, to run: counted over the whole run, since which of two
// calls alike went first depends on timing but the totals do not. A model's
// count never exceeds the prompt tokens its provider reported.
func (e *Engine) countEligible(run *tree.Run) {
	perModel := map[string]int{}
	for key, n := range e.prefixes.Totals() {
		model, _, _ := strings.Cut(key, "\x00")
		perModel[model] += n / providers.BytesPerToken
	}
	for _, model := range sortedKeys(perModel) {
		u, ok := run.ByModel[model]
		if !ok || u.PromptTokens == 0 {
			continue
		}
		u.CacheEligiblePromptTokens = min(perModel[model], u.PromptTokens)
		run.ByModel[model] = u
		run.Usage.CacheEligiblePromptTokens += u.CacheEligiblePromptTokens
	}
}

// promptParts is the text of msgs in the order a provider reads it, the
// roles included, in pieces, for measuring shared prefixes.
func promptParts(msgs []providers.Message) []string {
	parts := make([]string, 0, 4*len(msgs))
	for _, m := range msgs {
		parts = append(parts, m.Role, "\n", m.Content, "\x00")
	}
	return parts
}
