package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
)

// BenchmarkSubmit measures argument writes per second on one file: "serial"
// alternates CLAIMs on one debate from one goroutine; "parallel" writes from
// GOMAXPROCS goroutines and "parallel-32" from 32 goroutines, each on its own
// debate, through the one Store. "parallel-32" also reports the CPU time per
// write, the writes per commit and the 99th percentile of a write's latency.
func BenchmarkSubmit(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		s := openTest(b, Options{Now: time.Now})
		target := mustCreate(b, s, "bench").ID
		roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
		ctx := context.Background()
		b.ResetTimer()
		start := time.Now()
		for i := range b.N {
			res, err := s.Submit(ctx, protocol.Write{DebateID: "bench", Type: protocol.Claim, Role: roles[i%2], TargetID: target,
				Content: "a claim of ordinary length, a sentence or two of text", ClientRequestID: fmt.Sprint("k", i)})
			if err != nil {
				b.Fatal(err)
			}
			target = res.Argument.ID
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "writes/s")
	})
	b.Run("parallel", func(b *testing.B) {
		s := openTest(b, Options{Now: time.Now})
		var next atomic.Int64
		ctx := context.Background()
		b.ResetTimer()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprint("bench", next.Add(1))
			target := mustCreate(b, s, id).ID
			roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
			for i := 0; pb.Next(); i++ {
				res, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Claim, Role: roles[i%2], TargetID: target,
					Content: "a claim of ordinary length, a sentence or two of text", ClientRequestID: fmt.Sprint("k", i)})
				if err != nil {
					b.Error(err)
					return
				}
				target = res.Argument.ID
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "writes/s")
	})
	b.Run("parallel-32", func(b *testing.B) {
		const writers = 32
		s := openTest(b, Options{Now: time.Now})
		targets := make([]string, writers)
		for g := range writers {
			targets[g] = mustCreate(b, s, fmt.Sprint("bench", g)).ID
		}
		var left atomic.Int64
		left.Store(int64(b.N))
		ctx := context.Background()
		commits0 := sqliteOf(s).wr.commits.Load()
		b.ResetTimer()
		start, cpu0 := time.Now(), testkit.CPUTime()
		lat := make([][]time.Duration, writers)
		var wg sync.WaitGroup
		for g := range writers {
			wg.Go(func() {
				id, target := fmt.Sprint("bench", g), targets[g]
				roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
				for i := 0; left.Add(-1) >= 0; i++ {
					t0 := time.Now()
					res, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Claim, Role: roles[i%2], TargetID: target,
						Content: "a claim of ordinary length, a sentence or two of text", ClientRequestID: fmt.Sprint("k", i)})
					if err != nil {
						b.Error(err)
						return
					}
					lat[g] = append(lat[g], time.Since(t0))
					target = res.Argument.ID
				}
			})
		}
		wg.Wait()
		n := float64(b.N)
		b.ReportMetric(n/time.Since(start).Seconds(), "writes/s")
		b.ReportMetric(float64((testkit.CPUTime()-cpu0).Microseconds())/n, "cpu-µs/write")
		b.ReportMetric(n/float64(sqliteOf(s).wr.commits.Load()-commits0), "writes/commit")
		all := slices.Concat(lat...)
		slices.Sort(all)
		b.ReportMetric(float64(all[len(all)*99/100])/float64(time.Millisecond), "p99-ms")
	})
}

// BenchmarkWake measures the latency from the start of a Submit to the return
// of a Wait blocked on that debate, as p50 and p99 in milliseconds: with the
// waiter on the writing Store ("in-process") and on a second Store on the same
// file ("other-store", which only learns of the commit by polling, as another
// process would).
func BenchmarkWake(b *testing.B) {
	for _, tt := range []struct {
		name  string
		other bool
	}{{"in-process", false}, {"other-store", true}} {
		b.Run(tt.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "debate.db")
			w := openAt(b, path, Options{Now: time.Now})
			waiter := w
			if tt.other {
				waiter = openAt(b, path, Options{Now: time.Now})
			}
			after := mustCreate(b, w, "wake").ID
			roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
			lat := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				woke := make(chan time.Time, 1)
				go func(after string) {
					res, err := waiter.Wait(ctx, "wake", roles[(i+1)%2], after, time.Minute)
					if err != nil || !res.HasNew {
						b.Error(res, err)
					}
					woke <- time.Now()
				}(after)
				waitSubscribed(waiter, 1)
				start := time.Now()
				res, err := w.Submit(ctx, protocol.Write{DebateID: "wake", Type: protocol.Claim, Role: roles[i%2], TargetID: after,
					Content: "claim", ClientRequestID: fmt.Sprint("k", i)})
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, (<-woke).Sub(start))
				after = res.Argument.ID
				// Let the waiter's subscription go before the next round counts subscribers.
				waitSubscribers(waiter, func(c int) bool { return c == 0 })
			}
			b.StopTimer()
			slices.Sort(lat)
			ms := func(q float64) float64 {
				return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond)
			}
			b.ReportMetric(ms(0.50), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}

