package journal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/internal/regular"
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

// TestLinkRefused: a cache file, a journal or one of their side files that
// is a symbolic link is refused with an error that says so, and what it
// points to is left as it was.
func TestLinkRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := map[string]func(dir string) (io.Closer, error){
		"cache":   func(dir string) (io.Closer, error) { return OpenCache(ctx, dir, 0) },
		"journal": func(dir string) (io.Closer, error) { return Open(ctx, filepath.Join(dir, CacheFile), false) },
	}
	for what, openIn := range open {
		for _, side := range []string{"", "-wal", "-shm"} {
			t.Run(what+" "+CacheFile+side, func(t *testing.T) {
				t.Parallel()
				dir, elsewhere := t.TempDir(), t.TempDir()
				target := filepath.Join(elsewhere, "target")
				if err := os.WriteFile(target, []byte("not yours"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, filepath.Join(dir, CacheFile+side)); err != nil {
					t.Fatal(err)
				}
				c, err := openIn(dir)
				if err == nil {
					c.Close()
					t.Fatal("opened through a symbolic link")
				}
				if !errors.Is(err, regular.ErrSymlink) || !strings.Contains(err.Error(), filepath.Join(dir, CacheFile+side)) {
					t.Errorf("error %q does not name the link as one", err)
				}
				if b, _ := os.ReadFile(target); string(b) != "not yours" {
					t.Errorf("the link's target now holds %q", b)
				}
				if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 {
					t.Errorf("files were made beside the target: %v", entries)
				}
			})
		}
	}
}

// TestDrop: a dropped entry is gone, and the next Record of its key keeps
// the new value, in a cache (which otherwise keeps the first) and in a
// journal, also once reopened.
func TestDrop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type store interface {
		Lookup(ctx context.Context, key string) ([]byte, bool, error)
		Record(ctx context.Context, key string, value []byte) error
		Drop(ctx context.Context, key string) error
		Close() error
	}
	open := map[string]func(dir string) (store, error){
		"cache":   func(dir string) (store, error) { return OpenCache(ctx, dir, 0) },
		"journal": func(dir string) (store, error) { return Open(ctx, filepath.Join(dir, "j.db"), false) },
	}
	for what, openIn := range open {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			s, err := openIn(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Record(ctx, "k", []byte("tampered")); err != nil {
				t.Fatal(err)
			}
			if err := s.Drop(ctx, "k"); err != nil {
				t.Fatal(err)
			}
			if _, ok, _ := s.Lookup(ctx, "k"); ok {
				t.Error("a dropped entry is still there")
			}
			if err := s.Record(ctx, "k", []byte("fresh")); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = openIn(dir); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, ok, err := s.Lookup(ctx, "k"); string(v) != "fresh" || !ok || err != nil {
				t.Errorf("after drop and record: %q, %v, %v; want the fresh value", v, ok, err)
			}
		})
	}
}
