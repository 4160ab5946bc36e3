package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// memJournal is an in-memory Journal.
type memJournal struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (j *memJournal) Lookup(_ context.Context, k string) ([]byte, bool, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v, ok := j.m[k]
	return v, ok, nil
}

func (j *memJournal) Record(_ context.Context, k string, v []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.m[k] = v
	return nil
}

func (j *memJournal) Drop(_ context.Context, k string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.m, k)
	return nil
}

// Note and SetNote keep notes beside the calls, under keys no call has.
func (j *memJournal) Note(ctx context.Context, name string) ([]byte, bool, error) {
	return j.Lookup(ctx, "note:"+name)
}

func (j *memJournal) SetNote(ctx context.Context, name string, v []byte) error {
	return j.Record(ctx, "note:"+name, v)
}

func TestJournaledReplaysCompletedCalls(t *testing.T) {
	j := &memJournal{m: map[string][]byte{}}
	var calls int
	fail := map[string]bool{"flaky": true}
	inner := completer(func(_ context.Context, r providers.Request) (providers.Response, error) {
		calls++
		if fail[r.Model] {
			return providers.Response{}, errors.New("503")
		}
		return providers.Response{Text: r.Model + " answer " + r.Messages[0].Content, Model: r.Model, Usage: providers.Usage{PromptTokens: 7}}, nil
	})
	req := func(model, text string) providers.Request {
		return providers.Request{Participant: "a", Model: model, Messages: []providers.Message{{Role: "user", Content: text}}}
	}
	first := []providers.Request{req("m", "x"), req("m", "y"), req("m", "x"), req("flaky", "z")}

	run := func() ([]providers.Response, *Journaled) {
		jc := NewJournaled(inner, JournalOptions{Journal: j})
		var out []providers.Response
		for _, r := range first {
			resp, _ := jc.Complete(context.Background(), r)
			out = append(out, resp)
		}
		return out, jc
	}
	got1, jc1 := run()
	if calls != 4 || jc1.Replayed() != 0 {
		t.Fatalf("first run: %d calls, %d replayed; want 4, 0", calls, jc1.Replayed())
	}
	if len(j.m) != 3 {
		t.Errorf("journal holds %d entries, want 3 (two identical requests kept apart, the failure not kept)", len(j.m))
	}

	calls = 0
	delete(fail, "flaky")
	got2, jc2 := run()
	if calls != 1 || jc2.Replayed() != 3 {
		t.Errorf("resumed run: %d calls, %d replayed; want 1 (only the call that had failed), 3", calls, jc2.Replayed())
	}
	for i := range 3 {
		a, _ := json.Marshal(got1[i])
		b, _ := json.Marshal(got2[i])
		if string(a) != string(b) {
			t.Errorf("answer %d differs after resuming: %s vs %s", i, a, b)
		}
	}
}

// TestResumedRunEqualsUninterrupted: a run cancelled part-way, resumed with
// its journal, makes only the missing calls and ends with the same tree as a
// run that was never interrupted.
func TestResumedRunEqualsUninterrupted(t *testing.T) {
	cfg := testConfig(3, "t1", "t2")
	newScript := func() *script { return &script{judge: twoBranches(), words: 10} }

	whole := newScript()
	want, err := english(cfg, completer(whole.answer), promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total := len(whole.requests)

	j := &memJournal{m: map[string][]byte{}}
	ctx, cancel := context.WithCancel(context.Background())
	cut := newScript()
	var once sync.Once
	var n int
	var mu sync.Mutex
	stopping := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		mu.Lock()
		n++
		if n == total/2 {
			once.Do(cancel)
		}
		mu.Unlock()
		if ctx.Err() != nil {
			return providers.Response{}, ctx.Err()
		}
		return cut.answer(ctx, r)
	})
	if _, err := english(cfg, NewJournaled(stopping, JournalOptions{Journal: j}), promptSet(t), Options{}).Run(ctx); err == nil {
		t.Fatal("the cancelled run reported no error")
	}
	done := len(j.m)
	if done == 0 || done >= total {
		t.Fatalf("the interrupted run completed %d of %d calls; the test needs a partial run", done, total)
	}

	rest := newScript()
	jc := NewJournaled(completer(rest.answer), JournalOptions{Journal: j})
	got, err := english(cfg, jc, promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rest.requests) != total-done || jc.Replayed() != done {
		t.Errorf("resumed run made %d calls and replayed %d; want %d and %d", len(rest.requests), jc.Replayed(), total-done, done)
	}
	sameTopics(t, want, got)
}

