package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
			key := callKey(int(n.Add(1)))
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
		if err := j.Record(ctx, callKey(n), answer); err != nil {
			b.Fatal(err)
		}
	}
}

// callKey is a key as a run makes them: the hex SHA-256 of a request and
// its number, so that keys land all over the table as a run's do.
func callKey(n int) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(n)))
	return hex.EncodeToString(sum[:]) + "#0"
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
