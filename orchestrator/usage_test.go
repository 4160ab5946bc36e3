package orchestrator

import (
	"math"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/tree"
)

func TestCost(t *testing.T) {
	t.Parallel()
	u := tree.Usage{PromptTokens: 1_000_000, CachedPromptTokens: 400_000, CompletionTokens: 100_000}
	tests := []struct {
		name  string
		price configs.Price
		want  float64
	}{
		{"cached at its own price", configs.Price{Input: 2, CachedInput: 0.5, Output: 8}, 0.6*2 + 0.4*0.5 + 0.1*8},
		{"cached at the input price when none is given", configs.Price{Input: 2, Output: 8}, 2 + 0.8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := cost(u, tt.price); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("cost = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHonestUsage: answers without usage are estimated from the text,
// counted and marked; cached and reasoning tokens and the provider's cost
// are kept; a model without a price costs what its provider reported.
func TestHonestUsage(t *testing.T) {
	t.Parallel()
	cfg := testConfig(2, "t1")
	cfg.API = configs.API{BaseURL: providertest.MemoryURL, APIKey: "sk-test-secret"}
	cfg.Pricing = map[string]configs.Price{"model-j": {Input: 1, CachedInput: 0.1, Output: 2}}
	cfg.ApplyDefaults()
	s := &script{words: 5}
	srv := providertest.New(t)
	srv.Script(func(c providertest.Call) providertest.Reply {
		r := scripted(s, c)
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
	run, err := New(cfg, client, promptSet(t), Options{}).Run(t.Context())
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
