package orchestrator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
}

// JournalOptions say where a Journaled finds and keeps answers.
type JournalOptions struct {
	// Journal is the run's own journal, which a resumed run replays; nil:
	// none.
	Journal Journal
	// Cache holds answers across runs: a call it holds is not made again
	// and is counted as cached; nil: none.
	Cache Journal
	// Endpoint gives the endpoint a participant's calls go to: its address
	// and what it adds to each request are part of a call's key. nil: the
	// request alone is.
	Endpoint func(participant string) configs.API
	// Agent gives what the answer of a call a coding agent makes depends on
	// besides the request (its kind, arguments, model and the state of the
	// repository it reads), "" for a call to a model; it is part of the
	// call's key. nil: nothing.
	Agent func(r providers.Request) string
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
// models only for the rest; a run of an unchanged topic with a fixed seed
// finds every call in the cache.
type Journaled struct {
	c   Completer
	opt JournalOptions
	log *slog.Logger

	seen  sync.Map // request digest → *atomic.Int64, the calls issued so far
	calls sync.Map // call id → the key of the call, while it is being tried
	// topics counts the answers per topic: topic → *topicCalls.
	topics sync.Map

	replayed atomic.Int64
}

// topicCalls counts the answers of one topic's calls.
type topicCalls struct {
	fresh  atomic.Int64
	cached usageBook
}

// entry is what the journal and the cache keep of an answer.
type entry struct {
	providers.Response
	// Cached marks, in a run's journal, an answer the run took from the
	// cache, so that a resumed run counts it as cached again.
	Cached bool `json:"cachedCall,omitempty"`
}

// NewJournaled wraps c with the stores of opt.
func NewJournaled(c Completer, opt JournalOptions) *Journaled {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Journaled{c: c, opt: opt, log: log}
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

// Complete answers r from the journal, the cache or the wrapped Completer.
func (jc *Journaled) Complete(ctx context.Context, r providers.Request) (providers.Response, error) {
	key := jc.key(r)
	if e, ok := jc.find(ctx, jc.opt.Journal, "journal", key, r); ok {
		jc.replayed.Add(1)
		return jc.answered(r, e), nil
	}
	if e, ok := jc.find(ctx, jc.opt.Cache, "cache", key, r); ok {
		e.Cached = true
		jc.keep(ctx, jc.opt.Journal, "journal", key, e)
		return jc.answered(r, e), nil
	}
	resp, err := jc.c.Complete(ctx, r)
	if err != nil {
		return resp, err
	}
	e := entry{Response: resp}
	jc.keep(ctx, jc.opt.Journal, "journal", key, e)
	jc.keep(ctx, jc.opt.Cache, "cache", key, e)
	return jc.answered(r, e), nil
}

// find looks key up in store (named what in logs).
func (jc *Journaled) find(ctx context.Context, store Journal, what, key string, r providers.Request) (entry, bool) {
	var e entry
	if store == nil {
		return e, false
	}
	v, ok, err := store.Lookup(ctx, key)
	if err != nil {
		jc.log.Warn(what+" lookup failed; calling the model", "err", err)
		return e, false
	}
	if !ok {
		return e, false
	}
	if err := json.Unmarshal(v, &e); err != nil {
		jc.log.Warn(what+" entry unreadable; calling the model", "participant", r.Participant, "model", r.Model)
		return e, false
	}
	return e, true
}

// keep records e under key in store (named what in logs).
func (jc *Journaled) keep(ctx context.Context, store Journal, what, key string, e entry) {
	if store == nil {
		return
	}
	v, err := json.Marshal(e)
	if err == nil {
		// The answer is in hand: record it even if the run is being stopped.
		err = store.Record(context.WithoutCancel(ctx), key, v)
	}
	if err != nil {
		jc.log.Warn(what+" record failed: a later run would repeat this call", "err", err)
	}
}

// answered counts the answer e to r and forgets r's key.
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

// key is a digest of everything that shapes an answer, numbered by how many
// identical calls came before it in this run: identical calls are
// interchangeable, so the n-th one may take the n-th recorded answer. The
// attempts of one call (same r.Call) with the same request share its key, so
// a retry is not counted as one more call; an attempt with another request
// (the participant's fallback model) gets a key of its own, so that a
// resumed run replays the fallback's answer to the fallback alone.
func (jc *Journaled) key(r providers.Request) string {
	digest := jc.digest(r)
	if k, ok := jc.calls.Load(r.Call); ok && strings.HasPrefix(k.(string), digest+"#") {
		return k.(string)
	}
	n, _ := jc.seen.LoadOrStore(digest, new(atomic.Int64))
	k := digest + "#" + strconv.FormatInt(n.(*atomic.Int64).Add(1)-1, 10)
	if r.Call != 0 {
		jc.calls.Store(r.Call, k)
	}
	return k
}

// keyed is what a call's digest covers: the request as sent and what the
// endpoint adds to it or answers by. The key, timeouts, retries, the
// stream flag and headers that do not change the answer are left out.
type keyed struct {
	BaseURL        string            `json:"baseURL,omitempty"`
	ResponseFormat string            `json:"responseFormat,omitempty"`
	ExtraBody      map[string]any    `json:"extraBody,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	Agent          string            `json:"agent,omitempty"`
	Request        providers.Request `json:"request"`
}

// digest is the hex SHA-256 of what shapes the answer to r.
func (jc *Journaled) digest(r providers.Request) string {
	k := keyed{Request: r} // every sent field of a request shapes its answer
	if jc.opt.Endpoint != nil {
		api := jc.opt.Endpoint(r.Participant)
		k.BaseURL, k.ResponseFormat, k.ExtraBody = api.BaseURL, api.ResponseFormat, api.ExtraBody
		for name, v := range api.Headers {
			if answerHeader(name) {
				if k.Headers == nil {
					k.Headers = map[string]string{}
				}
				k.Headers[strings.ToLower(name)] = v
			}
		}
	}
	if jc.opt.Agent != nil {
		k.Agent = jc.opt.Agent(r)
	}
	// Maps encode in key order: the same call, the same bytes. They are
	// hashed as encoded, without a copy of the whole request; the newline
	// an Encoder ends with is left out, as json.Marshal leaves it.
	h := sha256.New()
	_ = json.NewEncoder(lineless{h}).Encode(k) // a request always encodes
	return hex.EncodeToString(h.Sum(nil))
}

// lineless writes what it is given but a final newline.
type lineless struct{ w io.Writer }

func (l lineless) Write(b []byte) (int, error) {
	if _, err := l.w.Write(bytes.TrimSuffix(b, []byte("\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// answerHeader reports whether a configured header may change the answer:
// every header but credentials and the caller's name (OpenRouter's
// HTTP-Referer and X-Title, User-Agent).
func answerHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "http-referer", "referer", "x-title", "user-agent":
		return false
	}
	for _, secret := range []string{"auth", "key", "token", "secret", "cookie"} {
		if strings.Contains(n, secret) {
			return false
		}
	}
	return true
}