// sameTopics fails t for every topic of got that differs from want's in
// anything but its times, which differ between any two runs.
func sameTopics(t *testing.T, want, got *tree.Run) {
	t.Helper()
	for i := range want.Topics {
		for _, tp := range []*tree.Topic{&want.Topics[i], &got.Topics[i]} {
			tp.StartedAt, tp.FinishedAt = time.Time{}, time.Time{}
		}
		a, _ := json.Marshal(want.Topics[i])
		b, _ := json.Marshal(got.Topics[i])
		if string(a) != string(b) {
			t.Errorf("topic %s differs:\n%s\n%s", want.Topics[i].ID, a, b)
		}
	}
}

// TestJournaledRetryIsNotANewCall: the attempts of one call share its journal
// entry, so a call answered on its second attempt is replayed by a resumed
// run, its first attempt failing again as it did without a call, and an
// identical later call keeps its own entry.
func TestJournaledRetryIsNotANewCall(t *testing.T) {
	j := &memJournal{m: map[string][]byte{}}
	var calls int
	inner := completer(func(_ context.Context, r providers.Request) (providers.Response, error) {
		calls++
		if r.Call == 1 && r.Attempt == 1 {
			return providers.Response{}, unavailable
		}
		return providers.Response{Text: "answer of call " + string(rune('0'+r.Call))}, nil
	})
	ask := func(jc *Journaled, call uint64, attempt int) (string, error) {
		r := providers.Request{Participant: "a", Model: "m", Messages: []providers.Message{{Role: "user", Content: "same"}}, Call: call, Attempt: attempt}
		resp, err := jc.Complete(context.Background(), r)
		return resp.Text, err
	}
	jc := NewJournaled(inner, JournalOptions{Journal: j})
	_, failed := ask(jc, 1, 1)
	first, _ := ask(jc, 1, 2)
	second, _ := ask(jc, 2, 1)
	if calls != 3 || failed == nil || first != "answer of call 1" || second != "answer of call 2" {
		t.Fatalf("first run: %d calls, answers %v, %q, %q", calls, failed, first, second)
	}
	calls = 0
	jc = NewJournaled(inner, JournalOptions{Journal: j})
	_, again := ask(jc, 7, 1)
	a, _ := ask(jc, 7, 2)
	b, _ := ask(jc, 8, 1)
	if pe := providers.Classify(again); calls != 0 || pe.Class != providers.ClassServerError || pe.Status != 503 || a != first || b != second {
		t.Errorf("resumed run: %d calls, first attempt %v, answers %q, %q; want 0 calls, the 503 again and the recorded answers in order", calls, again, a, b)
	}
	jc.calls.Range(func(call, key any) bool {
		t.Errorf("answered call %v still holds key %v", call, key)
		return true
	})
}

// TestJournaledFallbackKeepsItsOwnAnswer: when a call's primary model fails
// and its fallback answers the same call, a resumed run replays that answer
// to the fallback's attempt only; the primary's attempt fails again as it
// did, without a call, so the resumed run switches as the first one did.
func TestJournaledFallbackKeepsItsOwnAnswer(t *testing.T) {
	j := &memJournal{m: map[string][]byte{}}
	var asked []string
	inner := completer(func(_ context.Context, r providers.Request) (providers.Response, error) {
		asked = append(asked, r.Model)
		if r.Model == "primary" {
			return providers.Response{}, unavailable
		}
		return providers.Response{Text: "answer of " + r.Model, Model: r.Model}, nil
	})
	ask := func(jc *Journaled, call uint64, attempt int, model string) (string, error) {
		r := providers.Request{Participant: "a", Model: model, Messages: []providers.Message{{Role: "user", Content: "q"}}, Call: call, Attempt: attempt}
		resp, err := jc.Complete(context.Background(), r)
		return resp.Text, err
	}
	for run := range 2 {
		asked = nil
		jc := NewJournaled(inner, JournalOptions{Journal: j})
		if _, err := ask(jc, 1, 1, "primary"); err == nil {
			t.Fatalf("run %d: the primary's attempt was answered; want its failure", run)
		}
		if got, err := ask(jc, 1, 2, "fallback"); err != nil || got != "answer of fallback" {
			t.Fatalf("run %d: fallback's attempt = %q, %v", run, got, err)
		}
		want := []string{"primary", "fallback"}
		if run == 1 {
			want = nil // the primary's failure and the fallback's answer come from the journal
		}
		if !slices.Equal(asked, want) {
			t.Errorf("run %d: models called %v, want %v", run, asked, want)
		}
	}
}

