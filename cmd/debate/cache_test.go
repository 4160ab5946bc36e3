package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/journal"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// twoTopics is the extra topic of the cache tests' configs.
const twoTopics = `, {"id": "t2", "title": "Second question"}`

// cacheRun runs cfgPath into out with the call cache in cache and seed 7,
// and returns its run.json.
func cacheRun(t *testing.T, cfgPath, out, cache string) (*tree.Run, result) {
	t.Helper()
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--output", out, "--cache", cache, "--seed", "7")
	if r.code != exitOK {
		t.Fatalf("run into %s: exit %d\n%s", out, r.code, r.stderr)
	}
	return readRun(t, filepath.Join(out, "run.json")), r
}

// TestCacheMakesARepeatFree: the same config run again with the same cache
// and seed makes no model call and reports the same debates, its calls
// counted as cached with the tokens they had cost; a topic whose annotation
// changed is the only one whose calls are made afresh.
func TestCacheMakesARepeatFree(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, twoTopics)
	base, cache := filepath.Dir(cfgPath), filepath.Join(filepath.Dir(cfgPath), "cache")

	first, _ := cacheRun(t, cfgPath, filepath.Join(base, "first"), cache)
	made := srv.Count()
	second, r := cacheRun(t, cfgPath, filepath.Join(base, "second"), cache)
	if n := srv.Count() - made; n != 0 {
		t.Errorf("the repeated run made %d model calls, want 0", n)
	}
	if !strings.Contains(r.stderr, "fresh calls per topic: t1 0 of") {
		t.Errorf("the summary does not say that no call was fresh:\n%s", r.stderr)
	}
	for i := range first.Topics {
		a, b := first.Topics[i], second.Topics[i]
		if a.Cache == nil || b.Cache == nil || a.Cache.Cached != 0 || b.Cache.Fresh != 0 || b.Cache.Cached != a.Cache.Fresh ||
			b.Cache.CachedUsage.Total() != a.Usage.Total() || b.Cache.CachedUsage.Total() == 0 {
			t.Errorf("topic %s: cache use %+v then %+v; want every call fresh, then every call cached with its tokens (%d)", a.ID, a.Cache, b.Cache, a.Usage.Total())
		}
		// Times and the cache's counts differ between the runs; nothing else may.
		a.StartedAt, a.FinishedAt, a.Cache = b.StartedAt, b.FinishedAt, b.Cache
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		if string(x) != string(y) {
			t.Errorf("topic %s from the cache differs from the run that made its calls:\n%s\n%s", a.ID, x, y)
		}
	}

	changed, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(changed), "note one", "note two", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _ := cacheRun(t, cfgPath, filepath.Join(base, "third"), cache)
	// Only t1's prompts that show the annotation change; the others may
	// still come from the cache.
	if t1, t2 := third.Topics[0].Cache, third.Topics[1].Cache; t1.Fresh == 0 || t2.Fresh != 0 || t2.Cached == 0 {
		t.Errorf("after t1's annotation changed: t1 %+v, t2 %+v; want fresh calls in t1 alone", t1, t2)
	}
}

// TestCacheSharedByTwoRuns: two runs at once with one cache folder both
// finish, and every entry of the cache is a whole answer.
func TestCacheSharedByTwoRuns(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, twoTopics)
	base, cache := filepath.Dir(cfgPath), filepath.Join(filepath.Dir(cfgPath), "cache")
	var wg sync.WaitGroup
	for _, out := range []string{"one", "two"} {
		wg.Go(func() { cacheRun(t, cfgPath, filepath.Join(base, out), cache) })
	}
	wg.Wait()

	db, err := sql.Open("sqlite", filepath.Join(cache, journal.CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity check: %q, %v", check, err)
	}
	rows, err := db.Query(`SELECT key, value FROM calls`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var key string
		var v []byte
		if err := rows.Scan(&key, &v); err != nil {
			t.Fatal(err)
		}
		var answer struct{ Text string }
		if err := json.Unmarshal(v, &answer); err != nil || answer.Text == "" {
			t.Errorf("entry %s is not a whole answer: %q", key, v)
		}
		n++
	}
	if n == 0 {
		t.Error("the cache holds nothing")
	}
}

