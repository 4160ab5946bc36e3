package output

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// Folder is a run folder read back: its run.json, its raw/ files and the
// copies of the documents its quotes point into.
type Folder struct {
	Dir       string
	Run       *tree.Run
	Raw       []RawFile
	Documents []Document
}

// Caps on what ReadFolder reads of a run folder.
const (
	// MaxRunBytes bounds a run.json: 256 MiB.
	MaxRunBytes = 256 << 20
	// MaxRawBytes bounds the raw/ files of a folder, all together: 1 GiB.
	MaxRawBytes = 1 << 30
)

// ReadFolder reads the run.json of the run folder dir, and its raw/ files
// and its documents' copies (as the Markdown reports link them) when there
// are any. It reads regular files only, never through a symbolic link,
// run.json up to MaxRunBytes, the raw/ files up to MaxRawBytes in all and
// each document copy up to configs.MaxDocumentBytes.
func ReadFolder(dir string) (Folder, error) {
	b, err := regular.ReadFileNoFollow(filepath.Join(dir, "run.json"), MaxRunBytes)
	if errors.Is(err, fs.ErrNotExist) {
		if st, serr := os.Stat(dir); serr != nil || !st.IsDir() {
			return Folder{}, fmt.Errorf("%s: no such folder", dir)
		}
		return Folder{}, fmt.Errorf("%s: no run.json: not a run folder (\"debate run --shard i/n --output %s\" writes one)", dir, dir)
	}
	if err != nil {
		return Folder{}, fmt.Errorf("%s: %w", dir, err)
	}
	run, err := DecodeRun(b)
	if err != nil {
		return Folder{}, fmt.Errorf("%s: %w", dir, err)
	}
	for _, id := range itemIDs(run) {
		// An id names files and goes into CI outputs: only a config's ids.
		if err := configs.CheckID(id); err != nil {
			return Folder{}, fmt.Errorf("%s: run.json: the id %q of a topic or motion: %w", dir, id, err)
		}
	}
	raw, err := readRaw(filepath.Join(dir, "raw"))
	if err != nil {
		return Folder{}, fmt.Errorf("%s: %w", dir, err)
	}
	f := Folder{Dir: dir, Run: run, Raw: raw}
	for _, name := range render.QuotedDocuments(run) {
		body, err := regular.ReadFileNoFollow(filepath.Join(dir, filepath.FromSlash(render.DocumentFile(name))), configs.MaxDocumentBytes)
		if err == nil {
			f.Documents = append(f.Documents, Document{Name: name, Text: string(body)})
		}
	}
	return f, nil
}

// readRaw reads the files of a folder's raw/, none when there is no raw/,
// refusing a raw/ or a file in it that is not what a run writes: a
// symbolic link, a folder, a device or pipe.
func readRaw(dir string) ([]RawFile, error) {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("raw: %w: a run writes raw/ as a folder", regular.ErrSymlink)
	case !st.IsDir():
		return nil, errors.New("raw: not a folder")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []RawFile
	left := int64(MaxRawBytes)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		body, err := regular.ReadFileNoFollow(filepath.Join(dir, e.Name()), left)
		if errors.Is(err, regular.ErrTooLarge) {
			return nil, fmt.Errorf("%w: the raw/ files hold more than %s", regular.ErrTooLarge, regular.Size(MaxRawBytes))
		}
		if err != nil {
			return nil, err
		}
		left -= int64(len(body))
		out = append(out, RawFile{Name: e.Name(), Body: body})
	}
	return out, nil
}

