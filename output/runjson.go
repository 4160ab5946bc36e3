package output

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/debatehq/debate/tree"
)

// EncodeRun returns run.json for a run: schemaVersion set to
// tree.SchemaVersion, two-space indented, HTML characters left as they are,
// a trailing newline. Lists and maps the run left nil are written empty
// ([] and {}) so that consumers never meet null where a collection belongs.
// The run itself is not modified.
func EncodeRun(run *tree.Run) ([]byte, error) {
	r := *run
	r.SchemaVersion = tree.SchemaVersion
	r.Debaters = orEmpty(r.Debaters)
	r.Topics = make([]tree.Topic, len(run.Topics))
	for i, t := range run.Topics {
		t.Fallbacks = orEmpty(t.Fallbacks)
		t.Root = normalizeNode(t.Root)
		r.Topics[i] = t
	}
	r.Motions = normalizeMotions(run.Motions)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&r); err != nil {
		return nil, fmt.Errorf("encode run.json: %w", err)
	}
	return buf.Bytes(), nil
}

// DecodeRun reads run.json. It refuses a file without a schema version or
// with a newer one than this program writes, and sets every topic's
// decision from its tree, so that older files read with one.
func DecodeRun(data []byte) (*tree.Run, error) {
	var run tree.Run
	if err := json.Unmarshal(data, &run); err != nil {
		return nil, fmt.Errorf("decode run.json: %w", err)
	}
	switch {
	case run.SchemaVersion == 0:
		return nil, fmt.Errorf("decode run.json: no schemaVersion")
	case run.SchemaVersion > tree.SchemaVersion:
		return nil, fmt.Errorf("decode run.json: schemaVersion %d is newer than %d, the one this program reads", run.SchemaVersion, tree.SchemaVersion)
	}
	// A file written before topics carried their decision gets it from
	// its tree; in a newer one it is the same.
	for i := range run.Topics {
		run.Topics[i].Settle()
	}
	return &run, nil
}

// normalizeNode returns a copy of the tree under n with nil maps and slices
// made empty; n is not modified.
func normalizeNode(n *tree.Node) *tree.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Positions = orEmptyMap(c.Positions)
	c.Rebuttals = orEmptyMap(c.Rebuttals)
	c.Models = orEmptyMap(c.Models)
	c.RebuttalModels = orEmptyMap(c.RebuttalModels)
	c.Errors = orEmpty(c.Errors)
	c.Warnings = orEmpty(c.Warnings)
	if n.Divergence != nil {
		d := normalizeDivergence(*n.Divergence)
		c.Divergence = &d
	}
	if n.Judgment != nil {
		j := *n.Judgment
		j.Consensus = orEmpty(j.Consensus)
		j.Divergences = make([]tree.Divergence, len(n.Judgment.Divergences))
		for i, d := range n.Judgment.Divergences {
			j.Divergences[i] = normalizeDivergence(d)
		}
		c.Judgment = &j
	}
	c.Children = make([]*tree.Node, len(n.Children))
	for i, ch := range n.Children {
		c.Children[i] = normalizeNode(ch)
	}
	return &c
}

func normalizeDivergence(d tree.Divergence) tree.Divergence {
	d.Sides = orEmptyMap(d.Sides)
	d.Uninvolved = orEmpty(d.Uninvolved)
	return d
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orEmptyMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
