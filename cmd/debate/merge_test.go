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

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/providers/providertest"
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
  "params": {"maxRounds": 2},
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
	srv.ReplyTo("m-opponent", providertest.Text("**C1**: retries duplicate deliveries."))
	srv.ReplyTo("m-proposer", providertest.Fenced(map[string]string{"action": "appeal", "content": "Decide C1: 1. keys; 2. accept."}))
	srv.ReplyTo("m-arbitrator", providertest.Fenced(map[string]any{"close": true, "content": "Option 1."}))
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// perPlay are the fields that differ between two plays of one config:
	// the times, and a motion's debate id, "<motion id>-<run id>", since a
	// run id is drawn afresh for every run (and every shard).
	perPlay = []string{"startedAt", "finishedAt", "createdAt", "updatedAt", "time", "debateId"}
)

// comparable returns run.json as generic JSON with what differs between two
// plays of the same config replaced: the perPlay fields by "<field>", and the
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
				if slices.Contains(perPlay, k) {
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
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), journalFile) {
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