// TestResumeAfterEndpointChange: --resume after the endpoint or its
// extraBody changed makes every call again, at the endpoint now
// configured, instead of reusing the answers of the old one.
func TestResumeAfterEndpointChange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(cfg string, x, y *providertest.Server) string
	}{
		{"endpoint", func(cfg string, x, y *providertest.Server) string { return strings.ReplaceAll(cfg, x.URL(), y.URL()) }},
		{"extraBody", func(cfg string, _, _ *providertest.Server) string {
			return strings.Replace(cfg, `"maxRetries": 0,`, `"maxRetries": 0, "extraBody": {"reasoning_effort": "high"},`, 1)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x, y := providertest.New(t), providertest.New(t)
			scriptJudges(x)
			scriptJudges(y)
			cfgPath := writeConfig(t, x, 2, "")
			vars := map[string]string{"TEST_API_KEY": testKey}
			if r := invoke(t, vars, "run", "-c", cfgPath); r.code != exitOK {
				t.Fatalf("first run: exit %d\n%s", r.code, r.stderr)
			}
			total := x.Count()
			b, err := os.ReadFile(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfgPath, []byte(tt.change(string(b), x, y)), 0o644); err != nil {
				t.Fatal(err)
			}
			if r := invoke(t, vars, "run", "-c", cfgPath, "--resume"); r.code != exitOK {
				t.Fatalf("resumed run: exit %d\n%s", r.code, r.stderr)
			}
			if made := x.Count() + y.Count() - total; made != total {
				t.Errorf("the resumed run made %d calls, want all %d again", made, total)
			}
		})
	}
}

