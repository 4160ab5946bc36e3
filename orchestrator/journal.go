package orchestrator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// Journal keeps the results of completed calls so that a resumed run repeats
// none of them. *journal.Journal is one; *journal.Cache is one shared by
// runs.
type Journal interface {
	Lookup(ctx context.Context, key string) ([]byte, bool, error)
	Record(ctx context.Context, key string, value []byte) error
	// Drop removes what is kept under key, so that a later Record keeps
	// its value.
	Drop(ctx context.Context, key string) error
}

// JournalOptions say where a Journaled finds and keeps answers.
type JournalOptions struct {
	// Journal is the run's own journal, which a resumed run replays; nil:
	// none.
	Journal Journal
	// Cache holds answers across runs: a call it holds is not made again
	// and is counted as cached; nil: none.
	Cache Journal
	// Sent says what a request sends that can change its answer, as the
	// wrapped Completer sends it (a *providers.Client's Sent): the address,
	// the headers the server reads and the body with every sampling field,
	// token limit, response format and extraBody. A call's key is its
	// digest. nil: the request as given is the key.
	Sent func(providers.Request) (providers.Sent, error)
	// Pricing prices the calls answered from the cache.
	Pricing map[string]configs.Price
	// Logger receives journal and cache errors, which never fail a call;
	// nil discards them.
	Logger *slog.Logger
}

// Journaled is a Completer that answers a request from its journal, or its
// cache, when the same request completed before, and records every call
// that completes in both. Because a node's prompts are built only from
// earlier answers, a run that resumes with the journal of an interrupted
// one rebuilds the same requests, finds the completed ones, and calls
// models only for the rest; a later run of an unchanged topic, which draws
// from the same seed, finds every call in the cache, and every attempt
// that failed before one was answered.
type Journaled struct {
	c   Completer
	opt JournalOptions
	log *slog.Logger
	// journal and cache are opt's stores with the names logs give them.
	journal, cache kept

	seen  sync.Map // request digest → *atomic.Int64, the calls issued so far
	calls sync.Map // call id → its *attempts, while it is being tried
	// topics counts the answers per topic: topic → *topicCalls.
	topics sync.Map

	replayed atomic.Int64
}

// topicCalls counts the answers of one topic's calls.
type topicCalls struct {
	fresh  atomic.Int64
	cached usageBook
}

// entry is what the journal and the cache keep of an answer, or of an
// attempt that failed before its call was answered.
type entry struct {
	providers.Response
	// Cached marks, in a run's journal, an answer the run took from the
	// cache, so that a resumed run counts it as cached again.
	Cached bool `json:"cachedCall,omitempty"`
	// Failure is how the attempt failed; nil for an answer.
	Failure *failure `json:"failure,omitempty"`
}

// failure is a failed attempt as kept: what the attempt loop acts on, and
// the words of the error.
type failure struct {
	Class    providers.Class `json:"class"`
	Status   int             `json:"status,omitempty"`
	Model    string          `json:"model,omitempty"`
	Endpoint string          `json:"endpoint,omitempty"`
	Message  string          `json:"message,omitempty"`
}

// newFailure returns err as kept when it is a failure the attempt loop
// goes on after (a retry, a fallback), nil otherwise.
func newFailure(err error) *failure {
	pe := providers.Classify(err)
	if then := pe.Class.Consequence(); !then.Retry && !then.FallBack {
		return nil
	}
	f := &failure{Class: pe.Class, Status: pe.Status, Model: pe.Model, Endpoint: pe.Endpoint}
	if pe.Err != nil {
		f.Message = pe.Err.Error()
	}
	return f
}

// err is the error the failure was, but the wait the server asked for,
// marked as replayed.
func (f failure) err() error {
	return replayed{&providers.Error{Class: f.Class, Status: f.Status, Model: f.Model, Endpoint: f.Endpoint, Err: errors.New(f.Message)}}
}

// replayed is a failure taken from the journal or the cache: no request
// was made, so nothing is waited for before the next attempt.
type replayed struct{ err *providers.Error }

func (r replayed) Error() string { return r.err.Error() }
func (r replayed) Unwrap() error { return r.err }

// NewJournaled wraps c with the stores of opt.
func NewJournaled(c Completer, opt JournalOptions) *Journaled {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Journaled{c: c, opt: opt, log: log, journal: kept{opt.Journal, "journal", false}, cache: kept{opt.Cache, "cache", true}}
}

// kept is a store of answers with the name logs give it; shared marks the
// cache, whose answers other runs made.
type kept struct {
	Journal // nil: none
	what    string
	shared  bool
}

// Adaptations returns what the wrapped Completer adapted to, if it does.
func (jc *Journaled) Adaptations() []providers.Adaptation {
	if a, ok := jc.c.(adapter); ok {
		return a.Adaptations()
	}
	return nil
}

