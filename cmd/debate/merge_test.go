package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// writeShardConfig writes a config of three topics and two motions, all
// served by the fake, and returns its path.
func writeShardConfig(t *testing.T, srv *providertest.Server) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte("# Plan\n1. Retry with backoff.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `{
  "api": {"baseURL": "` + srv.URL() + `", "apiKey": "${TEST_API_KEY}", "maxRetries": 0, "timeout": 10000},
  "debaters": [{"id": "a", "model": "m-a"}, {"id": "b", "model": "m-b"}, {"id": "c", "model": "m-c", "fallback": "m-c2"}],
  "reviewer": {"id": "judge", "model": "m-judge"},
  "params": {"maxRounds": 2, "blind": false, "seed": 5},
  "topics": [
    {"id": "t1", "title": "First question", "annotations": ["note one"]},
    {"id": "t2", "title": "Second question"},
    {"id": "t3", "title": "Third question", "coreQuestions": ["Why?"]},
  ],
  "protocol": {"proposer": {"model": "m-proposer"}, "opponent": {"model": "m-opponent"},
               "arbitrator": {"model": "m-arbitrator"}, "maxTurns": 1},
  "motions": [
    {"id": "m1", "title": "Retry webhooks", "motion": "Adopt the plan.", "documents": ["plan.md"]},
    {"id": "m2", "title": "Cap retries", "motion": "Cap them at six hours."},
  ],
  "output": {"dir": "out", "format": ["markdown", "html"]},
}`
	path := filepath.Join(dir, "debate.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scriptShards answers every call from its content alone, so that a run
// gets the same answers however its topics and motions are split.
func scriptShards(srv *providertest.Server) {
	scriptJudges(srv)
	srv.ReplyTo("m-opponent", scripted.Text("**C1**: retries duplicate deliveries."))
	srv.ReplyTo("m-proposer", scripted.Fenced(map[string]string{"action": "appeal", "content": "Decide C1: 1. keys; 2. accept."}))
	srv.ReplyTo("m-arbitrator", scripted.Fenced(map[string]any{"close": true, "content": "Option 1."}))
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// perPlay are the fields that differ between two plays of one config:
	// the times, and a motion's debate id, "<motion id>-<run id>", since a
	// run id is drawn afresh for every run (and every shard).
	perPlay = []string{"startedAt", "finishedAt", "createdAt", "updatedAt", "time", "debateId"}
	// perSlice are the fields each shard counts over its own calls alone, so
	// that a slice may have none where the whole run has some: the
	// cache-eligible prompt tokens.
	perSlice = []string{"cacheEligiblePromptTokens"}
)

// comparable returns run.json as generic JSON with what differs between two
// plays of the same config replaced: the perPlay fields by "<field>", the
// perSlice fields left out, and the
// random ids the debate database gives arguments and documents by "<id N>",
// numbered in order of first appearance so that references between them are
// still compared.
func comparable(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				switch {
				case slices.Contains(perSlice, k):
					delete(x, k)
					continue
				case slices.Contains(perPlay, k):
					x[k] = "<" + k + ">"
					continue
				}
				x[k] = walk(x[k])
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case string:
			return uuidRE.ReplaceAllStringFunc(x, func(u string) string {
				if _, ok := ids[u]; !ok {
					ids[u] = fmt.Sprintf("<id %d>", len(ids)+1)
				}
				return ids[u]
			})
		}
		return v
	}
	return walk(v)
}

// files lists the files of a run folder, but for the resume journal.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), batch.JournalFile) || d.Name() == output.LockFile {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		out = append(out, rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// TestShardMergeEqualsUnsharded plays a config of three topics and two
// motions whole, then as --shard 1/2 and --shard 2/2 as two CI jobs would
// (separate folders and debate databases), and merges the two folders: the
// merged run.json is the whole run's, every field of it, apart from times and
// the random ids of the debate database; the same files are written.
func TestShardMergeEqualsUnsharded(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptShards(srv)
	cfgPath := writeShardConfig(t, srv)
	work := t.TempDir()
	out := filepath.Join(work, "out")

	r := invoke(t, motionEnv(filepath.Join(work, "whole.db")), "run", "-c", cfgPath, "--output", out)
	if r.code != exitOK {
		t.Fatalf("whole run: exit %d\n%s", r.code, r.stderr)
	}
	want, wantFiles := comparable(t, filepath.Join(out, "run.json")), files(t, out)
	wholeCalls := srv.Count()
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}

	slices := map[int]string{1: "t1, t3, m2", 2: "t2, m1"}
	var shardDirs []string
	var digests []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(work, fmt.Sprintf("shard-%d", i))
		r := invoke(t, motionEnv(filepath.Join(work, fmt.Sprintf("shard-%d.db", i))),
			"run", "-c", cfgPath, "--shard", fmt.Sprintf("%d/2", i), "--output", dir)
		if r.code != exitOK {
			t.Fatalf("shard %d/2: exit %d\n%s", i, r.code, r.stderr)
		}
		if say := fmt.Sprintf("shard %d/2: %d of the 5 selected topics and motions: %s", i, strings.Count(slices[i], ",")+1, slices[i]); !strings.Contains(r.stderr, say) {
			t.Errorf("shard %d/2 does not say %q:\n%s", i, say, r.stderr)
		}
		run := readRun(t, filepath.Join(dir, "run.json"))
		var got []string
		for _, tp := range run.Topics {
			got = append(got, tp.ID)
		}
		for _, m := range run.Motions {
			got = append(got, m.ID)
		}
		if run.Shard == nil || run.Shard.Index != i || run.Shard.Count != 2 || strings.Join(got, ", ") != slices[i] {
			t.Fatalf("shard %d/2 recorded %+v and played %q, want %s", i, run.Shard, got, slices[i])
		}
		digests = append(digests, run.Shard.Digest)
		shardDirs = append([]string{dir}, shardDirs...) // given to merge in reverse
	}
	if digests[0] != digests[1] || !strings.HasPrefix(digests[0], "sha256:") {
		t.Errorf("digests %q, want one sha256 for both shards", digests)
	}
	if got := srv.Count() - wholeCalls; got != wholeCalls {
		t.Errorf("the shards made %d calls, the whole run %d", got, wholeCalls)
	}

	r = invoke(t, nil, append([]string{"merge"}, append(shardDirs, "--output", out)...)...)
	if r.code != exitOK {
		t.Fatalf("merge: exit %d\n%s", r.code, r.stderr)
	}
	if got := comparable(t, filepath.Join(out, "run.json")); !reflect.DeepEqual(got, want) {
		t.Errorf("merged run.json differs from the whole run's (- whole, + merged):\n%s", golden.Diff(pretty(want), pretty(got)))
	}
	if got := files(t, out); !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("merged folder holds %q, the whole run's %q", got, wantFiles)
	}
	if listed := strings.Fields(r.stdout); len(listed) != len(wantFiles) {
		t.Errorf("merge listed %d files, wrote %d:\n%s", len(listed), len(wantFiles), r.stdout)
	}
	assertNoKey(t, out, r)
}

// TestMergeEmptyShardAndFormats: with more slices than items a slice plays
// nothing but still writes a run folder that merges; --format on merge
// replaces the shards' formats, in the files and in the recorded config; the
// shards' raw/ files are kept, named by shard.
func TestMergeEmptyShardAndFormats(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 1, "")
	b, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), `"output": {`, `"output": {"includeRawResponses": true, `, 1))
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	vars := map[string]string{"TEST_API_KEY": testKey}
	var dirs []string
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(work, fmt.Sprintf("s%d", i))
		r := invoke(t, vars, "run", "-c", cfgPath, "--shard", fmt.Sprintf("%d/3", i), "-o", dir)
		if r.code != exitOK {
			t.Fatalf("shard %d/3: exit %d\n%s", i, r.code, r.stderr)
		}
		dirs = append(dirs, dir)
	}
	if empty := readRun(t, filepath.Join(dirs[2], "run.json")); len(empty.Topics) != 0 || empty.Usage.Calls != 0 || empty.Shard.Index != 3 {
		t.Fatalf("empty shard recorded %d topics, %d calls, shard %+v", len(empty.Topics), empty.Usage.Calls, empty.Shard)
	}
	out := filepath.Join(work, "merged")
	r := invoke(t, nil, append([]string{"merge", "--output", out, "--format", "markdown"}, dirs...)...)
	if r.code != exitOK {
		t.Fatalf("merge: exit %d\n%s", r.code, r.stderr)
	}
	run := readRun(t, filepath.Join(out, "run.json"))
	if len(run.Topics) != 1 || run.Topics[0].ID != "t1" || run.Usage.Calls != srv.Count() {
		t.Errorf("merged %d topics, %d calls (the fake saw %d)", len(run.Topics), run.Usage.Calls, srv.Count())
	}
	var cfg struct {
		Output struct {
			Dir    string   `json:"dir"`
			Format []string `json:"format"`
		} `json:"output"`
	}
	if err := json.Unmarshal(run.Config, &cfg); err != nil || cfg.Output.Dir != out || !slices.Equal(cfg.Output.Format, []string{"markdown"}) {
		t.Errorf("merged config output %+v (%v), want dir %s and format [markdown]", cfg.Output, err, out)
	}
	var raw []string
	got := slices.DeleteFunc(files(t, out), func(f string) bool {
		if dir, name := filepath.Split(f); dir == "raw"+string(filepath.Separator) {
			raw = append(raw, name)
			return true
		}
		return false
	})
	if !slices.Equal(got, []string{"run.json", "summary.md", "topic-t1-root-question.md"}) {
		t.Errorf("merged folder holds %q", got)
	}
	if len(raw) != srv.Count() || !strings.HasPrefix(raw[0], "shard-1-0001-") {
		t.Errorf("merged raw/ holds %q, want the shards' %d exchanges named by shard", raw, srv.Count())
	}
}

// TestMergeCommand covers the exit codes of "debate merge" and its refusals:
// each names the folders concerned, exits 2 and writes nothing.
func TestMergeCommand(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	work := t.TempDir()
	vars := map[string]string{"TEST_API_KEY": testKey}
	runs := 0
	run := func(cfgPath string, args ...string) string {
		t.Helper()
		runs++
		dir := filepath.Join(work, fmt.Sprintf("run-%d", runs))
		r := invoke(t, vars, append([]string{"run", "-c", cfgPath, "-o", dir}, args...)...)
		if r.code != exitOK {
			t.Fatalf("run %q: exit %d\n%s", args, r.code, r.stderr)
		}
		return dir
	}
	cfg := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Second"}`)
	s1, s2 := run(cfg, "--shard", "1/2"), run(cfg, "--shard", "2/2")
	whole := run(cfg)
	otherCfg := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Another second"}`)
	other2 := run(otherCfg, "--shard", "2/2")
	narrowed2 := run(cfg, "--topic", "t1", "--topic", "t2", "--shard", "2/2") // same selection as all: merges
	notRun := t.TempDir()
	notes := t.TempDir()
	if err := os.WriteFile(filepath.Join(notes, "mine.txt"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
		out    string // the output folder, when not a new one
	}{
		{"merges", []string{s1, s2}, exitOK, nil, ""},
		{"same selection named", []string{s1, narrowed2}, exitOK, nil, ""},
		{"no folders", nil, exitUsage, []string{"name the shard folders to merge"}, ""},
		{"no output", []string{s1, s2, "--output", ""}, exitUsage, []string{"--output <dir> is required"}, ""},
		{"bad format", []string{s1, s2, "--format", "pdf"}, exitUsage, []string{`--format "pdf": want one of markdown, json, html`}, ""},
		{"output is a shard", []string{s1, s2, "--output", s2}, exitUsage, []string{"is also a shard folder"}, ""},
		{"not a run folder", []string{s1, notRun}, exitUsage, []string{notRun + ": no run.json"}, ""},
		{"no such folder", []string{s1, notRun + "/nope"}, exitUsage, []string{"nope: no such folder"}, ""},
		{"unsharded run", []string{s1, whole}, exitUsage, []string{whole + ": not a shard"}, ""},
		{"different configs", []string{s1, other2}, exitUsage, []string{s1 + " and " + other2 + " come from different configs"}, ""},
		{"duplicate", []string{s1, s1, s2}, exitUsage, []string{s1 + " and " + s1 + " are both shard 1/2"}, ""},
		{"missing", []string{s2}, exitUsage, []string{"shard 1/2 missing"}, ""},
		{"output of other files", []string{s1, s2}, exitUsage, []string{"--output " + notes + " is not empty and holds no run.json"}, notes},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(work, fmt.Sprintf("merged-%d", i))
			if tt.out != "" {
				out = tt.out
			}
			args := append([]string{"merge", "--output", out}, tt.args...)
			r := invoke(t, nil, args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, r.stderr)
				}
			}
			if tt.code == exitOK {
				return
			}
			if tt.out != "" {
				if got := files(t, out); !slices.Equal(got, []string{"mine.txt"}) || r.stdout != "" {
					t.Errorf("a refused merge left %q in %s, listed:\n%s", got, out, r.stdout)
				}
				return
			}
			if _, err := os.Stat(out); err == nil || r.stdout != "" {
				t.Errorf("a refused merge wrote %s or listed files:\n%s", out, r.stdout)
			}
		})
	}
}