// TestRunOverCorruptJournal: a run without --resume over a journal it
// cannot read starts afresh and keeps the file; with --resume it stops and
// names the file.
func TestRunOverCorruptJournal(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, "")
	out := filepath.Join(filepath.Dir(cfgPath), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, ".debate-journal.db")
	corrupt := []byte(strings.Repeat("not a database ", 512))
	vars := map[string]string{"TEST_API_KEY": testKey}

	if err := os.WriteFile(path, corrupt, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := invoke(t, vars, "run", "-c", cfgPath, "--resume"); r.code == exitOK || !strings.Contains(r.stderr, path) {
		t.Errorf("--resume over a corrupt journal: exit %d, want a failure naming %s:\n%s", r.code, path, r.stderr)
	}
	r := invoke(t, vars, "run", "-c", cfgPath)
	if r.code != exitOK || !strings.Contains(r.stderr, "cannot read") || !strings.Contains(r.stderr, "starts afresh") {
		t.Errorf("a run over a corrupt journal: exit %d, says:\n%s", r.code, r.stderr)
	}
	kept, _ := filepath.Glob(filepath.Join(out, ".debate-journal.*.db"))
	if len(kept) != 1 {
		t.Fatalf("kept journals: %q, want the corrupt one", kept)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != string(corrupt) {
		t.Error("the kept file is not the corrupt journal")
	}
}

// editConfig rewrites the config at path with edit.
func editConfig(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCacheKeyCoversSampling: after a run at temperature 0.2 and 4000
// tokens an answer, a run of the same config at another temperature or
// token limit, with the same cache and seed, makes every call again.
func TestCacheKeyCoversSampling(t *testing.T) {
	t.Parallel()
	for _, params := range []string{`"temperature": 0.9, "maxTokensPerResponse": 4000`, `"temperature": 0.2, "maxTokensPerResponse": 100`} {
		t.Run(params, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			scriptJudges(srv)
			cfgPath := writeConfig(t, srv, 2, "")
			setParams := func(p string) func(string) string {
				return func(cfg string) string {
					return regexp.MustCompile(`"params": \{(("temperature"|"maxTokensPerResponse")[^,]*, )*`).ReplaceAllString(cfg, `"params": {`+p+`, `)
				}
			}
			editConfig(t, cfgPath, setParams(`"temperature": 0.2, "maxTokensPerResponse": 4000`))
			base, cache := filepath.Dir(cfgPath), filepath.Join(filepath.Dir(cfgPath), "cache")
			cacheRun(t, cfgPath, filepath.Join(base, "first"), cache)
			made := srv.Count()
			editConfig(t, cfgPath, setParams(params))
			cacheRun(t, cfgPath, filepath.Join(base, "second"), cache)
			if n := srv.Count() - made; n != made {
				t.Errorf("with %s the run made %d of its %d calls; want all", params, n, made)
			}
		})
	}
}

// TestCacheEntriesValidated: cache entries edited to claim usage no call
// can have (−2e9 prompt tokens, a cost of −1e6) are dropped on read: the
// run makes those calls afresh, counts nothing from the edited entries,
// and its fresh answers take their place, so that a third run makes no
// call.
func TestCacheEntriesValidated(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, "")
	base, cache := filepath.Dir(cfgPath), filepath.Join(filepath.Dir(cfgPath), "cache")
	cacheRun(t, cfgPath, filepath.Join(base, "first"), cache)
	made := srv.Count()

	db, err := sql.Open("sqlite", filepath.Join(cache, journal.CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE calls SET value = CASE seq % 2
		WHEN 0 THEN json_set(CAST(value AS TEXT), '$.Usage.PromptTokens', -2000000000)
		ELSE json_set(CAST(value AS TEXT), '$.Usage.Cost', -1e6) END`)
	if n, _ := res.RowsAffected(); err != nil || n != int64(made) {
		t.Fatalf("tampered with %d entries (%v), want %d", n, err, made)
	}
	db.Close()

	second, r := cacheRun(t, cfgPath, filepath.Join(base, "second"), cache)
	if n := srv.Count() - made; n != made {
		t.Errorf("over tampered entries the run made %d of its %d calls; want all", n, made)
	}
	if !strings.Contains(r.stderr, "cache entry dropped") {
		t.Errorf("the run does not say that it dropped entries:\n%s", r.stderr)
	}
	for _, tp := range second.Topics {
		if c := tp.Cache; c == nil || c.Cached != 0 || c.CachedUsage.PromptTokens != 0 || c.CachedUsage.ProviderCost != 0 {
			t.Errorf("topic %s counts tampered entries: %+v", tp.ID, c)
		}
	}
	cacheRun(t, cfgPath, filepath.Join(base, "third"), cache)
	if n := srv.Count() - 2*made; n != 0 {
		t.Errorf("the run after the fresh answers were kept made %d calls, want 0", n)
	}
}

// nanCost answers as judgesReply does, in one JSON body whose usage gives
// its cost as "NaN", as a provider did.
func nanCost(c scripted.Call) scripted.Reply {
	text, _ := json.Marshal(judgesReply(c).Text)
	return scripted.Raw(200, `{"id":"x","object":"chat.completion","model":"`+c.Model+`","choices":[{"index":0,"message":{"role":"assistant","content":`+
		string(text)+`},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,"cost":"NaN"}}`)
}

// TestNaNCostCached: a provider's usage.cost of "NaN" is estimated and
// marked, never breaks the journal or the cache: a run of the same config
// with the same cache makes no call, nor does --resume of the finished run
// without the cache.
func TestNaNCostCached(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Script(nanCost)
	cfgPath := writeConfig(t, srv, 2, "")
	editConfig(t, cfgPath, func(s string) string {
		return strings.Replace(s, `"maxRetries": 0,`, `"maxRetries": 0, "stream": false,`, 1)
	})
	base, cache := filepath.Dir(cfgPath), filepath.Join(filepath.Dir(cfgPath), "cache")
	first, r := cacheRun(t, cfgPath, filepath.Join(base, "first"), cache)
	made := srv.Count()
	if strings.Contains(r.stderr, "record failed") || !strings.Contains(r.stderr, "usage no call can have") {
		t.Errorf("the journal or the cache failed, or the usage was not flagged:\n%s", r.stderr)
	}
	if u := first.Usage; u.EstimatedCalls != u.Calls || u.ProviderCost != 0 {
		t.Errorf("usage %+v: want every call estimated, no cost taken", u)
	}
	cacheRun(t, cfgPath, filepath.Join(base, "second"), cache)
	if n := srv.Count() - made; n != 0 {
		t.Errorf("the same run with the same cache made %d calls, want 0", n)
	}
	vars := map[string]string{"TEST_API_KEY": testKey}
	if r := invoke(t, vars, "run", "-c", cfgPath, "--output", filepath.Join(base, "first"), "--seed", "7", "--resume", "--no-cache"); r.code != exitOK {
		t.Fatalf("--resume: exit %d\n%s", r.code, r.stderr)
	}
	if n := srv.Count() - made; n != 0 {
		t.Errorf("--resume of the finished run made %d calls, want 0", n)
	}
}

// TestCacheFileLinkRefused: a calls.db that is a symbolic link stops the
// run with an error naming it; the file it points to is left as it was.
func TestCacheFileLinkRefused(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, "")
	cache, target := filepath.Join(filepath.Dir(cfgPath), "cache"), filepath.Join(t.TempDir(), "elsewhere.db")
	if err := os.WriteFile(target, []byte("someone else's"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(cache, journal.CacheFile)); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--cache", cache)
	if r.code == exitOK || !strings.Contains(r.stderr, "symbolic link") || !strings.Contains(r.stderr, journal.CacheFile) {
		t.Errorf("exit %d; want a failure naming the link:\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(target); string(b) != "someone else's" {
		t.Errorf("the link's target now holds %q", b)
	}
	if srv.Count() != 0 {
		t.Errorf("the refused run made %d calls", srv.Count())
	}
}
