package orchestrator

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
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
			srv := providertest.New(b, providertest.WithLatency(latency))
			srv.Script(func(c providertest.Call) providertest.Reply {
				r := providers.Request{Participant: "party-a", Model: c.Model}
				if c.Model == "model-j" {
					r.Participant = "judge"
				}
				for _, m := range c.Messages {
					r.Messages = append(r.Messages, providers.Message{Role: m.Role, Content: m.Content})
				}
				resp, _ := s.answer(context.Background(), r)
				return providertest.Text(resp.Text)
			})
			cfg.API = configs.API{BaseURL: providertest.MemoryURL, APIKey: "sk-bench"}
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
		e := New(cfg, makeCompleter(cfg, s), p, Options{})
		cpu0, start := cpuTime(), time.Now()
		run, err := e.Run(context.Background())
		wall += time.Since(start)
		cpu += cpuTime() - cpu0
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

// cpuTime is the CPU time (user + system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