// Merge combines the folders of every slice of one sharded run ("debate run
// --shard i/n") into the run an unsharded run would have written: topics and
// motions in config order, usage summed (cache-eligible tokens as each slice
// counted them over its own calls), the earliest start and the latest
// end, the slices' proposed edits one after the other. The result has no
// Shard. Merge refuses a folder that is not a slice, slices of different
// configs, selections or seeds, or cut into a different number of slices, a slice
// given twice and a missing slice, naming the folders concerned.
func Merge(folders []Folder) (*tree.Run, error) {
	shards, err := inOrder(folders)
	if err != nil {
		return nil, err
	}
	order, err := configOrder(shards[0].Run.Config)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shards[0].Dir, err)
	}
	merged := *shards[0].Run
	merged.Shard = nil
	merged.Topics, merged.Motions, merged.Usage, merged.Adaptations, merged.ByModel, merged.Quotes = []tree.Topic{}, nil, tree.Usage{}, nil, nil, nil
	merged.Cache = nil
	seen := map[string]string{}
	var edits []string
	for _, f := range shards {
		p := f.Run
		if seedOf(p) != seedOf(&merged) {
			return nil, fmt.Errorf("%s has %s but %s has %s: the shards drew their aliases and orders differently; run every shard with the same --seed, or none", shards[0].Dir, seedOf(&merged), f.Dir, seedOf(p))
		}
		if !reflect.DeepEqual(p.Repository, merged.Repository) {
			return nil, fmt.Errorf("%s and %s quoted the repository in different states: run every shard on the same commit and changes", shards[0].Dir, f.Dir)
		}
		merged.StartedAt = earliest(merged.StartedAt, p.StartedAt)
		merged.FinishedAt = latest(merged.FinishedAt, p.FinishedAt)
		merged.Usage = merged.Usage.Add(p.Usage)
		merged.Cache = merged.Cache.Add(p.Cache)
		merged.ByModel = tree.MergeByModel(merged.ByModel, p.ByModel)
		merged.Quotes = merged.Quotes.Merge(p.Quotes)
		merged.Demo = merged.Demo || p.Demo
		merged.Adaptations = mergeAdaptations(merged.Adaptations, p.Adaptations)
		if strings.TrimSpace(p.Edits) != "" {
			edits = append(edits, p.Edits)
		}
		if len(merged.Documents) == 0 {
			// One config: every shard that played topics lists the same.
			merged.Documents = p.Documents
		}
		for _, id := range itemIDs(p) {
			if other, ok := seen[id]; ok {
				return nil, fmt.Errorf("%s and %s both hold %q: the shards overlap", other, f.Dir, id)
			}
			seen[id] = f.Dir
		}
		merged.Topics = append(merged.Topics, p.Topics...)
		merged.Motions = append(merged.Motions, p.Motions...)
	}
	slices.SortStableFunc(merged.Topics, func(a, b tree.Topic) int { return cmp.Compare(order.topic(a.ID), order.topic(b.ID)) })
	slices.SortStableFunc(merged.Motions, func(a, b tree.Motion) int { return cmp.Compare(order.motion(a.ID), order.motion(b.ID)) })
	merged.Edits = joinEdits(edits)
	merged.Tally()
	return &merged, nil
}

// seedOf says which seed run was given: "seed N", or "no seed" when each
// topic drew from its own.
func seedOf(run *tree.Run) string {
	if run.Seed == nil {
		return "no seed"
	}
	return fmt.Sprintf("seed %d", *run.Seed)
}

// mergeAdaptations adds to a the adaptations of b it lacks (a slice
// learns the same refusal its own way), keeping them sorted by endpoint,
// model and parameter.
func mergeAdaptations(a, b []tree.Adaptation) []tree.Adaptation {
	for _, x := range b {
		if !slices.ContainsFunc(a, func(y tree.Adaptation) bool {
			return y.Endpoint == x.Endpoint && y.Model == x.Model && y.Param == x.Param
		}) {
			a = append(a, x)
		}
	}
	slices.SortFunc(a, func(x, y tree.Adaptation) int {
		return cmp.Or(cmp.Compare(x.Endpoint, y.Endpoint), cmp.Compare(x.Model, y.Model), cmp.Compare(x.Param, y.Param))
	})
	return a
}

// inOrder checks that folders hold every slice of one sharded run, once
// each, and returns them in slice order.
func inOrder(folders []Folder) ([]Folder, error) {
	if len(folders) == 0 {
		return nil, errors.New("no shard folders to merge")
	}
	for _, f := range folders {
		if f.Run.Shard == nil {
			return nil, fmt.Errorf("%s: not a shard: its run.json has no \"shard\" (written by \"debate run\" without --shard)", f.Dir)
		}
	}
	first, count := folders[0], folders[0].Run.Shard.Count
	byIndex := map[int]Folder{}
	for _, f := range folders {
		sh := f.Run.Shard
		switch {
		case sh.Count != count:
			return nil, fmt.Errorf("%s is shard %s but %s is shard %s: the folders come from runs cut into different numbers of slices",
				first.Dir, first.Run.Shard, f.Dir, sh)
		case sh.Digest != first.Run.Shard.Digest:
			return nil, fmt.Errorf("%s and %s come from different configs or --topic selections (digest %s and %s): merge the shards of one run",
				first.Dir, f.Dir, shortDigest(first.Run.Shard.Digest), shortDigest(sh.Digest))
		case sh.Index < 1 || sh.Index > sh.Count:
			return nil, fmt.Errorf("%s: shard %s is not a slice of %d", f.Dir, sh, sh.Count)
		}
		if prev, ok := byIndex[sh.Index]; ok {
			return nil, fmt.Errorf("%s and %s are both shard %s: give each shard's folder once", prev.Dir, f.Dir, sh)
		}
		byIndex[sh.Index] = f
	}
	// A folder may claim any count: the slices are listed from those
	// given, and at most maxMissing of those missing.
	const maxMissing = 10
	var missing []string
	for i := 1; i <= count && len(missing) < maxMissing; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, tree.Shard{Index: i, Count: count}.String())
		}
	}
	if len(missing) > 0 {
		if more := count - len(byIndex) - len(missing); more > 0 {
			missing = append(missing, fmt.Sprintf("and %d more", more))
		}
		return nil, fmt.Errorf("shard %s missing: a merged run needs all %d shards' folders", strings.Join(missing, ", "), count)
	}
	out := make([]Folder, 0, count)
	for i := 1; i <= count; i++ {
		out = append(out, byIndex[i])
	}
	return out, nil
}