// Replayed returns how many calls were answered from the journal.
func (jc *Journaled) Replayed() int { return int(jc.replayed.Load()) }

// CacheUse returns how many of a topic's answered calls were made afresh
// and which came from the cache, with what they had cost when made.
func (jc *Journaled) CacheUse(topic string) *tree.CacheUse {
	use := &tree.CacheUse{}
	if v, ok := jc.topics.Load(topic); ok {
		tc := v.(*topicCalls)
		use.Fresh = int(tc.fresh.Load())
		use.CachedUsage = tc.cached.total(jc.opt.Pricing)
		use.Cached = use.CachedUsage.Calls
	}
	return use
}

// RunCacheUse returns how many of the run's answered calls, all topics,
// motions and the run's own together, were made afresh and which came from
// the cache.
func (jc *Journaled) RunCacheUse() *tree.CacheUse {
	use := &tree.CacheUse{}
	var cached tree.Usage
	jc.topics.Range(func(_, v any) bool {
		tc := v.(*topicCalls)
		use.Fresh += int(tc.fresh.Load())
		cached = cached.Add(tc.cached.total(jc.opt.Pricing))
		return true
	})
	use.CachedUsage, use.Cached = cached, cached.Calls
	return use
}

// Complete answers r from the journal, the cache or the wrapped Completer.
// An attempt that failed before, in a call that was then answered (a retry
// or the participant's fallback), fails again the same way without a call,
// so that a replayed call takes the path it took.
func (jc *Journaled) Complete(ctx context.Context, r providers.Request) (providers.Response, error) {
	at, err := jc.attempt(r)
	if err != nil {
		jc.log.Warn("call neither journaled nor cached: it has no key", "participant", r.Participant, "model", r.Model, "err", err)
		resp, err := jc.c.Complete(ctx, r)
		if err == nil {
			jc.answered(r, entry{Response: resp})
		}
		return resp, err
	}
	// The run's own journal first, what this run did; then the cache, what
	// other runs did.
	for _, src := range []kept{jc.journal, jc.cache} {
		if f, ok := jc.failure(ctx, src, at.failKey()); ok {
			at.fail(f)
			return providers.Response{}, f.err()
		}
		e, ok := jc.find(ctx, src, at.key, r)
		switch {
		case !ok:
			continue
		case src.shared:
			e.Cached = true
			jc.keepCall(ctx, at, r, e, jc.journal)
		default:
			jc.replayed.Add(1)
		}
		return jc.answered(r, e), nil
	}
	resp, err := jc.c.Complete(ctx, r)
	if err != nil {
		if f := newFailure(err); f != nil {
			at.fail(*f)
		}
		return resp, err
	}
	e := entry{Response: resp}
	jc.keepCall(ctx, at, r, e, jc.journal, jc.cache)
	return jc.answered(r, e), nil
}

// keepCall records in stores the answer e to r and the failed attempts of
// its call before it.
func (jc *Journaled) keepCall(ctx context.Context, at *attempts, r providers.Request, e entry, stores ...kept) {
	for _, store := range stores {
		for _, f := range at.failed {
			jc.keep(ctx, store, f.key, r, entry{Failure: &f.failure})
		}
		jc.keep(ctx, store, at.key, r, e)
	}
}

// failure returns the failed attempt store keeps under key, if any.
func (jc *Journaled) failure(ctx context.Context, store kept, key string) (failure, bool) {
	if store.Journal == nil {
		return failure{}, false
	}
	v, ok, err := store.Lookup(ctx, key)
	var e entry
	if err != nil || !ok || json.Unmarshal(v, &e) != nil || e.Failure == nil {
		return failure{}, false
	}
	return *e.Failure, true
}

// find looks key up in store. An entry that cannot be
// read, or whose usage no call can have (a store edited by hand or by an
// older program), is dropped from store: the call is made afresh, and its
// answer takes the entry's place.
func (jc *Journaled) find(ctx context.Context, store kept, key string, r providers.Request) (entry, bool) {
	var e entry
	if store.Journal == nil {
		return e, false
	}
	v, ok, err := store.Lookup(ctx, key)
	if err != nil {
		jc.log.Warn(store.what+" lookup failed; calling the model", "err", err)
		return e, false
	}
	if !ok {
		return e, false
	}
	problem := "unreadable"
	if err := json.Unmarshal(v, &e); err == nil {
		problem = e.Usage.Implausible()
	}
	if problem == "" {
		return e, true
	}
	jc.log.Warn(store.what+" entry dropped; calling the model", "participant", r.Participant, "model", r.Model, "problem", problem)
	if err := store.Drop(context.WithoutCancel(ctx), key); err != nil {
		jc.log.Warn(store.what+" entry not dropped", "err", err)
	}
	return entry{}, false
}