// TestResumedRunKeepsFallbacks: a run in which a debater's primary model
// always fails, resumed from its complete journal, makes no call: the
// primary's attempts fail again as recorded, the fallback's answers are
// replayed, and the run ends with the same topics: the same fallbacks,
// models, failures and answers.
func TestResumedRunKeepsFallbacks(t *testing.T) {
	cfg := testConfig(2, "t1", "t2")
	cfg.Debaters[2].Fallback = "model-c-fallback"
	failing := func(s *script, calls *int) Completer {
		var mu sync.Mutex
		return completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
			mu.Lock()
			*calls++
			mu.Unlock()
			if r.Model == "model-c" {
				return providers.Response{}, unavailable
			}
			return s.answer(ctx, r)
		})
	}
	j := &memJournal{m: map[string][]byte{}}
	var first, again int
	want, err := english(cfg, NewJournaled(failing(&script{judge: twoBranches(), words: 5}, &first), JournalOptions{Journal: j}), promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Topics[0].Fallbacks) != 1 {
		t.Fatalf("the first run has fallbacks %+v; the test needs one per topic", want.Topics[0].Fallbacks)
	}
	jc := NewJournaled(failing(&script{judge: twoBranches(), words: 5}, &again), JournalOptions{Journal: j})
	got, err := english(cfg, jc, promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The primary's failing attempts, two per topic, are replayed as failures.
	if again != 0 || jc.Replayed() != first-4 {
		t.Errorf("resumed run: %d attempts reached the models and %d were replayed; want 0 and %d", again, jc.Replayed(), first-4)
	}
	sameTopics(t, want, got)
}

