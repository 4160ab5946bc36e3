package orchestrator

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestFallback: a participant whose primary model always fails is tried
// exactly maxConsecutiveFailures times in a topic, at the root; the same
// call then goes on with the fallback, which answers everything else of the
// topic; every topic starts on the primary again.
func TestFallback(t *testing.T) {
	for _, tc := range []struct {
		name, participant, primary, fallback string
	}{
		{name: "debater", participant: "party-c", primary: "model-c", fallback: "model-c2"},
		{name: "judge", participant: "judge", primary: "model-j", fallback: "model-j2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{
				"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
			}, words: 5}
			s.fail = func(r providers.Request) error {
				model := r.Model
				if model == tc.primary {
					return unavailable
				}
				return nil
			}
			cfg := testConfig(2, "t1", "t2")
			if tc.participant == "judge" {
				cfg.Reviewer.Fallback = tc.fallback
			} else {
				cfg.Debaters[2].Fallback = tc.fallback
			}
			rec := &recorder{}
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, top := range run.Topics {
				calls := func(model string) int {
					return rec.count(tree.CallStarted, func(e tree.Event) bool { return e.Topic == top.ID && e.Model == model })
				}
				if got := calls(tc.primary); got != cfg.Fallback.MaxConsecutiveFailures {
					t.Errorf("%s: primary tried %d times, want %d", top.ID, got, cfg.Fallback.MaxConsecutiveFailures)
				}
				if got, want := shape(top.Root), []string{"root split", "d1 converged", "d2 converged"}; !slices.Equal(got, want) {
					t.Errorf("%s: shape %q, want %q", top.ID, got, want)
				}
				want := []tree.Fallback{{Participant: tc.participant, From: tc.primary, To: tc.fallback, Node: "root", Reason: "2 failed attempts, last 503",
					Because: []tree.Reason{{Code: tree.AttemptsFailed, Args: []string{"2", "503"}}}}}
				if !reflect.DeepEqual(top.Fallbacks, want) {
					t.Errorf("%s: fallbacks %+v, want %+v", top.ID, top.Fallbacks, want)
				}
				for _, id := range []string{"root", "d1", "d2"} {
					n := top.Root.Find(id)
					if got := n.Models[tc.participant]; got != tc.fallback {
						t.Errorf("%s/%s: %s answered with %q, want %q", top.ID, id, tc.participant, got, tc.fallback)
					}
					if len(n.Errors) != 0 {
						t.Errorf("%s/%s: errors %+v, want none: the fallback answered", top.ID, id, n.Errors)
					}
				}
				if top.Usage.Failures != cfg.Fallback.MaxConsecutiveFailures {
					t.Errorf("%s: %d failures counted", top.ID, top.Usage.Failures)
				}
				if got := rec.count(tree.AttemptFailed, func(e tree.Event) bool { return e.Topic == top.ID }); got != top.Usage.Failures {
					t.Errorf("%s: %d failed-attempt events, but the usage counts %d failures", top.ID, got, top.Usage.Failures)
				}
			}
			if got := rec.count(tree.FellBack, func(e tree.Event) bool { return e.Node == "root" }); got != 2 {
				t.Errorf("%d fallback events at root, want 2", got)
			}
		})
	}
}

