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

// Selection is what one run plays: the ids of its topics and of its motions,
// each in config order. The selection of a sharded run is its slice, and
// Shard says which slice it is.
type Selection struct {
	Topics  []string
	Motions []string
	Shard   *Shard
}

// IDs returns the topics' ids and then the motions'.
func (s Selection) IDs() []string {
	return append(append([]string{}, s.Topics...), s.Motions...)
}
