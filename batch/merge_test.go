package batch

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// playShards plays the example config as a demo in n slices, each into a
// folder of its own as n CI jobs would, and returns the folders.
func playShards(t *testing.T, n int) []string {
	t.Helper()
	anyKey := func(string) (string, bool) { return "sk-demo", true }
	var dirs []string
	for i := 1; i <= n; i++ {
		cfg, err := configs.Load("../configs/examples/full.jsonc", configs.Options{Getenv: anyKey})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Output.Dir = t.TempDir()
		sel, err := Select(cfg, nil, &tree.Shard{Index: i, Count: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), cfg, Options{Selection: &sel, Demo: true}); err != nil {
			t.Fatalf("shard %d/%d: %v", i, n, err)
		}
		dirs = append(dirs, cfg.Output.Dir)
	}
	return dirs
}

// otherModel copies the run.json of the shard folder dir into a new folder
// with its first debater's model changed in the config it records, the
// digest left as it was.
func otherModel(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := output.DecodeRun(b)
	if err != nil {
		t.Fatal(err)
	}
	var cfg configs.Config
	if err := json.Unmarshal(run.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Debaters[0].Model = "another-model"
	if run.Config, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if b, err = output.EncodeRun(run); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "run.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMerge(t *testing.T) {
	t.Parallel()
	shards := playShards(t, 2)
	tests := []struct {
		name    string
		dirs    []string
		formats []string
		refused bool
		want    []string // files the merged folder holds
	}{
		{name: "both shards, the formats they wrote", dirs: shards, want: []string{"run.json", "summary.md", "summary.html"}},
		{name: "both shards as JSON only", dirs: shards, formats: []string{"json"}, want: []string{"run.json"}},
		{name: "a missing folder", dirs: []string{shards[0], filepath.Join(t.TempDir(), "nope")}, refused: true},
		{name: "a shard given twice", dirs: []string{shards[0], shards[0]}, refused: true},
		{name: "a missing shard", dirs: shards[1:], refused: true},
		{name: "a shard of another config with the same digest", dirs: []string{shards[0], otherModel(t, shards[1])}, refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "merged")
			m, err := Merge(tt.dirs, out, MergeOptions{Formats: tt.formats})
			if tt.refused {
				if refused := (*RefusedError)(nil); !errors.As(err, &refused) {
					t.Fatalf("Merge: %v, want a *RefusedError", err)
				}
				if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a refused merge wrote %s (stat: %v)", out, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Shards != len(tt.dirs) || m.Run.Shard != nil || len(m.Run.Topics) != 2 {
				t.Errorf("merged %d shards into %d topics (shard %v), want %d shards, 2 topics, no shard", m.Shards, len(m.Run.Topics), m.Run.Shard, len(tt.dirs))
			}
			var names []string
			for _, f := range m.Files {
				names = append(names, filepath.Base(f))
			}
			for _, w := range tt.want {
				if !slices.Contains(names, w) {
					t.Errorf("files written %q lack %s", names, w)
				}
			}
			if slices.Contains(tt.formats, "json") && slices.ContainsFunc(names, func(n string) bool { return filepath.Ext(n) == ".html" }) {
				t.Errorf("--format json wrote HTML: %q", names)
			}
		})
	}
}