// TestFallbackNotConfigured: without a fallback model, a failing debater's
// call is tried 1 + api.maxRetries times, then it is left out of the step
// and the others carry on; the node, lacking a debater, is partial and says
// who was missing.
func TestFallbackNotConfigured(t *testing.T) {
	s := &script{words: 5}
	s.fail = func(r providers.Request) error {
		participant := r.Participant
		if participant == "party-b" {
			return unavailable
		}
		return nil
	}
	rec := &recorder{}
	run, err := english(testConfig(2, "t1"), completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root := run.Topics[0].Root
	if root.Status != tree.Partial || len(root.Positions) != 2 || len(root.Rebuttals) != 2 || len(root.Errors) != 1 {
		t.Errorf("root %s, positions %v, rebuttals %v, errors %+v", root.Status, keys(root.Positions), keys(root.Rebuttals), root.Errors)
	}
	if len(root.Missing) != 1 || root.Missing[0].Participant != "party-b" || root.Missing[0].Step != tree.StepPosition {
		t.Errorf("missing %+v, want party-b at the position step", root.Missing)
	}
	if got, want := root.StopReason, "no divergence among the debaters present; missing: Party B"; got != want {
		t.Errorf("stop reason %q, want %q", got, want)
	}
	if got, want := rec.count(tree.CallFailed, nil), 1+configs.DefaultMaxRetries; got != want {
		t.Errorf("%d failed attempts, want %d (no rebuttal asked of a debater without a position)", got, want)
	}
	if got, want := rec.count(tree.AttemptFailed, nil), run.Topics[0].Usage.Failures; got != want || got != 1+configs.DefaultMaxRetries {
		t.Errorf("%d failed-attempt events, %d failures in the usage, want %d of each", got, want, 1+configs.DefaultMaxRetries)
	}
	if len(run.Topics[0].Fallbacks) != 0 {
		t.Errorf("fallbacks %+v", run.Topics[0].Fallbacks)
	}
}

// seedConfig is a config with the seed's defaults (maxConsecutiveFailures 2,
// maxRetries 2, retryDelay 2000 ms) on the fake's in-memory URL, two topics,
// and party-c's primary model backed by a fallback.
func seedConfig() *configs.Config {
	cfg := testConfig(2, "t1", "t2")
	cfg.Fallback = configs.Fallback{}
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret"}
	cfg.Debaters[2].Fallback = "model-c2"
	cfg.ApplyDefaults()
	return cfg
}

// TestSeedFallbackOverHTTP: with the seed's defaults and a debater whose
// primary always fails, the primary is asked exactly twice per topic for a
// 503 (a failed attempt, a backoff, a failed attempt, then the switch) and
// exactly once for a 401 or a 404; the fallback writes that debater's root
// position and rebuttal, the fallback event is at root, and the next topic
// starts on the primary again.
func TestSeedFallbackOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reply    scripted.Reply
		requests int // to the primary, per topic
		reason   string
		waited   time.Duration // backoff waits per topic
	}{
		{"503", scripted.Status(503, "overloaded"), 2, "2 failed attempts, last 503", time.Second},
		{"401", scripted.Status(401, "invalid api key"), 1, "key refused (401)", 0},
		{"404", scripted.Status(404, "the model model-c does not exist"), 1, "model not found or not allowed (404)", 0},
		// What waiting never mends goes to the fallback at once, whatever the status says.
		{"429 quota", scripted.Raw(429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}`),
			1, "quota exhausted (429)", 0},
		{"429 request over the minute's limit", scripted.Raw(429, `{"error":{"message":"Request too large for model-c on tokens per min (TPM): Limit 6000, Requested 9000.","type":"tokens","code":"rate_limit_exceeded"}}`),
			1, "request too large (429)", 0},
		{"413 in plain text", scripted.Raw(413, "length limit exceeded"), 1, "request too large (413)", 0},
		{"400 key for other models", scripted.Raw(400, `{"error":{"message":"key not allowed to access model. This key can only access models=['model-d']. Tried to access model-c"}}`),
			1, "model not found or not allowed (400)", 0},
		{"400 prompt too long", scripted.Raw(400, `{"error":{"message":"The total length of all messages is too long.","type":"too_many_prompt_tokens","code":400}}`),
			1, "prompt too long for the model (400)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := seedConfig()
				if cfg.Fallback.MaxConsecutiveFailures != 2 || *cfg.API.MaxRetries != 2 || cfg.Fallback.RetryDelay != 2000 {
					t.Fatalf("not the seed's defaults: %+v, maxRetries %d", cfg.Fallback, *cfg.API.MaxRetries)
				}
				s := &script{judge: map[string][]string{
					"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
				}, words: 5}
				srv := providertest.New(t)
				srv.Script(func(c scripted.Call) scripted.Reply {
					if c.Model == "model-c" {
						return tc.reply
					}
					return scriptReply(s, c)
				})
				client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
				if err != nil {
					t.Fatal(err)
				}
				rec := &recorder{}
				// Jitter 0: the first backoff from 2000 ms waits its lower half.
				start := time.Now()
				run, err := english(cfg, client, promptSet(t), Options{Events: rec.add, Jitter: func() float64 { return 0 }}).Run(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if got, want := time.Since(start), tc.waited; got != want {
					t.Errorf("run took %v of fake time, want %v of backoff", got, want)
				}
				for _, top := range run.Topics {
					primary := 0
					for _, c := range srv.Calls() {
						if c.Model == "model-c" && c.Contains("Topic "+top.ID+" ") {
							primary++
						}
					}
					if primary != tc.requests {
						t.Errorf("%s: %d requests to the primary, want %d", top.ID, primary, tc.requests)
					}
					want := []tree.Fallback{{Participant: "party-c", From: "model-c", To: "model-c2", Node: "root", Reason: tc.reason}}
					if !reflect.DeepEqual(inWords(top.Fallbacks), want) {
						t.Errorf("%s: fallbacks %+v, want %+v", top.ID, top.Fallbacks, want)
					}
					root := top.Root
					if root.Models["party-c"] != "model-c2" || root.Positions["party-c"] == "" || root.Rebuttals["party-c"] == "" || len(root.Errors) != 0 {
						t.Errorf("%s: root model %q, position %q, rebuttal %q, errors %+v; want both written by the fallback",
							top.ID, root.Models["party-c"], root.Positions["party-c"], root.Rebuttals["party-c"], root.Errors)
					}
					if top.Status != tree.Converged {
						t.Errorf("%s: %s", top.ID, top.Status)
					}
				}
				at := func(e tree.Event) bool {
					return e.Node == "root" && e.Participant == "party-c" && e.Step == tree.StepPosition
				}
				if got := rec.count(tree.FellBack, at); got != 2 {
					t.Errorf("%d fallback events at the root position, want one per topic", got)
				}
			})
		})
	}
}

// scriptReply answers a fake's call with the script, as an in-process
// completer would.
func scriptReply(s *script, c scripted.Call) scripted.Reply {
	participant := map[string]string{"model-a": "party-a", "model-b": "party-b", "model-c": "party-c", "model-c2": "party-c", "model-j": "judge", "model-j2": "judge"}[c.Model]
	resp, err := s.answer(context.Background(), overWire(participant, c))
	if err != nil {
		return scripted.Status(500, err.Error())
	}
	return scripted.Text(resp.Text)
}

func keys(m map[string]string) []string { return sortedKeys(m) }

// inWords returns fallbacks without their codes, to compare their words.
func inWords(fbs []tree.Fallback) []tree.Fallback {
	out := slices.Clone(fbs)
	for i := range out {
		out[i].Because = nil
	}
	return out
}
