package journal

import (
	"bytes"
	"context"
	"strconv"
	"sync"
	"testing"
)

// TestCacheDropsOldestFirst: past its bound a cache keeps its newest
// entries, within the bound, and drops the oldest.
func TestCacheDropsOldestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name     string
		maxBytes int64
		kept     int // of 10 entries of 100 bytes (key included)
	}{
		{"unbounded", 0, 10},
		{"room for all", 1000, 10},
		{"room for three and a half", 350, 3}, // over it, down to 315 bytes
		{"room for nine and a half", 950, 8},  // over it, down to 855 bytes
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := OpenCache(ctx, t.TempDir(), tt.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for i := range 10 {
				if err := c.Record(ctx, "k"+strconv.Itoa(i), bytes.Repeat([]byte{'v'}, 98)); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 10 {
				_, ok, err := c.Lookup(ctx, "k"+strconv.Itoa(i))
				if want := i >= 10-tt.kept; ok != want || err != nil {
					t.Errorf("entry %d kept: %v (%v), want %v", i, ok, err, want)
				}
			}
		})
	}
}

// TestCacheSharedByTwo: two caches on one folder, as two runs at once,
// record the same and other calls concurrently without an error, and the
// first answer recorded for a call is the one both find.
func TestCacheSharedByTwo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	var caches [2]*Cache
	for i := range caches {
		c, err := OpenCache(ctx, dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		caches[i] = c
	}
	var wg sync.WaitGroup
	for i, c := range caches {
		for n := range 50 {
			wg.Go(func() {
				v := []byte(`{"text":"answer ` + strconv.Itoa(n) + `"}`)
				if err := c.Record(ctx, "k"+strconv.Itoa(n), v); err != nil {
					t.Errorf("cache %d: %v", i, err)
				}
			})
		}
	}
	wg.Wait()
	for n := range 50 {
		want := `{"text":"answer ` + strconv.Itoa(n) + `"}`
		for i, c := range caches {
			if v, ok, err := c.Lookup(ctx, "k"+strconv.Itoa(n)); !ok || err != nil || string(v) != want {
				t.Errorf("cache %d: entry %d = %q, %v, %v", i, n, v, ok, err)
			}
		}
	}
}
