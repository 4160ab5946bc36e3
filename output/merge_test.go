package output

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/tree"
)

const digest = "sha256:0123456789abcdef0123456789abcdef"

var t0 = time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)

// shardRun returns slice i of n of a run whose config lists topics t1…t4 and
// motions m1, m2, holding the given topic and motion ids.
func shardRun(i, n int, items ...string) *tree.Run {
	run := &tree.Run{
		SchemaVersion: tree.SchemaVersion,
		StartedAt:     t0.Add(time.Duration(i) * time.Minute),
		FinishedAt:    t0.Add(time.Duration(10-i) * time.Minute),
		Config:        json.RawMessage(`{"topics":[{"id":"t1"},{"id":"t2"},{"id":"t3"},{"id":"t4"}],"motions":[{"id":"m1"},{"id":"m2"}]}`),
		MaxRounds:     2,
		Debaters:      []tree.Participant{{ID: "a", Model: "m-a"}},
		Judge:         tree.Participant{ID: "judge", Model: "m-judge"},
		Topics:        []tree.Topic{},
		Shard:         &tree.Shard{Index: i, Count: n, Digest: digest},
	}
	for _, id := range items {
		u := tree.Usage{PromptTokens: 100 * i, CompletionTokens: 10, Calls: 1, Cost: 0.5}
		if strings.HasPrefix(id, "m") {
			run.Motions = append(run.Motions, tree.Motion{ID: id, Status: tree.Converged, Usage: u})
		} else {
			run.Topics = append(run.Topics, tree.Topic{ID: id, Status: tree.Converged, Usage: u, Synthesis: "Conclusion of " + id})
		}
		run.Usage = run.Usage.Add(u)
	}
	return run
}

func folder(dir string, run *tree.Run) Folder { return Folder{Dir: dir, Run: run} }

func TestMerge(t *testing.T) {
	a := shardRun(1, 2, "t1", "t3", "m1")
	a.Edits = "Edit decisions.md: add the retry cap."
	a.Usage = a.Usage.Add(tree.Usage{Calls: 1, PromptTokens: 7}) // the edits call
	b := shardRun(2, 2, "t2", "t4", "m2")
	b.Edits = "Edit retry-plan.md: drop step 3."
	run, err := Merge([]Folder{folder("s2", b), folder("s1", a)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tp := range run.Topics {
		ids = append(ids, tp.ID+":"+tp.Synthesis)
	}
	for _, m := range run.Motions {
		ids = append(ids, m.ID)
	}
	if want := []string{"t1:Conclusion of t1", "t2:Conclusion of t2", "t3:Conclusion of t3", "t4:Conclusion of t4", "m1", "m2"}; !slices.Equal(ids, want) {
		t.Errorf("merged items %q, want config order %q", ids, want)
	}
	if want := a.Usage.Add(b.Usage); run.Usage != want {
		t.Errorf("usage %+v, want the shards' sum %+v", run.Usage, want)
	}
	if !run.StartedAt.Equal(a.StartedAt) || !run.FinishedAt.Equal(a.FinishedAt) {
		t.Errorf("merged run spans %s–%s, want the earliest start %s and latest end %s", run.StartedAt, run.FinishedAt, a.StartedAt, a.FinishedAt)
	}
	if want := a.Edits + "\n\n---\n\n" + b.Edits; run.Edits != want {
		t.Errorf("edits %q, want both shards' in shard order %q", run.Edits, want)
	}
	if run.Shard != nil || run.MaxRounds != 2 || string(run.Config) != string(a.Config) || run.Judge != a.Judge {
		t.Errorf("merged header: shard %v, maxRounds %d, config %s, judge %+v", run.Shard, run.MaxRounds, run.Config, run.Judge)
	}
	if a.Shard == nil || len(a.Topics) != 2 {
		t.Error("Merge modified a shard's run")
	}
}

// TestMergeOneShard: the one slice of --shard 1/1 merges into itself, but
// for its shard field.
func TestMergeOneShard(t *testing.T) {
	run := shardRun(1, 1, "t1", "t2", "m1")
	run.Edits = "Edit decisions.md.\n"
	got, err := Merge([]Folder{folder("s1", run)})
	if err != nil {
		t.Fatal(err)
	}
	want := *run
	want.Shard = nil
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("merged\n%+v\nwant\n%+v", got, &want)
	}
}

// TestMergeEmptyShard: a slice that got no item (more slices than items)
// merges like any other.
func TestMergeEmptyShard(t *testing.T) {
	run, err := Merge([]Folder{folder("s1", shardRun(1, 3, "t1")), folder("s2", shardRun(2, 3, "m1")), folder("s3", shardRun(3, 3))})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Topics) != 1 || len(run.Motions) != 1 || run.Usage.Calls != 2 {
		t.Errorf("merged %d topics, %d motions, %d calls", len(run.Topics), len(run.Motions), run.Usage.Calls)
	}
}