// TestJournaledKeyIsTheRequest: a call's key changes with everything that
// can change its answer — the model, the messages, every sampling field and
// token limit wherever it is set, the response format and schema, the
// endpoint's address, extraBody (tools, top_p …) and the headers the server
// reads — and not with the key, the stream flag, timeouts, caps, cache
// breakpoints or the caller's name, so that a run after such a change reuses
// no answer and one after a new key reuses them all.
func TestJournaledKeyIsTheRequest(t *testing.T) {
	t.Parallel()
	temp := func(f float64) *float64 { return &f }
	base := func() (*configs.Config, providers.Request) {
		cfg := &configs.Config{
			API: configs.API{
				BaseURL: "https://x.example/v1", APIKey: "sk-one", Timeout: 1000,
				ExtraBody: map[string]any{"reasoning_effort": "low"},
				Headers:   map[string]string{"anthropic-beta": "b1", "Authorization": "Bearer one", "X-Title": "debate"},
			},
			Debaters: []configs.Participant{{ID: "a", Model: "m"}},
			Params:   configs.Params{MaxTokensPerResponse: 4000, Temperature: temp(0.2), Concurrency: 1},
		}
		r := providers.Request{Participant: "a", Model: "m", JSON: true, Schema: json.RawMessage(`{"type":"object"}`),
			Messages: []providers.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "q", Breaks: []int{1}}}}
		return cfg, r
	}
	tests := []struct {
		name    string
		change  func(cfg *configs.Config, r *providers.Request)
		changed bool
	}{
		{"nothing", func(*configs.Config, *providers.Request) {}, false},
		{"model", func(_ *configs.Config, r *providers.Request) { r.Model = "m2" }, true},
		{"messages", func(_ *configs.Config, r *providers.Request) { r.Messages = r.Messages[:1] }, true},
		{"params.temperature", func(c *configs.Config, _ *providers.Request) { c.Params.Temperature = temp(0.9) }, true},
		{"params.temperature unset", func(c *configs.Config, _ *providers.Request) { c.Params.Temperature = nil }, true},
		{"participant temperature", func(c *configs.Config, _ *providers.Request) { c.Debaters[0].Temperature = temp(0) }, true},
		{"params.maxTokensPerResponse", func(c *configs.Config, _ *providers.Request) { c.Params.MaxTokensPerResponse = 100 }, true},
		{"participant maxTokens", func(c *configs.Config, _ *providers.Request) { c.Debaters[0].MaxTokens = 100 }, true},
		{"the call's own token limit", func(_ *configs.Config, r *providers.Request) { n := 8000; r.MaxTokens = &n }, true},
		{"top_p", func(c *configs.Config, _ *providers.Request) { c.API.ExtraBody["top_p"] = 0.5 }, true},
		{"seed", func(c *configs.Config, _ *providers.Request) { c.API.ExtraBody["seed"] = 7 }, true},
		{"tools", func(c *configs.Config, _ *providers.Request) {
			c.API.ExtraBody["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "f"}}}
		}, true},
		{"extraBody", func(c *configs.Config, _ *providers.Request) { c.API.ExtraBody["reasoning_effort"] = "high" }, true},
		{"response format", func(c *configs.Config, _ *providers.Request) { c.API.ResponseFormat = "json_object" }, true},
		{"schema", func(c *configs.Config, r *providers.Request) {
			c.API.ResponseFormat, r.Schema = "json_schema", json.RawMessage(`{"type":"array"}`)
		}, true},
		{"endpoint", func(c *configs.Config, _ *providers.Request) { c.API.BaseURL = "https://y.example/v1" }, true},
		{"participant's endpoint", func(c *configs.Config, _ *providers.Request) {
			c.Debaters[0].API = &configs.API{BaseURL: "https://y.example/v1"}
		}, true},
		{"answer header", func(c *configs.Config, _ *providers.Request) { c.API.Headers["anthropic-beta"] = "b2" }, true},
		{"api key", func(c *configs.Config, _ *providers.Request) { c.API.APIKey = "sk-two" }, false},
		{"authorization header", func(c *configs.Config, _ *providers.Request) { c.API.Headers["Authorization"] = "Bearer two" }, false},
		{"caller's name", func(c *configs.Config, _ *providers.Request) { c.API.Headers["HTTP-Referer"] = "x" }, false},
		{"stream and timeout", func(c *configs.Config, _ *providers.Request) { off := false; c.API.Stream, c.API.Timeout = &off, 5 }, false},
		{"cache breakpoints", func(c *configs.Config, _ *providers.Request) { on := true; c.API.CacheControl = &on }, false},
		{"caps and retries", func(c *configs.Config, _ *providers.Request) {
			n := 9
			c.API.MaxRetries, c.API.MaxConcurrent, c.Params.Concurrency = &n, 2, 4
		}, false},
		{"the call's place and attempt", func(_ *configs.Config, r *providers.Request) {
			r.Attempt, r.Origin = 3, providers.Origin{Topic: "t", Node: "root", Step: "position"}
		}, false},
	}
	keyOf := func(t *testing.T, cfg *configs.Config, r providers.Request) string {
		client, err := providers.New(cfg, providers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewJournaled(nil, JournalOptions{Sent: client.Sent}).attempt(r)
		if err != nil {
			t.Fatal(err)
		}
		return a.key
	}
	cfg, r := base()
	want := keyOf(t, cfg, r)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, r := base()
			tt.change(cfg, &r)
			if got := keyOf(t, cfg, r); (got != want) != tt.changed {
				t.Errorf("key changed: %v, want %v", got != want, tt.changed)
			}
		})
	}
}

// BenchmarkDigest measures the key of one call with a prompt of about 8 KB:
// of the request as the client sends it, and of the request as given.
func BenchmarkDigest(b *testing.B) {
	temp := 0.2
	cfg := &configs.Config{
		API:      configs.API{BaseURL: "https://x.example/v1", APIKey: "sk", Timeout: 1000, ExtraBody: map[string]any{"top_p": 0.9}},
		Debaters: []configs.Participant{{ID: "a", Model: "m"}},
		Params:   configs.Params{MaxTokensPerResponse: 4000, Temperature: &temp, Concurrency: 1},
	}
	client, err := providers.New(cfg, providers.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r := providers.Request{Participant: "a", Model: "m", Messages: []providers.Message{
		{Role: "system", Content: strings.Repeat("You are a careful debater. ", 40)},
		{Role: "user", Content: strings.Repeat("The position of another party, quoted \"as is\".\n", 150)},
	}}
	for _, bc := range []struct {
		name string
		opt  JournalOptions
	}{{"as sent", JournalOptions{Sent: client.Sent}}, {"as given", JournalOptions{}}} {
		b.Run(bc.name, func(b *testing.B) {
			jc := NewJournaled(nil, bc.opt)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jc.digest(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReplayedFailureWaitsForNothing: the failed attempts a resumed run
// replays are followed by no backoff: no server is there to spare.
func TestReplayedFailureWaitsForNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(1, "t1")
		cfg.Debaters[2].Fallback = "model-c-fallback"
		cfg.Fallback.RetryDelay = 10_000
		s := &script{judge: twoBranches(), words: 5}
		failing := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
			if r.Model == "model-c" {
				return providers.Response{}, unavailable
			}
			return s.answer(ctx, r)
		})
		j := &memJournal{m: map[string][]byte{}}
		start := time.Now()
		if _, err := english(cfg, NewJournaled(failing, JournalOptions{Journal: j}), promptSet(t), Options{}).Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		if time.Since(start) == 0 {
			t.Fatal("the first run waited for nothing; the test needs its backoff")
		}
		start = time.Now()
		if _, err := english(cfg, NewJournaled(failing, JournalOptions{Journal: j}), promptSet(t), Options{}).Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the resumed run waited %v", d)
		}
	})
}

