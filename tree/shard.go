package tree

import "fmt"

// Shard says which slice of a selection a sharded run played: the Index-th
// (from 1) of Count slices. Digest identifies the configuration and selection
// the slices were cut from, without its secrets, so that only slices of the
// same run are merged.
type Shard struct {
	Index  int    `json:"index"`
	Count  int    `json:"count"`
	Digest string `json:"digest"`
}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }
