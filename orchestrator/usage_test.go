package orchestrator

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestHonestUsage: answers without usage are estimated from the text,
// counted and marked; cached and reasoning tokens and the provider's cost
// are kept; a model without a price costs what its provider reported.
func TestHonestUsage(t *testing.T) {
	t.Parallel()
	cfg := testConfig(2, "t1")
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret"}
	cfg.Pricing = map[string]configs.Price{"model-j": {Input: 1, CachedInput: 0.1, Output: 2}}
	cfg.ApplyDefaults()
	s := &script{words: 5}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply {
		r := scriptReply(s, c)
		switch c.Model {
		case "model-j":
			r.PromptTokens, r.CompletionTokens, r.CachedTokens, r.ReasoningTokens = 1000, 100, 600, 40
		case "model-a":
			r.NoUsage = true
		default:
			r.Cost = 0.25
		}
		return r
	})
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := english(cfg, client, promptSet(t), Options{}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	u := run.Usage
	calls := map[string]int{}
	for _, c := range srv.Calls() {
		calls[c.Model]++
	}
	if u.EstimatedCalls != calls["model-a"] || u.EstimatedCalls == 0 || u.Calls != srv.Count() {
		t.Fatalf("usage %+v: want model-a's %d calls estimated, all %d counted", u, calls["model-a"], srv.Count())
	}
	j := calls["model-j"]
	if u.CachedPromptTokens != 600*j || u.ReasoningTokens != 40*j {
		t.Errorf("cached %d, reasoning %d; want 600 and 40 per judge call (%d)", u.CachedPromptTokens, u.ReasoningTokens, j)
	}
	reported := 0.25 * float64(calls["model-b"]+calls["model-c"])
	wantCost := float64(j)*(400*1+600*0.1+100*2)/1e6 + reported
	if math.Abs(u.Cost-wantCost) > 1e-9 || math.Abs(u.ProviderCost-reported) > 1e-9 {
		t.Errorf("cost %v (provider %v), want %v (provider %v)", u.Cost, u.ProviderCost, wantCost, reported)
	}
}

// TestImplausibleUsage: usage no provider can mean (an infinite or
// negative cost, negative or huge token counts) is refused once in the log
// and estimated from the text, so the totals stay finite, run.json encodes
// and the token budget trips after as many calls as with honest usage.
func TestImplausibleUsage(t *testing.T) {
	t.Parallel()
	honest := func(u *providers.Usage) { u.PromptTokens, u.CompletionTokens = 50, 50 }
	calls := func(t *testing.T, set func(*providers.Usage)) (*tree.Run, int, string) {
		t.Helper()
		s := &script{words: 5, judge: map[string][]string{"root": {splitAnswer("Divergence " + mark("d1"))}}}
		var mu sync.Mutex
		n := 0
		c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
			resp, err := s.answer(ctx, r)
			mu.Lock()
			defer mu.Unlock()
			n++
			set(&resp.Usage)
			return resp, err
		})
		cfg := testConfig(3, "t1")
		cfg.Budget.MaxTokens = 300
		var log bytes.Buffer
		run, err := english(cfg, c, promptSet(t), Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}).Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return run, n, log.String()
	}
	_, want, _ := calls(t, honest)
	if want >= 14 {
		t.Fatalf("%d calls with honest usage: the budget never tripped", want)
	}
	for _, tt := range []struct {
		name string
		set  func(*providers.Usage)
	}{
		{"an absurd cost", func(u *providers.Usage) { honest(u); u.Cost = 1e308 }},
		{"an infinite cost", func(u *providers.Usage) { honest(u); u.Cost = math.Inf(1) }},
		{"no number as cost", func(u *providers.Usage) { honest(u); u.Cost = math.NaN() }},
		{"a negative cost", func(u *providers.Usage) { honest(u); u.Cost = -5 }},
		{"negative tokens", func(u *providers.Usage) { u.PromptTokens, u.CompletionTokens = -1_000_000_000, 3 }},
		{"the largest int", func(u *providers.Usage) { u.PromptTokens, u.CompletionTokens = math.MaxInt, 1 }},
		{"negative cached tokens", func(u *providers.Usage) { honest(u); u.CachedPromptTokens = -7 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, n, log := calls(t, tt.set)
			u := run.Usage
			if u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.CachedPromptTokens < 0 || u.Cost != 0 || u.ProviderCost != 0 {
				t.Errorf("usage %+v: want positive estimated tokens and no cost", u)
			}
			if u.EstimatedCalls != u.Calls {
				t.Errorf("%d of %d calls estimated, want all", u.EstimatedCalls, u.Calls)
			}
			if n > want {
				t.Errorf("%d calls, want at most the %d of honest usage: the budget did not trip", n, want)
			}
			if got := strings.Count(log, "implausible usage"); got != 1 {
				t.Errorf("logged %d times, want once:\n%s", got, log)
			}
			if _, err := output.EncodeRun(run); err != nil {
				t.Errorf("run.json: %v", err)
			}
		})
	}
}
