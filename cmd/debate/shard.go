package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// parseShard reads the value of --shard: "i/n", the i-th (from 1) of n
// slices.
func parseShard(s string) (tree.Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(strings.TrimSpace(is))
	n, errN := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || errI != nil || errN != nil:
		return tree.Shard{}, usagef("--shard %q: want i/n, e.g. --shard 1/4 for the first of four slices", s)
	case n < 1:
		return tree.Shard{}, usagef("--shard %q: the number of slices must be at least 1 (got %d)", s, n)
	case i < 1 || i > n:
		return tree.Shard{}, usagef("--shard %q: the slice must be between 1 and %d, counting from 1 (got %d)", s, n, i)
	}
	return tree.Shard{Index: i, Count: n}, nil
}

// selectedItems lists the topics and then the motions that ids select (all
// of them when ids is empty), each in config order.
func selectedItems(cfg *configs.Config, ids []string) []string {
	var out []string
	for _, id := range append(cfg.TopicIDs(), cfg.MotionIDs()...) {
		if len(ids) == 0 || slices.Contains(ids, id) {
			out = append(out, id)
		}
	}
	return out
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

// shardConfig returns a copy of cfg that holds only the topics and motions of
// shard sh of the selection ids, with sh's Digest filled in. cfg is not
// modified: it is still what the run records.
func shardConfig(cfg *configs.Config, ids []string, sh tree.Shard) (*configs.Config, tree.Shard, error) {
	items := selectedItems(cfg, ids)
	digest, err := configDigest(cfg, items)
	if err != nil {
		return nil, sh, err
	}
	sh.Digest = digest
	mine := slice(items, sh)
	cp := *cfg
	cp.Topics = slices.DeleteFunc(slices.Clone(cfg.Topics), func(t configs.Topic) bool { return !slices.Contains(mine, t.ID) })
	cp.Motions = slices.DeleteFunc(slices.Clone(cfg.Motions), func(m configs.Motion) bool { return !slices.Contains(mine, m.ID) })
	return &cp, sh, nil
}

// configDigest identifies what a run's results depend on: the config without
// its secrets, the shared documents' contents and the selected items. Where
// the reports go and how many calls run at once are left out, so that shards
// written to different folders on different machines still match.
func configDigest(cfg *configs.Config, items []string) (string, error) {
	cp := cfg.Redacted()
	cp.Output = configs.Output{}
	cp.Params.Concurrency = 0
	if cp.Protocol != nil {
		p := *cp.Protocol
		p.DB = ""
		cp.Protocol = &p
	}
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

// sharded is what --shard made of a run.
type sharded struct {
	slice tree.Shard
	full  *configs.Config // the config before it was cut to the slice
}

// applyShard returns the config cut to slice sh of the selection; the
// selection itself is then part of that config. It says on stderr which
// items the slice holds.
func (o *runOptions) applyShard(e *env, cfg *configs.Config, sh tree.Shard) (*configs.Config, error) {
	cut, sh, err := shardConfig(cfg, o.topics, sh)
	if err != nil {
		return nil, err
	}
	total := len(selectedItems(cfg, o.topics))
	o.sharded = &sharded{slice: sh, full: cfg}
	o.topics = nil
	mine := append(cut.TopicIDs(), cut.MotionIDs()...)
	list := strings.Join(mine, ", ")
	if len(mine) == 0 {
		list = "none"
	}
	fmt.Fprintf(e.stderr, "shard %s: %d of the %d selected topics and motions: %s\n", sh, len(mine), total, list)
	return cut, nil
}
