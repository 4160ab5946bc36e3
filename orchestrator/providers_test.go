package orchestrator

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestReasoningJudgeUnderAnAlias: a judge whose deployment name hides a
// reasoning model refuses max_tokens and a temperature; the run pays one
// refused request per parameter, adapts every later call, converges, and
// lists both adaptations.
func TestReasoningJudgeUnderAnAlias(t *testing.T) {
	t.Parallel()
	cfg := testConfig(2, "t1", "t2")
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret"}
	temp := 0.7
	cfg.Params.Temperature = &temp
	cfg.ApplyDefaults()
	s := &script{judge: map[string][]string{"root": {splitAnswer("Divergence " + mark("d1"))}}, words: 5}
	srv := providertest.New(t)
	srv.Refuse("model-j", scripted.RefuseMaxTokens(), scripted.RefuseTemperature())
	srv.Script(func(c scripted.Call) scripted.Reply { return scriptReply(s, c) })
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := english(cfg, client, promptSet(t), Options{}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range run.Topics {
		if tp.Status == tree.Failed || tp.Usage.Failures != 0 {
			t.Errorf("topic %s: %s with %d failed attempts", tp.ID, tp.Status, tp.Usage.Failures)
		}
	}
	refused, judged := 0, 0
	for _, c := range srv.Calls() {
		if c.Model != "model-j" {
			continue
		}
		judged++
		if c.MaxTokens > 0 || c.Temperature != nil {
			refused++
		}
	}
	if refused != 2 || judged < 4 {
		t.Errorf("%d of %d judge requests refused, want 2: one per parameter", refused, judged)
	}
	var params []string
	for _, a := range run.Adaptations {
		params = append(params, a.Model+" "+a.Param+" → "+a.Change)
	}
	if got := strings.Join(params, "; "); got != "model-j max_tokens → max_completion_tokens; model-j temperature → left out (the model's default)" {
		t.Errorf("run.json adaptations: %s", got)
	}
}

// TestSlowModelBehindAGateway: a model that takes 300 ms to answer behind a
// gateway that answers 524 to any response not started within 100 ms (3 s
// and 1 s, scaled down tenfold). Streamed, as by default, the run
// converges; with api.stream false every call is cut and the node's error
// names the 524.
func TestSlowModelBehindAGateway(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "default", false: "stream false"}[stream], func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t, scripted.WithGateway(100*time.Millisecond), scripted.WithLatency(300*time.Millisecond))
			s := &script{words: 5}
			srv.Script(func(c scripted.Call) scripted.Reply { return scriptReply(s, c) })
			cfg := testConfig(1, "t1")
			cfg.API = configs.API{BaseURL: srv.URL(), APIKey: "sk-test-secret", MaxRetries: new(int)}
			if !stream {
				cfg.API.Stream = &stream
			}
			cfg.Fallback.RetryDelay = 1
			cfg.ApplyDefaults()
			client, err := providers.New(cfg, providers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			run, _ := english(cfg, client, promptSet(t), Options{}).Run(t.Context())
			tp := run.Topics[0]
			if stream {
				if tp.Status != tree.Converged {
					t.Errorf("status %s, want converged; errors %+v", tp.Status, tp.Root.Errors)
				}
				return
			}
			if tp.Status != tree.Failed || len(tp.Root.Errors) == 0 || !strings.Contains(tp.Root.Errors[0].Message, "524") {
				t.Errorf("status %s, errors %+v; want failed, naming the 524", tp.Status, tp.Root.Errors)
			}
		})
	}
}

// TestTokensAsTheyArrive: a streamed answer is reported by CallProgress
// events while it arrives, taken back before its CallFinished, so that the
// events' tokens add up to what the providers reported.
func TestTokensAsTheyArrive(t *testing.T) {
	t.Parallel()
	cfg := testConfig(1, "t1")
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret"}
	cfg.ApplyDefaults()
	s := &script{words: 400}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply { return scriptReply(s, c) })
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []tree.Event
	run, err := english(cfg, client, promptSet(t), Options{Events: func(ev tree.Event) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sum, progress := 0, 0
	open := map[string]int{} // streamed so far, per call
	for _, ev := range events {
		key := ev.Node + "/" + ev.Participant + "/" + string(ev.Step)
		switch ev.Kind {
		case tree.CallProgress:
			progress++
			open[key] += ev.Usage.CompletionTokens
			sum += ev.Usage.Total()
		case tree.CallFinished, tree.CallFailed:
			if open[key] != 0 {
				t.Errorf("%s finished with %d streamed tokens not taken back", key, open[key])
			}
			sum += ev.Usage.Total()
		}
	}
	if progress == 0 {
		t.Error("no CallProgress event for long streamed answers")
	}
	if sum != run.Usage.Total() {
		t.Errorf("the events add up to %d tokens, the run to %d", sum, run.Usage.Total())
	}
}
