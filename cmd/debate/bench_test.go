package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchRuns runs both benchmarks on tiny workloads through the command
// line, as text and as JSON.
func TestBenchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small benchmarks")
	}
	r := invoke(t, nil, "bench", "tree", "--topics", "2", "--debaters", "2", "--fanout", "1", "--depth", "2", "--latency", "1ms", "--concurrency", "4")
	if r.code != exitOK || !strings.Contains(r.stdout, "ratio") || !strings.Contains(r.stdout, "2 of 2 topics") {
		t.Errorf("bench tree: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = invoke(t, nil, "bench", "serve", "--writers", "2", "--pollers", "1", "--duration", "200ms", "--json")
	var got struct {
		Version int `json:"version"`
		Writes  struct {
			Count int `json:"count"`
		} `json:"writes"`
		SeqContiguous bool `json:"seqContiguous"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK || got.Version != 1 || got.Writes.Count == 0 || !got.SeqContiguous {
		t.Errorf("bench serve --json: exit %d, %+v, %v\n%s%s", r.code, got, err, r.stdout, r.stderr)
	}
}
