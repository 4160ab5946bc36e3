package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	// The server runs as a process of its own, and profiles itself.
	prof := filepath.Join(t.TempDir(), "serve.prof")
	r = invoke(t, nil, "bench", "serve", "--writers", "2", "--pollers", "1", "--duration", "1s", "--json", "--cpuprofile", prof)
	var got struct {
		Version int `json:"version"`
		Writes  struct {
			Count int `json:"count"`
		} `json:"writes"`
		SeqContiguous bool    `json:"seqContiguous"`
		InProcess     bool    `json:"inProcess"`
		ServerCPU     float64 `json:"serverCpuPerRequestMs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK || got.Version != 1 || got.Writes.Count == 0 || !got.SeqContiguous {
		t.Errorf("bench serve --json: exit %d, %+v, %v\n%s%s", r.code, got, err, r.stdout, r.stderr)
	}
	if got.InProcess || got.ServerCPU < 0 {
		t.Errorf("bench serve: in process %v, server CPU per request %v", got.InProcess, got.ServerCPU)
	}
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the server's CPU profile is not a gzipped profile: %v, %d bytes", err, len(b))
	}
	r = invoke(t, nil, "bench", "serve", "--in-process", "--cpuprofile", prof)
	if r.code != exitUsage || !strings.Contains(r.stderr, "--cpuprofile profiles the server process") {
		t.Errorf("--in-process --cpuprofile: exit %d\n%s", r.code, r.stderr)
	}
}
