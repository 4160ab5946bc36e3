package main

import (
	"strconv"
	"strings"

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
