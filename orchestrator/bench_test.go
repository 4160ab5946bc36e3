package orchestrator

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// wideTree scripts 10 nodes over 3 levels: the root splits in three, each
// child in two, and the third level is forced (nothing left disputed).
func wideTree() map[string][]string {
	judge := map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"), "Divergence "+mark("d3"))},
	}
	for i := range 3 {
		id := tree.ChildID(tree.RootID, i)
		judge[id] = []string{splitAnswer("Divergence "+mark(tree.ChildID(id, 0)), "Divergence "+mark(tree.ChildID(id, 1)))}
	}
	return judge
}

// BenchmarkCriticalPath runs 3 topics of 10 nodes over 3 levels with a fixed
// latency per call and reports wall time ÷ the critical-path bound (3 levels ×
// 3 dependent calls × latency), and the CPU time spent per call by the whole
// process (engine, prompts and the fake; the HTTP case adds the client and
// the in-memory server).
//
//	go test ./orchestrator -run '^$' -bench CriticalPath -benchtime 5x
func BenchmarkCriticalPath(b *testing.B) {
	const levels = 3
	for _, bc := range []struct {
		name string
		make func(b *testing.B, cfg *configs.Config, s *script, latency time.Duration) Completer
	}{
		{name: "fake", make: func(_ *testing.B, _ *configs.Config, s *script, latency time.Duration) Completer {
			return completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
				select {
				case <-time.After(latency):
				case <-ctx.Done():
					return providers.Response{}, ctx.Err()
				}
				return s.answer(ctx, r)
			})
		}},
		{name: "http", make: func(b *testing.B, cfg *configs.Config, s *script, latency time.Duration) Completer {
			srv := providertest.New(b, scripted.WithLatency(latency))
			srv.Script(func(c scripted.Call) scripted.Reply {
				participant := "party-a"
				if c.Model == "model-j" {
					participant = "judge"
				}
				resp, _ := s.answer(context.Background(), overWire(participant, c))
				return scripted.Text(resp.Text)
			})
			cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-bench", Timeout: 60_000}
			client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient(), Concurrency: 64})
			if err != nil {
				b.Fatal(err)
			}
			return client
		}},
	} {
		for _, latency := range []time.Duration{20 * time.Millisecond, 50 * time.Millisecond} {
			b.Run(fmt.Sprintf("%s/L=%v", bc.name, latency), func(b *testing.B) {
				benchRun(b, levels, latency, func(cfg *configs.Config, s *script) Completer { return bc.make(b, cfg, s, latency) })
			})
		}
	}
}

// benchRun runs the three topics b.N times and reports the figures.
func benchRun(b *testing.B, levels int, latency time.Duration, makeCompleter func(*configs.Config, *script) Completer) {
	bound := time.Duration(levels*3) * latency
	p := promptSet(b)
	var wall, cpu time.Duration
	calls := 0
	for b.Loop() {
		s := &script{judge: wideTree(), words: 200, tokens: 100}
		cfg := testConfig(levels, "t1", "t2", "t3")
		e := english(cfg, makeCompleter(cfg, s), p, Options{})
		cpu0, start := testkit.CPUTime(), time.Now()
		run, err := e.Run(context.Background())
		wall += time.Since(start)
		cpu += testkit.CPUTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range run.Topics {
			if st := t.Root.Stats(); st.Nodes != 10 || st.Rounds != levels {
				b.Fatalf("topic %s: %d nodes over %d levels", t.ID, st.Nodes, st.Rounds)
			}
		}
		calls += run.Usage.Calls
	}
	n := float64(b.N)
	b.ReportMetric(wall.Seconds()/n/bound.Seconds(), "wall/critical-path")
	b.ReportMetric(float64(cpu.Microseconds())/float64(calls), "cpu-µs/call")
	b.ReportMetric(float64(calls)/n, "calls/op")
}

// fiveNodes scripts 5 nodes over 3 levels: the root splits in two, d1 splits
// in two again, and the third level is forced (nothing left disputed).
func fiveNodes() map[string][]string {
	return map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
		"d1":   {splitAnswer("Divergence "+mark("d1.1"), "Divergence "+mark("d1.2"))},
	}
}

// BenchmarkFallbackDetour runs 2 topics of 5 nodes over 3 levels at 200 ms
// per call, with the seed's fallback settings (maxConsecutiveFailures 2,
// maxRetries 2, retryDelay 2000 ms) and party-c's primary model always
// answering 503 after the same latency, its fallback working. It reports
// wall time ÷ the critical path: 3 levels × 3 dependent calls × latency,
// plus the unavoidable detour at the root position (two failed attempts and
// one backoff, 1000 ms with the jitter fixed at 0).
//
//	go test ./orchestrator -run '^$' -bench FallbackDetour -benchtime 3x
func BenchmarkFallbackDetour(b *testing.B) {
	const (
		levels  = 3
		latency = 200 * time.Millisecond
		backoff = 1000 * time.Millisecond
	)
	bound := time.Duration(levels*3)*latency + 2*latency + backoff
	for _, name := range []string{"fake", "http"} {
		b.Run(name, func(b *testing.B) {
			p := promptSet(b)
			var wall time.Duration
			for b.Loop() {
				s := &script{judge: fiveNodes(), words: 200, tokens: 100}
				cfg := testConfig(levels, "t1", "t2")
				cfg.Debaters[2].Fallback = "model-c2"
				cfg.Fallback = configs.Fallback{MaxConsecutiveFailures: 2, RetryDelay: 2000}
				var c Completer
				if name == "fake" {
					c = completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
						select {
						case <-time.After(latency):
						case <-ctx.Done():
							return providers.Response{}, ctx.Err()
						}
						if r.Model == "model-c" {
							return providers.Response{}, unavailable
						}
						return s.answer(ctx, r)
					})
				} else {
					srv := providertest.New(b, scripted.WithLatency(latency))
					srv.Script(func(call scripted.Call) scripted.Reply {
						if call.Model == "model-c" {
							return scripted.Status(503, "overloaded")
						}
						return scriptReply(s, call)
					})
					cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-bench"}
					cfg.ApplyDefaults()
					// A cap above the 12 calls of the widest level, so that it
					// measures the engine rather than the cap.
					client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient(), Concurrency: 16})
					if err != nil {
						b.Fatal(err)
					}
					c = client
				}
				e := english(cfg, c, p, Options{Jitter: func() float64 { return 0 }})
				start := time.Now()
				run, err := e.Run(context.Background())
				wall += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				for _, t := range run.Topics {
					if st := t.Root.Stats(); st.Nodes != 5 || st.Rounds != levels || st.Failed != 0 || len(t.Fallbacks) != 1 || t.Fallbacks[0].Node != tree.RootID {
						b.Fatalf("topic %s: %+v, fallbacks %+v", t.ID, st, t.Fallbacks)
					}
				}
			}
			b.ReportMetric(wall.Seconds()/float64(b.N)/bound.Seconds(), "wall/critical-path")
			b.ReportMetric(bound.Seconds(), "critical-path-s")
		})
	}
}
