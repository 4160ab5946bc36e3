package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchQuality runs "debate bench quality" as a user would: a demo as
// JSON, and task files and flags that are refused with exit 2.
func TestBenchQuality(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.jsonl")
	if err := os.WriteFile(broken, []byte(`{"id":"a","question":"2+2?","answer":4}`+"\n"+`{"id":"b","question":`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"broken task line", []string{"--demo", "--task", broken}, exitUsage, broken + `:2: not a task object`},
		{"missing task file", []string{"--demo", "--task", filepath.Join(dir, "none.jsonl")}, exitUsage, "--task: open"},
		{"no config", nil, exitUsage, "--config is required (or --demo for scripted agents)"},
		{"demo and config", []string{"--demo", "--config", "x.jsonc"}, exitUsage, "--demo measures scripted agents: drop --config"},
		{"accuracy out of range", []string{"--demo", "--agent-accuracy", "1.5"}, exitUsage, "--agent-accuracy must be a probability from 0 to 1"},
		{"resume without a folder", []string{"--demo", "--resume"}, exitUsage, "--resume goes on from a work folder: add the --dir"},
		{"negative problems", []string{"--demo", "--problems", "-1"}, exitUsage, "--problems must be from 1 to 100000 (got -1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, append([]string{"bench", "quality"}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", r.code, tt.code, tt.stderr, r.stderr)
			}
		})
	}
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, nil, "bench", "quality", "--demo", "--problems", "20", "--seed", "3", "--json")
		var got struct {
			Measured int `json:"measured"`
			Arms     []struct {
				Name     string   `json:"name"`
				Expected *float64 `json:"expected"`
			} `json:"arms"`
			Diffs []struct {
				Name string `json:"name"`
			} `json:"diffs"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
			t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		if got.Measured != 20 || len(got.Arms) != 4 || len(got.Diffs) != 2 || got.Arms[0].Expected == nil {
			t.Errorf("measured %d, arms %+v, diffs %+v", got.Measured, got.Arms, got.Diffs)
		}
	})
}

// TestBenchQualityProgress checks the progress bar a terminal gets: a count
// after each chunk, erased before the report.
func TestBenchQualityProgress(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: call{}.getenv,
		term: func(io.Writer) terminal {
			return terminal{ok: true, width: func() int { return 80 }, stop: func() {}}
		},
	}
	if code := e.main([]string{"bench", "quality", "--demo", "--problems", "30"}); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	bar := errb.String()
	for _, want := range []string{"20/30 problems", "30/30 problems"} {
		if !strings.Contains(bar, "\r") || !strings.Contains(bar, want) {
			t.Errorf("stderr lacks %q:\n%q", want, bar)
		}
	}
	if !strings.HasSuffix(bar, "\r\x1b[K") {
		t.Errorf("the bar is not erased at the end: %q", bar)
	}
	if !strings.Contains(out.String(), "debate-vote") {
		t.Errorf("stdout lacks the report:\n%s", out.String())
	}
}
