package main

import (
	"encoding/json"
	"fmt"
	"github.com/debatehq/debate/internal/testkit"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/vtscreen"
	"github.com/debatehq/debate/providers/providertest"
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

// TestBenchQualityProgress checks what a terminal shows, with stdout and
// stderr on the same screen: a progress line per problem and arm, erased
// before the report starts, and the report at the terminal's width: the
// table from 80 columns, the arms stacked below.
func TestBenchQualityProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		width int
		shows string
	}{
		{80, "arm          accuracy  95% interval  unreadable"},
		{60, "  accuracy     0."},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.width), func(t *testing.T) {
			t.Parallel()
			var out testkit.Buffer
			e := &env{
				stdin: strings.NewReader(""), stdout: &out, stderr: &out,
				getenv: call{}.getenv,
				term: func(io.Writer) terminal {
					return terminal{ok: true, width: func() int { return tc.width }, stop: func() {}}
				},
			}
			if code := e.main([]string{"bench", "quality", "--demo", "--problems", "30"}); code != exitOK {
				t.Fatalf("exit %d\n%s", code, out.String())
			}
			for _, want := range []string{"0/30 problems · single 1/20", "20/30 problems · debate 10/10", "30/30 problems"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the progress lacks %q:\n%q", want, out.String())
				}
			}
			screen := vtscreen.New(tc.width)
			screen.Write([]byte(out.String()))
			lines := screen.Lines()
			if len(lines) == 0 || !strings.HasPrefix(lines[0], "debate bench quality: task arithmetic") {
				t.Errorf("the screen does not start with the report: %q", lines)
			}
			text := strings.Join(lines, "\n")
			if !strings.Contains(text, tc.shows) || strings.ContainsAny(text, "█░") {
				t.Errorf("the screen at %d columns lacks %q or keeps progress:\n%s", tc.width, tc.shows, text)
			}
			for _, line := range lines {
				if n := utf8.RuneCountInString(line); n > tc.width {
					t.Errorf("a line of %d columns wraps on a terminal of %d: %q", n, tc.width, line)
				}
			}
		})
	}
}

// TestBenchQualityNoAnswerLine runs the command against models that never
// write an answer line: every arm is warned about with a sample of what
// the models wrote, the reading line says to fix that first, cost per
// correct answer is "—", and the exit status is 1.
func TestBenchQualityNoAnswerLine(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 1, "")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "bench", "quality", "--config", cfgPath, "--problems", "5")
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	for _, want := range []string{
		`warning: single: no answer line in 5 of 5 answers, e.g. "Position of m-a: I`,
		`warning: debate: no answer line in 5 of 5 answers, e.g. "Do yes"`,
		"Reading: fix the unreadable answers first",
		"—\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "too many answers lack an answer line; see the warnings") {
		t.Errorf("stderr does not say why the status is 1:\n%s", r.stderr)
	}
}
