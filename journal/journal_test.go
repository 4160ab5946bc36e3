package journal

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestJournal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "out", ".journal.db")
	j, err := Open(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := j.Lookup(ctx, "k1"); ok || err != nil {
		t.Fatalf("empty journal: ok %v err %v", ok, err)
	}
	for _, kv := range [][2]string{{"k1", "one"}, {"k2", "two"}, {"k1", "uno"}} {
		if err := j.Record(ctx, kv[0], []byte(kv[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetRunID(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		fresh bool
		want  map[string]string
		n     int
		runID string
	}{
		{"resumed keeps entries", false, map[string]string{"k1": "uno", "k2": "two"}, 2, "r1"},
		{"fresh starts empty", true, map[string]string{}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := Open(ctx, path, tt.fresh)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if n, err := j.Len(ctx); n != tt.n || err != nil {
				t.Errorf("Len = %d, %v; want %d", n, err, tt.n)
			}
			for _, k := range []string{"k1", "k2"} {
				v, ok, err := j.Lookup(ctx, k)
				if err != nil {
					t.Fatal(err)
				}
				if want, has := tt.want[k]; ok != has || string(v) != want {
					t.Errorf("Lookup(%s) = %q, %v; want %q, %v", k, v, ok, want, has)
				}
			}
			if id, ok, err := j.RunID(ctx); id != tt.runID || ok != (tt.runID != "") || err != nil {
				t.Errorf("RunID = %q, %v, %v; want %q", id, ok, err, tt.runID)
			}
		})
	}
}

// TestJournalReadsNotesKeptAmongCalls: a journal written when the run id
// and seed were kept as calls under reserved keys, in a table WITHOUT
// ROWID, still gives them, does not count them as calls, and answers its
// calls from the rowid table they move to.
func TestJournalReadsNotesKeptAmongCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		rows [][2]string
		id   string
	}{
		{"note keys", [][2]string{{"note:run id", "r1"}, {"note:seed", "42"}, {"d#0", "{}"}}, "r1"},
		{"motions key", [][2]string{{"motions:run-id", "r0"}, {"note:seed", "42"}, {"d#0", "{}"}}, "r0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "j.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`CREATE TABLE calls (key TEXT PRIMARY KEY, value BLOB NOT NULL, created_at TEXT NOT NULL DEFAULT '') WITHOUT ROWID`); err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.rows {
				if _, err := db.Exec(`INSERT INTO calls (key, value) VALUES (?, ?)`, r[0], r[1]); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			j, err := Open(ctx, path, false)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			id, _, _ := j.RunID(ctx)
			seed, _, _ := j.Note(ctx, "seed")
			n, _ := j.Len(ctx)
			if id != tt.id || string(seed) != "42" || n != 1 {
				t.Errorf("run id %q, seed note %q, %d calls; want %q, 42, 1", id, seed, n, tt.id)
			}
			if v, ok, _ := j.Lookup(ctx, "d#0"); !ok || string(v) != "{}" {
				t.Errorf("Lookup(d#0) = %q, %v; want {}", v, ok)
			}
			var ddl string
			if err := j.db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'calls'`).Scan(&ddl); err != nil || strings.Contains(ddl, "WITHOUT ROWID") {
				t.Errorf("calls table %q (%v), want a rowid table", ddl, err)
			}
		})
	}
}

// TestRecordConcurrent: records made at once, sharing commits, are each on
// disk when Record returns: a journal reopened finds every one.
func TestRecordConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j, err := Open(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := j.Record(ctx, strconv.Itoa(i), []byte{byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Read through a connection of its own, as a process that follows a
	// killed one would, before this one closes the file.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got int
	if err := db.QueryRow(`SELECT count(*) FROM calls`).Scan(&got); err != nil || got != n {
		t.Errorf("the file holds %d calls (%v), want %d", got, err, n)
	}
	j.Close()
}
