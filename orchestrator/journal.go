package orchestrator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/debatehq/debate/providers"
)

// Journal keeps the results of completed calls so that a resumed run repeats
// none of them. *journal.Journal is one.
type Journal interface {
	Lookup(ctx context.Context, key string) ([]byte, bool, error)
	Record(ctx context.Context, key string, value []byte) error
}

// Journaled is a Completer that answers a request from its journal when the
// same request completed before, and records every call that completes.
// Because a node's prompts are built only from earlier answers, a run that
// resumes with the journal of an interrupted one rebuilds the same requests,
// finds the completed ones, and calls models only for the rest.
type Journaled struct {
	c   Completer
	j   Journal
	log *slog.Logger

	seen  sync.Map // request digest → *atomic.Int64, the calls issued so far
	calls sync.Map // call id → the key of the call, while it is being tried

	replayed atomic.Int64
}

// NewJournaled wraps c with j. Journal errors are logged to log (nil
// discards them) and never fail a call.
func NewJournaled(c Completer, j Journal, log *slog.Logger) *Journaled {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Journaled{c: c, j: j, log: log}
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

// Complete answers r from the journal or from the wrapped Completer.
func (jc *Journaled) Complete(ctx context.Context, r providers.Request) (providers.Response, error) {
	key := jc.key(r)
	if v, ok, err := jc.j.Lookup(ctx, key); err != nil {
		jc.log.Warn("journal lookup failed; calling the model", "err", err)
	} else if ok {
		var resp providers.Response
		if err := json.Unmarshal(v, &resp); err == nil {
			jc.replayed.Add(1)
			jc.done(r)
			return resp, nil
		}
		jc.log.Warn("journal entry unreadable; calling the model", "participant", r.Participant, "model", r.Model)
	}
	resp, err := jc.c.Complete(ctx, r)
	if err != nil {
		return resp, err
	}
	jc.done(r)
	v, err := json.Marshal(resp)
	if err == nil {
		// The answer is in hand: record it even if the run is being stopped.
		err = jc.j.Record(context.WithoutCancel(ctx), key, v)
	}
	if err != nil {
		jc.log.Warn("journal record failed: a resumed run would repeat this call", "err", err)
	}
	return resp, nil
}

// key is a digest of everything that shapes an answer, numbered by how many
// identical calls came before it in this run: identical calls are
// interchangeable, so the n-th one may take the n-th recorded answer. The
// attempts of one call (same r.Call) with the same request share its key, so
// a retry is not counted as one more call; an attempt with another request
// (the participant's fallback model) gets a key of its own, so that a
// resumed run replays the fallback's answer to the fallback alone.
func (jc *Journaled) key(r providers.Request) string {
	b, _ := json.Marshal(r) // every sent field of a request shapes its answer
	sum := sha256.Sum256(b)
	digest := hex.EncodeToString(sum[:])
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

// done forgets the key of a call that has its answer, from the model or
// from the journal.
func (jc *Journaled) done(r providers.Request) {
	jc.calls.Delete(r.Call)
}