// TestMergeExitsOneOnFailure: a shard with a failed topic merges, and the
// merged run exits 1 like the run it stands for.
func TestMergeExitsOneOnFailure(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	srv.When("Second", scripted.Status(500, "down"))
	cfg := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Second"}`)
	work := t.TempDir()
	vars := map[string]string{"TEST_API_KEY": testKey}
	var dirs []string
	for i, want := range []int{exitOK, exitFailed} {
		dir := filepath.Join(work, fmt.Sprintf("s%d", i+1))
		if r := invoke(t, vars, "run", "-c", cfg, "-o", dir, "--shard", fmt.Sprintf("%d/2", i+1)); r.code != want {
			t.Fatalf("shard %d/2: exit %d, want %d\n%s", i+1, r.code, want, r.stderr)
		}
		dirs = append(dirs, dir)
	}
	r := invoke(t, nil, append([]string{"merge", "-o", filepath.Join(work, "out")}, dirs...)...)
	if r.code != exitFailed {
		t.Fatalf("merge: exit %d, want %d\n%s", r.code, exitFailed, r.stderr)
	}
	if run := readRun(t, filepath.Join(work, "out", "run.json")); run.Topics[1].Status != tree.Failed {
		t.Errorf("merged t2 is %s, want failed", run.Topics[1].Status)
	}
}

// TestRunShardFlag: a bad --shard is reported, naming the flag, before the
// config is even read.
func TestRunShardFlag(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"0/2", "3", "2/1"} {
		r := invoke(t, nil, "run", "-c", filepath.Join(t.TempDir(), "missing.jsonc"), "--shard", v)
		if r.code != exitUsage || !strings.Contains(r.stderr, `--shard "`+v+`"`) || strings.Contains(r.stderr, "missing.jsonc") {
			t.Errorf("--shard %s: exit %d\n%s", v, r.code, r.stderr)
		}
	}
}
