package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchCommandLine(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "no benchmark", args: []string{"bench"}, code: exitUsage, stderr: []string{"debate bench tree", "debate bench serve"}},
		{name: "help", args: []string{"help", "bench"}, code: exitOK, stdout: []string{"bench tree", "bench serve", "--json"}},
		{name: "unknown benchmark", args: []string{"bench", "disk"}, code: exitUsage, stderr: []string{`unknown benchmark "disk" (want tree or serve)`}},
		{name: "tree help", args: []string{"bench", "tree", "--help"}, code: exitOK,
			stdout: []string{"USAGE", "--topics", "--debaters", "--fanout", "--depth", "--latency", "--concurrency", "--faults", "--json", "EXIT CODES"}},
		{name: "serve help", args: []string{"bench", "serve", "-h"}, code: exitOK, stdout: []string{"--writers", "--pollers", "--duration", "--json"}},
		{name: "bad fan-out", args: []string{"bench", "tree", "--fanout", "0"}, code: exitUsage,
			stderr: []string{"--fanout must be from 1 to 10 (got 0)", "debate help bench tree"}},
		{name: "bad faults", args: []string{"bench", "tree", "--faults", "1.5"}, code: exitUsage, stderr: []string{"--faults must be a share from 0 to below 1"}},
		{name: "bad duration", args: []string{"bench", "serve", "--duration", "1ms"}, code: exitUsage, stderr: []string{"--duration must be from 100ms"}},
		{name: "stray argument", args: []string{"bench", "serve", "fast"}, code: exitUsage, stderr: []string{`unexpected argument "fast"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(t, nil, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

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
