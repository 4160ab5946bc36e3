package batch

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tailscale/hujson"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
)

// ShardFormats returns every report format the shards' configs asked for,
// in the order they first appear.
func ShardFormats(folders []output.Folder) []string {
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

// Retarget returns a run's recorded config with output.dir and output.format
// set to where and how a merged run is written; every other byte stays.
func Retarget(config json.RawMessage, dir string, formats []string) (json.RawMessage, error) {
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