// BenchmarkOldTarget measures a write whose target is not the newest argument
// of a debate 3,000 arguments long, on each backend: "accepted" CLAIMs
// answer the MOTION of a debate where the arbitrator never spoke (each adds
// to it), "newest" CLAIMs then answer the newest argument of that debate
// (the baseline: nothing older is looked at), "refused"
// CLAIMs answer the CLAIM before an INTERVENTION and a RULING at seqs 3 and
// 4 (the ruling rule refuses them). The pipeline must find the arbitrator's
// last word for both.
func BenchmarkOldTarget(b *testing.B) {
	const length = 3000
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := openAt(b, be.db(b), Options{Now: time.Now})
			ctx := context.Background()
			roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
			// grow adds CLAIMs to a debate of have arguments, each answering
			// the one before, the first by roles[first], until it holds
			// length; it returns the role whose turn it is then.
			grow := func(debate, after string, have, first int) protocol.Role {
				for i := 0; have+i < length; i++ {
					after = claim(b, s, debate, roles[(first+i)%2], after, fmt.Sprint("g", i)).ID
				}
				return roles[(first+length-have)%2]
			}

			plain := mustCreate(b, s, "plain")
			turn := grow("plain", plain.ID, 1, 0)
			b.Run("accepted", func(b *testing.B) {
				i := 0
				for b.Loop() {
					claim(b, s, "plain", turn, plain.ID, fmt.Sprint("a", i))
					turn = roles[(slices.Index(roles, turn)+1)%2]
					i++
				}
			})

			b.Run("newest", func(b *testing.B) {
				_, args, err := s.Since(ctx, "plain", 0)
				if err != nil {
					b.Fatal(err)
				}
				after := args[len(args)-1].ID
				i := 0
				for b.Loop() {
					after = claim(b, s, "plain", turn, after, fmt.Sprint("n", i)).ID
					turn = roles[(slices.Index(roles, turn)+1)%2]
					i++
				}
			})

			ruled := mustCreate(b, s, "ruled")
			c2 := claim(b, s, "ruled", protocol.Opponent, ruled.ID, "c2")
			var last string
			for _, typ := range []protocol.ArgType{protocol.Intervention, protocol.Ruling} {
				res, err := s.Submit(ctx, protocol.Write{DebateID: "ruled", Type: typ, Role: protocol.Arbitrator, Content: "rule"})
				if err != nil {
					b.Fatal(err)
				}
				last = res.Argument.ID
			}
			turn = grow("ruled", last, 4, 1)
			b.Run("refused", func(b *testing.B) {
				i := 0
				for b.Loop() {
					_, err := s.Submit(ctx, protocol.Write{DebateID: "ruled", Type: protocol.Claim, Role: turn, TargetID: c2.ID,
						Content: "stale", ClientRequestID: fmt.Sprint("r", i)})
					if protocol.CodeOf(err) != protocol.CodeActionNotAllowed {
						b.Fatalf("a write bypassing the ruling: %v, want %s", err, protocol.CodeActionNotAllowed)
					}
					i++
				}
			})
		})
	}
}

// BenchmarkPostgresSubmit measures writes on PostgreSQL from one goroutine
// and the round trips each makes: "claim" alternates CLAIMs on one debate,
// "resolution" creates a debate, answers its MOTION and resolves it (the
// store adding the closing RULING) and reports the round trips of the
// RESOLUTION alone.
func BenchmarkPostgresSubmit(b *testing.B) {
	rt := &roundTrips{}
	s := openAt(b, pgtest.Database(b), Options{Now: time.Now, tracer: rt})
	ctx := context.Background()
	b.Run("claim", func(b *testing.B) {
		target := mustCreate(b, s, "bench").ID
		roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
		trips, i := 0, 0
		for b.Loop() {
			trips += len(rt.during(func() { target = claim(b, s, "bench", roles[i%2], target, fmt.Sprint("k", i)).ID }))
			i++
		}
		b.ReportMetric(float64(trips)/float64(i), "round-trips/op")
	})
	b.Run("resolution", func(b *testing.B) {
		trips, i := 0, 0
		for b.Loop() {
			b.StopTimer()
			id := fmt.Sprint("r", i)
			c := claim(b, s, id, protocol.Opponent, mustCreate(b, s, id).ID, "c")
			b.StartTimer()
			trips += len(rt.during(func() {
				if _, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Resolution, Role: protocol.Proposer,
					TargetID: c.ID, Content: "done", ClientRequestID: "r"}); err != nil {
					b.Fatal(err)
				}
			}))
			i++
		}
		b.ReportMetric(float64(trips)/float64(i), "round-trips/op")
	})
}
