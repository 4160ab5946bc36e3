package batch

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/journal"
)

// TestRunReportsUnsavedJournal: when the journal cannot save the calls the
// run makes (its file refuses every insert, as a full disk does), the run
// still writes its reports, and then reports, as its error, how many calls
// were not saved and that a --resume would make them again.
func TestRunReportsUnsavedJournal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	anyKey := func(string) (string, bool) { return "sk-demo", true }
	cfg, err := configs.Load("../configs/examples/minimal.jsonc", configs.Options{Getenv: anyKey})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Output.Dir = t.TempDir()
	path := filepath.Join(cfg.Output.Dir, JournalFile)
	j, err := journal.Open(ctx, path, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	refuseInserts(t, path)

	res, err := Run(ctx, cfg, Options{Demo: true, Resume: true})
	if res == nil || len(res.Files) == 0 {
		t.Fatalf("no reports written: %v", err)
	}
	calls := strconv.Itoa(res.Run.Usage.Calls)
	for _, want := range []string{
		"the journal " + path + " could not be saved: " + calls + " calls not saved: ",
		"database or disk is full",
		"; a --resume of this run will make again the " + calls + " calls it could not save",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want it to say %q", err, want)
		}
	}
}

// TestRunReportsUnsavedCache: when the call cache cannot keep the calls the
// run makes (its file refuses every insert, as a full disk does), the run
// still writes its reports, and then reports, as its error, that later runs
// will make those calls again.
func TestRunReportsUnsavedCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	anyKey := func(string) (string, bool) { return "sk-demo", true }
	cfg, err := configs.Load("../configs/examples/minimal.jsonc", configs.Options{Getenv: anyKey})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Output.Dir = t.TempDir()
	cfg.Cache.Dir = t.TempDir()
	c, err := journal.OpenCache(ctx, cfg.Cache.Dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	refuseInserts(t, filepath.Join(cfg.Cache.Dir, journal.CacheFile))

	res, err := Run(ctx, cfg, Options{Demo: true})
	if res == nil || len(res.Files) == 0 {
		t.Fatalf("no reports written: %v", err)
	}
	calls := strconv.Itoa(res.Run.Usage.Calls)
	for _, want := range []string{
		"the call cache " + cfg.Cache.Dir + " could not be saved: " + calls + " calls not saved: ",
		"database or disk is full",
		"; later runs will make again the " + calls + " calls this run could not keep in the cache " + cfg.Cache.Dir,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want it to say %q", err, want)
		}
	}
}

// refuseInserts makes every later insert into the calls table of the
// SQLite file at path fail, as a full disk would.
func refuseInserts(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER full BEFORE INSERT ON calls BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
}
