package journal

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// refuseWrites makes every later insert into table of the journal at path
// fail, as a full disk would.
func refuseWrites(t *testing.T, path, table string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER refuse_` + table + ` BEFORE INSERT ON ` + table + `
BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
}

// TestCloseReportsUnsaved: records and notes whose commit failed are not
// forgotten once their callers logged them: Close reports how many calls and
// notes the journal could not save, with the first failure, and so does
// every later Close.
func TestCloseReportsUnsaved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), ".journal.db")
	j, err := Open(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(ctx, "saved", []byte("v")); err != nil {
		t.Fatal(err)
	}
	refuseWrites(t, path, "calls")
	refuseWrites(t, path, "notes")
	for _, k := range []string{"k1", "k2", "k3"} {
		if err := j.Record(ctx, k, []byte("v")); err == nil {
			t.Fatalf("record %s: saved despite the trigger", k)
		}
	}
	if err := j.SetRunID(ctx, "r1"); err == nil {
		t.Fatal("run id saved despite the trigger")
	}
	err = j.Close()
	var u *UnsavedError
	if !errors.As(err, &u) || u.Calls != 3 || u.Notes != 1 || !strings.Contains(err.Error(), "disk is full") {
		t.Fatalf("Close: %v; want 3 calls and 1 note not saved, with the cause", err)
	}
	if again := j.Close(); again == nil || again.Error() != err.Error() {
		t.Errorf("second Close: %v; want the first one's %v", again, err)
	}
	j, err = Open(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if n, err := j.Len(ctx); err != nil || n != 1 {
		t.Errorf("reopened: %d calls (%v), want the one saved", n, err)
	}
}

// TestCloseWhenAllSaved: a journal that saved everything closes without an
// error, every time.
func TestCloseWhenAllSaved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	j, err := Open(ctx, filepath.Join(t.TempDir(), ".journal.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := j.Close(); err != nil {
			t.Fatalf("close %d: %v", i+1, err)
		}
	}
}

// TestCacheCloseReportsUnsaved: a Cache whose commits failed reports, at
// Close and every later Close, how many calls it could not keep, with the
// first failure.
func TestCacheCloseReportsUnsaved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := OpenCache(ctx, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Record(ctx, "kept", []byte("v")); err != nil {
		t.Fatal(err)
	}
	refuseWrites(t, filepath.Join(dir, CacheFile), "calls")
	for _, k := range []string{"k1", "k2"} {
		if err := c.Record(ctx, k, []byte("v")); err == nil {
			t.Fatalf("record %s: kept despite the trigger", k)
		}
	}
	err = c.Close()
	var u *UnsavedError
	if !errors.As(err, &u) || u.Calls != 2 || u.Notes != 0 || !strings.HasPrefix(err.Error(), "2 calls not saved: ") || !strings.Contains(err.Error(), "disk is full") {
		t.Fatalf("Close: %v; want 2 calls not saved, with the cause", err)
	}
	if again := c.Close(); again == nil || again.Error() != err.Error() {
		t.Errorf("second Close: %v; want the first one's %v", again, err)
	}
}
