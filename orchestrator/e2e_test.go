package orchestrator

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// overHTTP runs cfg against the providertest fake of the chat API, answered by
// the script, through the real providers client (no retries). Calls for
// failing models get a 503.
func overHTTP(t *testing.T, cfg *configs.Config, s *script, failing ...string) (*tree.Run, *providertest.Server) {
	t.Helper()
	participantOf := map[string]string{}
	for _, p := range cfg.Participants() {
		participantOf[p.Model] = p.ID
		if p.Fallback != "" {
			participantOf[p.Fallback] = p.ID
		}
	}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply {
		if slices.Contains(failing, c.Model) {
			return scripted.Status(503, "overloaded")
		}
		resp, err := s.answer(context.Background(), overWire(participantOf[c.Model], c))
		if err != nil {
			return scripted.Status(500, err.Error())
		}
		return scripted.Text(resp.Text)
	})
	return runOn(t, cfg, srv), srv
}

// runOn runs cfg against srv through the real providers client, with no
// retries.
func runOn(t *testing.T, cfg *configs.Config, srv *providertest.Server) *tree.Run {
	t.Helper()
	noRetries := 0
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret", MaxRetries: &noRetries, Timeout: 10_000}
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient(), Concurrency: 16})
	if err != nil {
		t.Fatal(err)
	}
	run, err := english(cfg, client, promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// callsAt counts the fake's calls per node.
func callsAt(srv *providertest.Server) map[string]int {
	out := map[string]int{}
	for _, c := range srv.Calls() {
		msgs := make([]providers.Message, len(c.Messages))
		for i, m := range c.Messages {
			msgs[i] = providers.Message{Role: m.Role, Content: m.Content}
		}
		out[markedNode(msgs)]++
	}
	return out
}

func TestHTTPTree(t *testing.T) {
	run, srv := overHTTP(t, testConfig(3, "t1"), &script{judge: twoBranches(), words: 20})
	root := run.Topics[0].Root
	if got, want := shape(root), []string{"root split", "d1 converged", "d2 split", "d2.1 forced", "d2.2 converged"}; !slices.Equal(got, want) {
		t.Fatalf("shape %q, want %q", got, want)
	}
	want := map[string]int{"root": 7, "d1": 7, "d2": 7, "d2.1": 7, "d2.2": 7}
	if got := callsAt(srv); !maps.Equal(got, want) {
		t.Errorf("calls per node %v, want %v", got, want)
	}
	if v := root.Find("d2.1").Judgment.ForcedVerdicts; len(v) != 1 || v[0].DivergenceID != "d2.1.1" {
		t.Errorf("verdicts %+v", v)
	}
	if u := run.Topics[0].Usage; u.Calls != 35 || u.PromptTokens == 0 || u.CompletionTokens == 0 {
		t.Errorf("usage %+v", u)
	}
	for _, c := range srv.Calls() {
		if !c.Authorized {
			t.Fatal("a call went without the API key")
		}
	}
}

func TestHTTPFallback(t *testing.T) {
	for _, tc := range []struct {
		name, primary, fallback string
		set                     func(cfg *configs.Config, fb string)
	}{
		{name: "debater", primary: "model-c", fallback: "model-c2", set: func(cfg *configs.Config, fb string) { cfg.Debaters[2].Fallback = fb }},
		{name: "judge", primary: "model-j", fallback: "model-j2", set: func(cfg *configs.Config, fb string) { cfg.Reviewer.Fallback = fb }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(2, "t1", "t2")
			tc.set(cfg, tc.fallback)
			s := &script{judge: map[string][]string{
				"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
			}, words: 5}
			run, srv := overHTTP(t, cfg, s, tc.primary)
			// Two topics, each trying the primary exactly maxConsecutiveFailures times.
			if got, want := srv.CountModel(tc.primary), 2*cfg.Fallback.MaxConsecutiveFailures; got != want {
				t.Errorf("primary got %d calls, want %d", got, want)
			}
			for _, top := range run.Topics {
				if len(top.Fallbacks) != 1 || top.Fallbacks[0].To != tc.fallback || top.Status != tree.Converged {
					t.Errorf("%s: status %s, fallbacks %+v", top.ID, top.Status, top.Fallbacks)
				}
				for _, e := range append(top.Root.Errors, top.Root.Find("d1").Errors...) {
					if e.Message == "" || strings.Contains(e.Message, "sk-test-secret") {
						t.Errorf("%s: error message %q", top.ID, e.Message)
					}
				}
			}
		})
	}
}

func TestHTTPRepair(t *testing.T) {
	s := &script{judge: map[string][]string{
		"root": {"They mostly agree.", splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
		"d1":   {"No JSON.", "Still no JSON."},
	}, words: 5}
	run, srv := overHTTP(t, testConfig(2, "t1"), s)
	if got, want := shape(run.Topics[0].Root), []string{"root split", "d1 failed", "d2 converged"}; !slices.Equal(got, want) {
		t.Fatalf("shape %q, want %q", got, want)
	}
	want := map[string]int{"root": 8, "d1": 8, "d2": 7}
	if got := callsAt(srv); !maps.Equal(got, want) {
		t.Errorf("calls per node %v, want %v", got, want)
	}
	for _, c := range srv.Calls() {
		if c.Model == "model-j" && c.ResponseFormat != "" {
			t.Errorf("judge asked for %q without the endpoint switch", c.ResponseFormat)
		}
	}
}