// TestJournaledDropsImplausibleEntries: an entry of the journal or the
// cache whose usage no call can have, or that cannot be read, is dropped:
// the call is made, and its answer takes the entry's place.
func TestJournaledDropsImplausibleEntries(t *testing.T) {
	t.Parallel()
	r := providers.Request{Participant: "a", Model: "m", Messages: []providers.Message{{Role: "user", Content: "q"}}, Call: 1, Attempt: 1}
	for _, tampered := range []string{
		`{"Text":"forged","Usage":{"PromptTokens":-2000000000}}`,
		`{"Text":"forged","Usage":{"Cost":-1000000}}`,
		`{"Text":"forged","Usage":{"CompletionTokens":99999999999}}`,
		`not json`,
	} {
		for _, store := range []string{"journal", "cache"} {
			t.Run(store+" "+tampered, func(t *testing.T) {
				t.Parallel()
				j := &memJournal{m: map[string][]byte{}}
				opt := JournalOptions{Journal: j}
				if store == "cache" {
					opt = JournalOptions{Cache: j}
				}
				calls := 0
				jc := NewJournaled(completer(func(context.Context, providers.Request) (providers.Response, error) {
					calls++
					return providers.Response{Text: "fresh", Usage: providers.Usage{PromptTokens: 3}}, nil
				}), opt)
				a, err := NewJournaled(nil, JournalOptions{}).attempt(r)
				if err != nil {
					t.Fatal(err)
				}
				j.m[a.key] = []byte(tampered)
				resp, err := jc.Complete(context.Background(), r)
				if err != nil || resp.Text != "fresh" || calls != 1 {
					t.Errorf("answer %q (%v) after %d calls; want the fresh one after 1", resp.Text, err, calls)
				}
				var kept entry
				if err := json.Unmarshal(j.m[a.key], &kept); err != nil || kept.Text != "fresh" {
					t.Errorf("the %s holds %s; want the fresh answer", store, j.m[a.key])
				}
				if use := jc.RunCacheUse(); use.Cached != 0 || use.CachedUsage.PromptTokens != 0 {
					t.Errorf("cache use %+v counts the tampered entry", use)
				}
			})
		}
	}
}

// TestJournalBeforeCache: what the run's own journal holds for an attempt
// wins over what another run left in the cache: the journal's answer over
// the cache's failure of the same attempt.
func TestJournalBeforeCache(t *testing.T) {
	t.Parallel()
	r := providers.Request{Participant: "a", Model: "m", Messages: []providers.Message{{Role: "user", Content: "q"}}, Call: 1, Attempt: 1}
	a, err := NewJournaled(nil, JournalOptions{}).attempt(r)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := json.Marshal(entry{Response: providers.Response{Text: "the journal's"}})
	failed, _ := json.Marshal(entry{Failure: &failure{Class: providers.ClassServerError, Status: 503}})
	j := &memJournal{m: map[string][]byte{a.key: answer}}
	c := &memJournal{m: map[string][]byte{a.failKey(): failed}}
	jc := NewJournaled(completer(func(context.Context, providers.Request) (providers.Response, error) {
		t.Error("a model was called")
		return providers.Response{}, unavailable
	}), JournalOptions{Journal: j, Cache: c})
	if resp, err := jc.Complete(context.Background(), r); err != nil || resp.Text != "the journal's" {
		t.Errorf("answer %q, %v; want the journal's", resp.Text, err)
	}
}
