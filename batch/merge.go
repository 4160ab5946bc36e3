package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// RefusedError is why Merge wrote nothing: a folder that cannot be read as
// a run folder, or folders that are not the slices of one run. Err names the
// folders concerned.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Merged is the run that Merge wrote.
type Merged struct {
	Run *tree.Run
	// Files are the files written, in order.
	Files []string
	// Shards counts the folders merged.
	Shards int
	// FailOn lists the decisions that fail the merged run: the options',
	// else those the shards were run with (params.failOn).
	FailOn []tree.Outcome
}

// MergeOptions say how Merge writes the merged run.
type MergeOptions struct {
	// Formats are the report formats; empty: those the shards wrote.
	Formats []string
	// FailOn, when FailOnSet, replaces the decisions the shards were run
	// to fail on (params.failOn), for junit.xml and Merged.FailOn.
	FailOn    []tree.Outcome
	FailOnSet bool
}

// Merge combines the run folders of a sharded run ("debate run --shard
// i/n"), one per slice, into the run folder out, as if one machine had
// played it all: reports rendered afresh from the shards' run.json files in
// opt.Formats (those the shards wrote when it is empty), and their raw/
// files under names that say the shard. When the folders cannot be merged
// Merge writes nothing and returns a *RefusedError that gives every reason.
func Merge(dirs []string, out string, opt MergeOptions) (*Merged, error) {
	folders := make([]output.Folder, 0, len(dirs))
	var errs []error
	for _, dir := range dirs {
		f, err := output.ReadFolder(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		folders = append(folders, f)
	}
	if len(errs) > 0 {
		return nil, &RefusedError{errors.Join(errs...)}
	}
	run, err := output.Merge(folders)
	if err == nil {
		err = sameConfigs(folders)
	}
	if err != nil {
		return nil, &RefusedError{err}
	}
	formats := opt.Formats
	if len(formats) == 0 {
		formats = shardFormats(folders)
	}
	failOn := opt.FailOn
	if !opt.FailOnSet {
		var cfg configs.Config
		if err := json.Unmarshal(run.Config, &cfg); err != nil {
			return nil, fmt.Errorf("read the shards' config: %w", err)
		}
		failOn = cfg.Params.FailOnDecisions()
	}
	if run.Config, err = retarget(run.Config, out, formats); err != nil {
		return nil, err
	}
	var raw []output.RawFile
	var docs []output.Document
	for _, f := range folders {
		docs = append(docs, f.Documents...)
		for _, r := range f.Raw {
			raw = append(raw, output.RawFile{Name: fmt.Sprintf("shard-%d-%s", f.Run.Shard.Index, r.Name), Body: r.Body})
		}
	}
	files, err := output.WriteFolder(out, run, output.Options{Formats: formats, Raw: raw, FailOn: failOn, Documents: docs})
	if err != nil {
		return nil, fmt.Errorf("write the merged run: %w", err)
	}
	return &Merged{Run: run, Files: files, Shards: len(folders), FailOn: failOn}, nil
}

// sameConfigs refuses shards whose recorded configs differ in anything the
// results depend on (see resultConfig), naming the fields that differ: the
// digest each shard recorded is compared by output.Merge, but it is only
// what the shard says.
func sameConfigs(folders []output.Folder) error {
	var first map[string]any
	for i, f := range folders {
		var cfg configs.Config
		if err := json.Unmarshal(f.Run.Config, &cfg); err != nil {
			return fmt.Errorf("%s: read the config in run.json: %w", f.Dir, err)
		}
		b, err := json.Marshal(resultConfig(cfg))
		if err != nil {
			return fmt.Errorf("%s: %w", f.Dir, err)
		}
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			return fmt.Errorf("%s: %w", f.Dir, err)
		}
		if i == 0 {
			first = fields
			continue
		}
		var differ []string
		for _, k := range slices.Sorted(maps.Keys(fields)) {
			if !reflect.DeepEqual(first[k], fields[k]) {
				differ = append(differ, k)
			}
		}
		for k := range first {
			if _, ok := fields[k]; !ok && !slices.Contains(differ, k) {
				differ = append(differ, k)
			}
		}
		if len(differ) > 0 {
			slices.Sort(differ)
			return fmt.Errorf("%s and %s were run with different configs (%s differ): merge the shards of one run",
				folders[0].Dir, f.Dir, strings.Join(differ, ", "))
		}
	}
	return nil
}

// shardFormats returns every report format the shards' configs asked for,
// in the order they first appear.
func shardFormats(folders []output.Folder) []string {
	var out []string
	for _, f := range folders {
		var c struct {
			Output struct {
				Format configs.Formats `json:"format"`
			} `json:"output"`
		}
		if json.Unmarshal(f.Run.Config, &c) != nil {
			continue
		}
		for _, format := range c.Output.Format {
			if !slices.Contains(out, format) {
				out = append(out, format)
			}
		}
	}
	return out
}

// retarget returns a run's recorded config with output.dir and output.format
// set to where and how a merged run is written; every other byte stays.
func retarget(config json.RawMessage, dir string, formats []string) (json.RawMessage, error) {
	if len(config) == 0 {
		return config, nil
	}
	v, err := hujson.Parse(config)
	if err != nil {
		return nil, fmt.Errorf("read the config in run.json: %w", err)
	}
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	ops := []op{{"add", "/output/dir", dir}}
	if len(formats) > 0 {
		ops = append(ops, op{"add", "/output/format", formats})
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	if err := v.Patch(patch); err != nil {
		return nil, fmt.Errorf("set output in the merged config: %w", err)
	}
	return v.Pack(), nil
}
