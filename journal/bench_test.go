package journal

import (
	"context"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
)

// BenchmarkJournal is the journal's part in a call, from as many
// goroutines as GOMAXPROCS: a lookup that misses, then the answer recorded
// (on disk before Record returns). The time per call should not grow with
// the procs (run with -cpu 1,2,4): concurrent records share commits.
func BenchmarkJournal(b *testing.B) {
	ctx := context.Background()
	j, answer := benchJournal(b)
	var n atomic.Int64
	b.SetParallelism(16) // calls wait on models, not on cores
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			key := strconv.FormatInt(n.Add(1), 16) + "#0"
			if _, ok, err := j.Lookup(ctx, key); ok || err != nil {
				b.Fatalf("lookup %s: %v %v", key, ok, err)
			}
			if err := j.Record(ctx, key, answer); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRecord is one call recorded at a time, so that every Record is a
// commit of its own: the cost of a commit when calls finish apart.
func BenchmarkRecord(b *testing.B) {
	ctx := context.Background()
	j, answer := benchJournal(b)
	n := 0
	for b.Loop() {
		n++
		if err := j.Record(ctx, strconv.Itoa(n)+"#0", answer); err != nil {
			b.Fatal(err)
		}
	}
}

// benchJournal opens a fresh journal, closed when b ends, and returns it with
// an answer of a typical size to record.
func benchJournal(b *testing.B) (*Journal, []byte) {
	j, err := Open(context.Background(), filepath.Join(b.TempDir(), "j.db"), true)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	return j, []byte(`{"text":"` + string(make([]byte, 2000)) + `","usage":{"prompt_tokens":900}}`)
}