// keep records e, the answer to r, under key in store.
// Usage no call can have is kept estimated from the text instead, as the
// run counts it, so that what is kept can always be read back.
func (jc *Journaled) keep(ctx context.Context, store kept, key string, r providers.Request, e entry) {
	if store.Journal == nil {
		return
	}
	if e.Usage.Implausible() != "" {
		e.Usage = providers.Estimate(r.Messages, e.Response.Text, e.Response.Reasoning)
	}
	v, err := json.Marshal(e)
	if err == nil {
		// The answer is in hand: record it even if the run is being stopped.
		err = store.Record(context.WithoutCancel(ctx), key, v)
	}
	if err != nil {
		jc.log.Warn(store.what+" record failed: a later run would repeat this call", "err", err)
	}
}

// answered counts the answer e to r and forgets r's attempts.
func (jc *Journaled) answered(r providers.Request, e entry) providers.Response {
	jc.calls.Delete(r.Call)
	v, _ := jc.topics.LoadOrStore(r.Origin.Topic, new(topicCalls))
	tc := v.(*topicCalls)
	if e.Cached {
		tc.cached.add(r.Model, usage(e.Usage))
	} else {
		tc.fresh.Add(1)
	}
	return e.Response
}

// attempts are the attempts of one call so far.
type attempts struct {
	// key is a digest of everything that shapes the answer to the request
	// being tried, numbered by how many identical calls came before it in
	// this run: identical calls are interchangeable, so the n-th one may
	// take the n-th recorded answer.
	key string
	// tries counts the attempts made with key.
	tries int
	// failed are the call's failed attempts, which are kept beside its
	// answer once it has one.
	failed []failedAttempt
}

// failedAttempt is one failed attempt and the key it is kept under.
type failedAttempt struct {
	key string
	failure
}

// failKey is the key of the current attempt's failure.
func (a *attempts) failKey() string { return a.key + "/failed/" + strconv.Itoa(a.tries) }

// fail counts the current attempt as failed with f.
func (a *attempts) fail(f failure) {
	a.failed = append(a.failed, failedAttempt{a.failKey(), f})
}

// attempt returns the attempts of r's call, this one counted. The attempts
// of one call (same r.Call) with the same request share its key, so a retry
// is not counted as one more call; an attempt with another request (the
// participant's fallback model) gets a key of its own, so that a resumed
// run replays the fallback's answer to the fallback alone. Without a call
// id every attempt stands alone.
func (jc *Journaled) attempt(r providers.Request) (*attempts, error) {
	digest, err := jc.digest(r)
	if err != nil {
		return nil, err
	}
	a := &attempts{}
	if v, ok := jc.calls.Load(r.Call); ok && r.Call != 0 {
		a = v.(*attempts) // only the call's own goroutine uses it
		if strings.HasPrefix(a.key, digest+"#") {
			a.tries++
			return a, nil
		}
	}
	n, _ := jc.seen.LoadOrStore(digest, new(atomic.Int64))
	a.key, a.tries = digest+"#"+strconv.FormatInt(n.(*atomic.Int64).Add(1)-1, 10), 0
	if r.Call != 0 {
		jc.calls.Store(r.Call, a)
	}
	return a, nil
}

// keyed is what a call's digest covers: the request as sent, which Sent
// gives, or without Sent the request as given. A wrapper that sends more
// (another kind of participant) adds its part here.
type keyed struct {
	Sent    *providers.Sent    `json:"sent,omitempty"`
	Request *providers.Request `json:"request,omitempty"`
}

// digest is the hex SHA-256 of what shapes the answer to r.
func (jc *Journaled) digest(r providers.Request) (string, error) {
	var k keyed
	if jc.opt.Sent != nil {
		s, err := jc.opt.Sent(r)
		if err != nil {
			return "", err
		}
		k.Sent = &s
	} else {
		k.Request = &r
	}
	// Maps encode in key order: the same call, the same bytes. They are
	// hashed as encoded, without a copy of the whole request; the newline
	// an Encoder ends with is left out, as json.Marshal leaves it. The body
	// as sent follows, as it is: encoding it again would cost as much as
	// the first time.
	h := sha256.New()
	if err := json.NewEncoder(lineless{h}).Encode(k); err != nil {
		return "", fmt.Errorf("the key of a call to %s: %w", r.Model, err)
	}
	if k.Sent != nil {
		h.Write([]byte{0})
		h.Write(k.Sent.Body)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// lineless writes what it is given but a final newline.
type lineless struct{ w io.Writer }

func (l lineless) Write(b []byte) (int, error) {
	if _, err := l.w.Write(bytes.TrimSuffix(b, []byte("\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}
