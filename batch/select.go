package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// UnknownIDError is Select's error for an id that names neither a topic nor
// a motion of the config.
type UnknownIDError struct {
	ID    string
	Known []string // every topic's and motion's id, in config order
}

func (e *UnknownIDError) Error() string {
	return fmt.Sprintf("no such topic or motion %q; known ids: %s", e.ID, strings.Join(e.Known, ", "))
}

// Select computes what a run of cfg plays: the topics and motions ids names
// (all of them when ids is empty), each in config order, and when shard is
// set only its slice of them, with the shard's Digest filled in. Every part
// of a run (engine, progress, dry run, motions, shards) reads the selection
// made here.
func Select(cfg *configs.Config, ids []string, shard *tree.Shard) (tree.Selection, error) {
	known := append(cfg.TopicIDs(), cfg.MotionIDs()...)
	for _, id := range ids {
		if !slices.Contains(known, id) {
			return tree.Selection{}, &UnknownIDError{ID: id, Known: known}
		}
	}
	chosen := func(id string) bool { return len(ids) == 0 || slices.Contains(ids, id) }
	sel := tree.Selection{Topics: []string{}, Motions: []string{}}
	for _, id := range cfg.TopicIDs() {
		if chosen(id) {
			sel.Topics = append(sel.Topics, id)
		}
	}
	for _, id := range cfg.MotionIDs() {
		if chosen(id) {
			sel.Motions = append(sel.Motions, id)
		}
	}
	if shard == nil {
		return sel, nil
	}
	sh := *shard
	digest, err := configDigest(cfg, sel.IDs())
	if err != nil {
		return tree.Selection{}, err
	}
	sh.Digest = digest
	mine := slice(sel.IDs(), sh)
	notMine := func(id string) bool { return !slices.Contains(mine, id) }
	sel.Topics = slices.DeleteFunc(sel.Topics, notMine)
	sel.Motions = slices.DeleteFunc(sel.Motions, notMine)
	sel.Shard = &sh
	return sel, nil
}

// slice returns the items of one shard: the k-th item (from 0) belongs to
// slice k mod n + 1. Dealing the items out in turn keeps the slices within
// one item of each other in size, puts every item in exactly one slice, and
// depends on nothing but the order of the items.
func slice(items []string, sh tree.Shard) []string {
	out := []string{}
	for k, id := range items {
		if k%sh.Count == sh.Index-1 {
			out = append(out, id)
		}
	}
	return out
}

// resultConfig returns cfg without what a run's results do not depend on:
// where the reports go, how many calls run at once, the protocol's
// database.
func resultConfig(cfg configs.Config) configs.Config {
	cfg.Output = configs.Output{}
	cfg.Params.Concurrency = 0
	if cfg.Protocol != nil {
		p := *cfg.Protocol
		p.DB = ""
		cfg.Protocol = &p
	}
	return cfg
}

// configDigest identifies what a run's results depend on: the config without
// its secrets, the shared documents' contents and the selected items. Where
// the reports go and how many calls run at once are left out, so that shards
// written to different folders on different machines still match.
func configDigest(cfg *configs.Config, items []string) (string, error) {
	cp := resultConfig(cfg.Redacted())
	b, err := json.Marshal(struct {
		Config    configs.Config     `json:"config"`
		Documents []configs.Document `json:"documents"`
		Items     []string           `json:"items"`
	}{cp, cfg.SharedContext.Documents, items})
	if err != nil {
		return "", fmt.Errorf("digest the config: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