// itemIDs lists the ids of a run's topics and motions.
func itemIDs(run *tree.Run) []string {
	ids := make([]string, 0, len(run.Topics)+len(run.Motions))
	for _, t := range run.Topics {
		ids = append(ids, t.ID)
	}
	for _, m := range run.Motions {
		ids = append(ids, m.ID)
	}
	return ids
}

// joinEdits puts the slices' proposed edits one after the other, divided by
// a rule; a single slice's edits are kept as they are.
func joinEdits(edits []string) string {
	if len(edits) == 1 {
		return edits[0]
	}
	for i, e := range edits {
		edits[i] = strings.TrimSpace(e)
	}
	return strings.Join(edits, "\n\n---\n\n")
}

// order is the position of every topic and motion id in the config.
type order struct{ topics, motions map[string]int }

func (o order) topic(id string) int  { return position(o.topics, id) }
func (o order) motion(id string) int { return position(o.motions, id) }

// position returns id's position, or one past the last for an unknown id.
func position(m map[string]int, id string) int {
	if p, ok := m[id]; ok {
		return p
	}
	return len(m)
}

// configOrder reads the order of the topics and motions from a run's config.
// Ids the config does not list sort last, in the order the shards give.
func configOrder(config json.RawMessage) (order, error) {
	o := order{topics: map[string]int{}, motions: map[string]int{}}
	if len(config) == 0 {
		return o, nil
	}
	var c struct {
		Topics  []struct{ ID string } `json:"topics"`
		Motions []struct{ ID string } `json:"motions"`
	}
	if err := json.Unmarshal(config, &c); err != nil {
		return o, fmt.Errorf("read the config in run.json: %w", err)
	}
	for i, t := range c.Topics {
		o.topics[t.ID] = i
	}
	for i, m := range c.Motions {
		o.motions[m.ID] = i
	}
	return o, nil
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// shortDigest shortens a digest for messages.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12]
	}
	return d
}

// Replaceable tells whether WriteFolder may write at dir, and whether dir
// exists: it may when dir is missing, empty, or a run folder (one with
// run.json). ErrNotReplaceable says that it may not.
func Replaceable(dir string) (exists bool, err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("output folder: %w", err)
	case len(entries) == 0:
		return true, nil
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err != nil {
		return false, fmt.Errorf("output folder %s: %w", dir, ErrNotReplaceable)
	}
	return true, nil
}

// ErrNotReplaceable refuses to write a run over a folder of other files.
var ErrNotReplaceable = errors.New("not empty and holds no run.json: choose a new or empty folder, so that nothing in it is lost")

// WriteFolder writes a whole run folder at dir as Write does, but all at
// once: into a new folder beside dir that then takes dir's place, so that dir
// holds either its earlier content or the complete new one, never a mix.
// dir may be missing, empty, or an earlier run folder (one with run.json),
// which is replaced; any other folder is refused, since its files would be
// lost. The returned paths are under dir.
func WriteFolder(dir string, run *tree.Run, opt Options) ([]string, error) {
	dir = filepath.Clean(dir)
	replace, err := Replaceable(dir)
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-*")
	if err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once tmp has become dir
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	written, err := Write(tmp, run, opt)
	if err != nil {
		return nil, err
	}
	if replace {
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return nil, fmt.Errorf("replace %s: %w", dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			_ = os.Rename(old, dir)
			return nil, fmt.Errorf("replace %s: %w", dir, err)
		}
		_ = os.RemoveAll(old)
	} else if err := os.Rename(tmp, dir); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	syncDir(parent)
	for i, p := range written {
		rel, err := filepath.Rel(tmp, p)
		if err != nil {
			return nil, fmt.Errorf("output folder: %w", err)
		}
		written[i] = filepath.Join(dir, rel)
	}
	return written, nil
}