func TestMergeRefuses(t *testing.T) {
	other := shardRun(2, 2, "t2")
	other.Shard.Digest = "sha256:ffffffffffffffffffffffff"
	unsharded := shardRun(1, 1, "t1")
	unsharded.Shard = nil
	reseeded := shardRun(2, 2, "t2")
	eight := uint64(8)
	reseeded.Seed = &eight
	edited := shardRun(2, 2, "t2")
	edited.Repository = &tree.Repository{Head: "abc", Dirty: "def", Files: 3}
	tests := []struct {
		name    string
		folders []Folder
		want    []string
	}{
		{"nothing", nil, []string{"no shard folders"}},
		{"not a shard", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("whole", unsharded)},
			[]string{"whole: not a shard", "without --shard"}},
		{"different configs", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("s2", other)},
			[]string{"s1 and s2 come from different configs", "sha256:0123456789ab", "sha256:ffffffffffff"}},
		{"different counts", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("s2", shardRun(2, 3, "t2"))},
			[]string{"s1 is shard 1/2 but s2 is shard 2/3", "different numbers of slices"}},
		{"duplicate", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("copy", shardRun(1, 2, "t1")), folder("s2", shardRun(2, 2, "t2"))},
			[]string{"s1 and copy are both shard 1/2"}},
		{"missing", []Folder{folder("s1", shardRun(1, 4, "t1")), folder("s3", shardRun(3, 4, "t3"))},
			[]string{"shard 2/4, 4/4 missing", "all 4 shards"}},
		{"overlap", []Folder{folder("s1", shardRun(1, 2, "t1", "t2")), folder("s2", shardRun(2, 2, "t2"))},
			[]string{`s1 and s2 both hold "t2"`}},
		{"different seeds", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("s2", reseeded)},
			[]string{"s1 has no seed but s2 has seed 8", "same --seed"}},
		{"different repository states", []Folder{folder("s1", shardRun(1, 2, "t1")), folder("s2", edited)},
			[]string{"s1 and s2 quoted the repository in different states", "same commit and changes"}},
		{"a count no folders can fill", []Folder{folder("s1", shardRun(1, 200_000_000, "t1"))},
			[]string{"shard 2/200000000, 3/200000000", "11/200000000, and 199999989 more missing"}},
		{"index out of range", []Folder{folder("s1", &tree.Run{Shard: &tree.Shard{Index: 3, Count: 2, Digest: digest}})},
			[]string{"s1: shard 3/2 is not a slice of 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, err := Merge(tt.folders)
			if err == nil {
				t.Fatalf("merged %+v, want a refusal", run)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestMergeKnowsEveryRunField fails when tree.Run gains a field that Merge
// has not been taught to combine, so that no field of run.json is dropped or
// taken from one shard alone without a decision.
func TestMergeKnowsEveryRunField(t *testing.T) {
	decided := map[string]string{
		"SchemaVersion": "the same in every shard (DecodeRun)",
		"Stances":       "recounted over the merged topics (Tally)",
		"Audit":         "recounted over the merged topics (Tally)",
		"StartedAt":     "earliest",
		"FinishedAt":    "latest",
		"Config":        "the same but for output (digest); the command sets output",
		"Language":      "the same (digest)",
		"MaxRounds":     "the same (digest)",
		"Debaters":      "the same (digest)",
		"Judge":         "the same (digest)",
		"Judges":        "the same (digest)",
		"Topics":        "concatenated, in config order",
		"Motions":       "concatenated, in config order",
		"Usage":         "summed",
		"ByModel":       "summed per model",
		"Quotes":        "summed, in total and per debater",
		"Edits":         "joined in shard order",
		"Documents":     "the same (digest), from the first shard that played topics",
		"Shard":         "dropped: the merged run is whole",
		"Demo":          "true if any slice was a demo run",
		"Adaptations":   "the union, sorted",
		"Seed":          "the same in every shard, else refused",
		"Repository":    "the same in every shard, else refused",
		"Cache":         "summed",
	}
	rt := reflect.TypeFor[tree.Run]()
	for i := range rt.NumField() {
		if name := rt.Field(i).Name; decided[name] == "" {
			t.Errorf("tree.Run.%s is new: decide in Merge how shards combine it, then list it here", name)
		}
	}
}

func TestReadFolder(t *testing.T) {
	dir := t.TempDir()
	run := shardRun(1, 2, "t1")
	if _, err := Write(dir, run, Options{Raw: []RawFile{{Name: "0001-a-m-a.json", Body: []byte("{}\n")}}}); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Dir != dir || f.Run.Shard == nil || *f.Run.Shard != *run.Shard || len(f.Raw) != 1 || f.Raw[0].Name != "0001-a-m-a.json" {
		t.Errorf("read %+v", f)
	}

	empty := t.TempDir()
	tests := []struct{ dir, want string }{
		{empty, empty + ": no run.json: not a run folder"},
		{filepath.Join(empty, "nope"), "nope: no such folder"},
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "run.json"), []byte(`{"schemaVersion": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct{ dir, want string }{bad, bad + ": decode run.json: schemaVersion 99 is newer"})
	for _, tt := range tests {
		if _, err := ReadFolder(tt.dir); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadFolder(%s): %v, want %q", tt.dir, err, tt.want)
		}
	}
}

// TestReadFolderRefuses: what a run never writes into its folder — a
// run.json or raw/ that is a symbolic link, a device or a pipe, a raw/ file
// that links elsewhere — is refused with the folder and file named, at
// once, and nothing is read through a link.
func TestReadFolderRefuses(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("root:x:0:0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		setup func(dir string) error
		want  string
	}{
		{"run.json from /dev/zero", func(dir string) error {
			return os.Symlink("/dev/zero", filepath.Join(dir, "run.json"))
		}, "open {dir}/run.json: a symbolic link"},
		{"run.json a FIFO", func(dir string) error {
			return syscall.Mkfifo(filepath.Join(dir, "run.json"), 0o600)
		}, "open {dir}/run.json: not a regular file"},
		{"raw/ linked to another folder", func(dir string) error {
			return errors.Join(writeRun(dir), os.Symlink(filepath.Dir(secret), filepath.Join(dir, "raw")))
		}, "raw: a symbolic link"},
		{"a raw/ file linked elsewhere", func(dir string) error {
			return errors.Join(writeRun(dir), os.Mkdir(filepath.Join(dir, "raw"), 0o755),
				os.Symlink(secret, filepath.Join(dir, "raw", "0001.json")))
		}, "open {dir}/raw/0001.json: a symbolic link"},
		{"a raw/ FIFO", func(dir string) error {
			return errors.Join(writeRun(dir), os.Mkdir(filepath.Join(dir, "raw"), 0o755),
				syscall.Mkfifo(filepath.Join(dir, "raw", "0001.json"), 0o600))
		}, "open {dir}/raw/0001.json: not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := tt.setup(dir); err != nil {
				t.Fatal(err)
			}
			f, err := ReadFolder(dir)
			want := dir + ": " + strings.ReplaceAll(tt.want, "{dir}", dir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("ReadFolder: %v, want an error saying %q", err, want)
			}
			if len(f.Raw) != 0 {
				t.Errorf("read %d raw files", len(f.Raw))
			}
		})
	}
}

// writeRun writes a shard's run.json into dir.
func writeRun(dir string) error {
	b, err := EncodeRun(shardRun(1, 2, "t1"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644)
}

func TestWriteFolder(t *testing.T) {
	run := shardRun(1, 1, "t1")
	run.Shard = nil
	parent := t.TempDir()

	t.Run("new folder", func(t *testing.T) {
		dir := filepath.Join(parent, "new", "out")
		files, err := WriteFolder(dir, run, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(files, filepath.Join(dir, "run.json")) || !slices.Contains(files, filepath.Join(dir, "summary.md")) {
			t.Errorf("wrote %q", files)
		}
		for _, f := range files {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("listed %s: %v", f, err)
			}
		}
		assertNoLeftovers(t, filepath.Dir(dir))
	})
	t.Run("relative folder", func(t *testing.T) {
		t.Chdir(parent)
		files, err := WriteFolder("rel", run, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join("rel", "run.json"); !slices.Contains(files, want) {
			t.Errorf("listed %q, want %s among them", files, want)
		}
		assertNoLeftovers(t, parent)
	})
	t.Run("replaces an earlier run folder", func(t *testing.T) {
		dir := filepath.Join(parent, "earlier")
		if _, err := Write(dir, shardRun(1, 2, "t1", "t2"), Options{Formats: []string{FormatHTML}}); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteFolder(dir, run, Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "summary.html")); err == nil {
			t.Error("a file of the earlier run is still there")
		}
		if got, err := ReadFolder(dir); err != nil || got.Run.Shard != nil {
			t.Errorf("read back %+v, %v", got.Run, err)
		}
		assertNoLeftovers(t, parent)
	})
	t.Run("refuses a folder of other files", func(t *testing.T) {
		dir := filepath.Join(parent, "notes")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteFolder(dir, run, Options{}); err == nil || !strings.Contains(err.Error(), "holds no run.json") {
			t.Fatalf("err %v, want a refusal", err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("the folder now holds %d entries", len(entries))
		}
		assertNoLeftovers(t, parent)
	})
	t.Run("a failed write leaves nothing", func(t *testing.T) {
		dir := filepath.Join(parent, "bad")
		if _, err := WriteFolder(dir, run, Options{Formats: []string{"pdf"}}); err == nil {
			t.Fatal("wrote a folder with an unknown format")
		}
		if _, err := os.Stat(dir); err == nil {
			t.Error("the output folder exists after a failed write")
		}
		assertNoLeftovers(t, parent)
	})
}

// assertNoLeftovers fails when a temporary folder of WriteFolder is left in dir.
func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind %s", filepath.Join(dir, e.Name()))
		}
	}
}
