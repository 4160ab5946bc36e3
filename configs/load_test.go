package configs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// env returns a Getenv over a fixed map.
func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

var testEnv = env(map[string]string{"DEBATE_API_KEY": "sk-default", "KIMI_API_KEY": "sk-kimi", "ANTHROPIC_API_KEY": "sk-anthropic"})

// writeConfig writes text to a config file in a fresh folder and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "debate.jsonc")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// problemsOf returns the Problems in err, failing the test when err is not one.
func problemsOf(t *testing.T, err error) Problems {
	t.Helper()
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("want Problems, got %T: %v", err, err)
	}
	return ps
}

// where formats a problem's position and field, without the file.
func where(p Problem) string {
	return fmt.Sprintf("%d:%d %s", p.Line, p.Col, p.Field)
}

// validBody is the inside of a valid config, for cases that add one mistake.
const validBody = `
  "debaters": [
    { "id": "a", "model": "m1" },
    { "id": "b", "model": "m2" },
  ],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],`

func TestLoadSeed(t *testing.T) {
	cfg, err := Load("testdata/seed.jsonc", Options{Getenv: testEnv})
	if err != nil {
		t.Fatalf("seed config: %v", err)
	}
	if got := cfg.TopicIDs(); !slices.Equal(got, []string{"topic-6"}) {
		t.Errorf("topics = %v", got)
	}
	if len(cfg.Debaters) != 3 || cfg.Debaters[2].Fallback != "claude-sonnet-4-6" {
		t.Errorf("debaters = %+v", cfg.Debaters)
	}
	if cfg.Reviewer == nil || cfg.Reviewer.Label != "评审" || cfg.Reviewer.Model != "qwen3.5-plus" {
		t.Errorf("reviewer = %+v", cfg.Reviewer)
	}
	if cfg.API.APIKey != "sk-default" {
		t.Errorf("api key not expanded: %q", cfg.API.APIKey)
	}
	if cfg.Params.Temperature == nil || *cfg.Params.Temperature != 0.7 {
		t.Errorf("temperature = %v", cfg.Params.Temperature)
	}
	if got := cfg.Output.Dir; got != filepath.Join("testdata", "debate", "output") {
		t.Errorf("output dir = %q, want it resolved against the config's folder", got)
	}
	if !slices.Equal(cfg.Output.Format, Formats{"markdown"}) {
		t.Errorf("format = %v", cfg.Output.Format)
	}
	docs := cfg.SharedContext.Documents
	if len(docs) != 2 || docs[0].Path != "reports/reports/comparison-and-decisions.md" ||
		!strings.Contains(docs[0].Content, "锚点账本") || !strings.Contains(docs[1].Content, "辩论总结") {
		t.Errorf("documents = %+v", docs)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings = %v", cfg.Warnings)
	}
}

func TestLoadExamples(t *testing.T) {
	tests := []struct {
		file     string
		debaters int
		topics   []string
		docs     []string
		formats  Formats
	}{
		{"examples/minimal.jsonc", 2, []string{"cache-invalidation"}, nil, Formats{"markdown"}},
		{"examples/full.jsonc", 3, []string{"billing-extraction", "async-charging"}, []string{"context/decisions.md"}, Formats{"markdown", "html"}},
		{"examples/agents.jsonc", 3, []string{"journal-key"}, nil, Formats{"markdown", "html"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := Load(tt.file, Options{Getenv: testEnv})
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Debaters) != tt.debaters || cfg.Reviewer == nil {
				t.Errorf("debaters = %d, reviewer = %v", len(cfg.Debaters), cfg.Reviewer)
			}
			if got := cfg.TopicIDs(); !slices.Equal(got, tt.topics) {
				t.Errorf("topics = %v, want %v", got, tt.topics)
			}
			var docs []string
			for _, d := range cfg.SharedContext.Documents {
				if strings.TrimSpace(d.Content) == "" {
					t.Errorf("document %s is empty", d.Path)
				}
				docs = append(docs, d.Path)
			}
			if !slices.Equal(docs, tt.docs) {
				t.Errorf("documents = %v, want %v", docs, tt.docs)
			}
			if !slices.Equal(cfg.Output.Format, tt.formats) {
				t.Errorf("formats = %v, want %v", cfg.Output.Format, tt.formats)
			}
			for _, tp := range cfg.Topics {
				if tp.Background == "" || len(tp.CoreQuestions) == 0 {
					t.Errorf("topic %s lacks background or core questions", tp.ID)
				}
			}
		})
	}

	// The full example needs both keys, and a dry run needs neither.
	cfg, err := Load("examples/full.jsonc", Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Endpoint("party-b"); got.APIKey != "sk-kimi" || got.BaseURL != "https://api.moonshot.ai/v1" {
		t.Errorf("party-b endpoint = %+v", got)
	}
	cfg, err = Load("examples/full.jsonc", Options{DryRun: true, Getenv: env(nil)})
	if err != nil {
		t.Fatalf("dry run without keys: %v", err)
	}
	var vars []string
	for _, w := range cfg.Warnings {
		vars = append(vars, w.Field)
	}
	if want := []string{"api.apiKey", "debaters[1].api.apiKey"}; !slices.Equal(vars, want) {
		t.Errorf("warnings on %v, want %v", vars, want)
	}
}

func TestFiveMistakes(t *testing.T) {
	_, err := Load("testdata/five-mistakes.jsonc", Options{Getenv: testEnv})
	ps := problemsOf(t, err)
	want := []struct{ pos, msg string }{
		{"6:5 debaters[1].model", `add a "model" field`},
		{"7:7 debaters[2].id", `duplicate id "party-a"`},
		{"11:5 params.maxRounds", "must be at least 1 (got 0)"},
		{"12:5 params.temprature", `did you mean "temperature"?`},
		{"15:32 sharedContext.files[0]", "cannot read " + filepath.Join("testdata", "missing", "decisions.md")},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(ps), len(want), ps)
	}
	for i, w := range want {
		if got := where(ps[i]); got != w.pos || !strings.Contains(ps[i].Message, w.msg) {
			t.Errorf("problem %d = %q, want at %s containing %q", i, ps[i].Error(), w.pos, w.msg)
		}
		if ps[i].File != "testdata/five-mistakes.jsonc" {
			t.Errorf("problem %d file = %q, want the path as given", i, ps[i].File)
		}
	}
	line := strings.Split(err.Error(), "\n")[0]
	if want := `testdata/five-mistakes.jsonc:6:5: debaters[1].model: required: add a "model" field with the model name, e.g. "gpt-5.2"`; line != want {
		t.Errorf("first line = %q\nwant          %q", line, want)
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "line:col field" then " | " and a message fragment
	}{
		{
			name: "string for a number",
			text: "{" + validBody + "\n  \"params\": { \"maxRounds\": \"3\" },\n}",
			want: []string{"8:15 params.maxRounds | want a number, got string"},
		},
		{
			name: "fraction for a whole number",
			text: "{" + validBody + "\n  \"params\": { \"maxTokensPerResponse\": 3.5 },\n}",
			want: []string{"8:15 params.maxTokensPerResponse | want a whole number, got 3.5"},
		},
		{
			name: "object for a list",
			text: "{" + validBody + "\n  \"sharedContext\": { \"files\": {} },\n}",
			want: []string{"8:22 sharedContext.files | want a list, got object"},
		},
		{
			name: "wrong type in a list",
			text: "{" + validBody + "\n  \"sharedContext\": { \"files\": [true] },\n}",
			want: []string{"8:32 sharedContext.files[0] | want a string, got true/false"},
		},
		{
			name: "format of the wrong type",
			text: "{" + validBody + "\n  \"output\": { \"format\": 1 },\n}",
			want: []string{"8:15 output.format | want a format name or a list"},
		},
		{
			name: "unknown top-level field with a hint",
			text: "{" + validBody + "\n  \"topcs\": [],\n}",
			want: []string{`8:3 topcs | unknown field; did you mean "topics"?`},
		},
		{
			name: "unknown field with a case-only difference",
			text: "{" + validBody + "\n  \"api\": { \"baseUrl\": \"https://x.example/v1\" },\n}",
			want: []string{`8:12 api.baseUrl | did you mean "baseURL"?`},
		},
		{
			name: "unknown field far from every name",
			text: "{" + validBody + "\n  \"zzzzzz\": 1,\n}",
			want: []string{"8:3 zzzzzz | known fields here: api, budget, cache, debaters"},
		},
		{
			name: "misspelt required field is reported once",
			text: `{"debaters": [{"id": "a", "modle": "m1"}, {"id": "b", "model": "m2"}],
 "reviewer": {"id": "r", "model": "m3"}, "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{`1:27 debaters[0].modle | did you mean "model"?`},
		},
		{
			name: "field written twice",
			text: "{" + validBody + "\n  \"params\": { \"maxRounds\": 2, \"maxRounds\": 3 },\n}",
			want: []string{"8:31 params.maxRounds | written twice"},
		},
		{
			name: "no reviewer",
			text: `{
  "debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
  "topics": [{"id": "t", "title": "T"}],
}`,
			want: []string{`1:1 reviewer | add a "reviewer" (or "judge")`},
		},
		{
			name: "judge and reviewer",
			text: "{" + validBody + "\n  \"judge\": { \"id\": \"j\", \"model\": \"m4\" },\n}",
			want: []string{`8:3 judge | keep only one of them`},
		},
		{
			name: "judges and reviewer",
			text: "{" + validBody + "\n  \"judges\": [{ \"id\": \"j\", \"model\": \"m4\" }],\n}",
			want: []string{`6:3 reviewer | keep either "judges" or "reviewer"`},
		},
		{
			name: "empty panel",
			text: `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "judges": [], "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{`2:2 judges | the panel is empty`},
		},
		{
			name: "panel judge clashes",
			text: `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "judges": [{"id": "j", "model": "m3"}, {"id": "j"}], "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{`2:42 judges[1].id | duplicate id "j" (already used by judges[0])`, `2:41 judges[1].model | required`},
		},
		{
			name: "unknown verdict check",
			text: "{" + validBody + "\n  \"params\": { \"verdictCheck\": \"twice\" },\n}",
			want: []string{`8:15 params.verdictCheck | must be "swap"`},
		},
		{
			name: "judge without a model",
			text: `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "judge": {"id": "j"}, "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{`2:11 judge.model | required`},
		},
		{
			name: "reviewer id clashes with a debater",
			text: `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "reviewer": {"id": "a", "model": "m3"}, "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{`2:15 reviewer.id | duplicate id "a" (already used by debaters[0])`},
		},
		{
			name: "one debater, no topics",
			text: `{"debaters": [{"id": "a", "model": "m1"}], "reviewer": {"id": "r", "model": "m3"}}`,
			want: []string{
				"1:1 topics | add at least one topic",
				"1:2 debaters | at least two debaters (found 1)",
			},
		},
		{
			name: "empty model and missing id",
			text: `{"debaters": [{"id": "a", "model": ""}, {"model": "m2"}],
 "reviewer": {"id": "r", "model": "m3"}, "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{"1:27 debaters[0].model | required", "1:41 debaters[1].id | required"},
		},
		{
			name: "out-of-range numbers",
			text: "{" + validBody + `
  "api": { "timeout": 0, "maxRetries": -1, "maxConcurrent": -2, "requestsPerMinute": -3 },
  "params": { "temperature": 2.5, "concurrency": 0, "maxTokensPerResponse": 0, "maxDivergences": 0 },
  "fallback": { "maxConsecutiveFailures": 0, "retryDelay": -1 },
  "budget": { "maxTokens": -5 },
  "pricing": { "m1": { "input": -1, "output": 2 } },
}`,
			want: []string{
				"8:12 api.timeout | must be greater than 0",
				"8:26 api.maxRetries | must be 0 or more (got -1)",
				"8:44 api.maxConcurrent | must be 0 (no cap) or more (got -2)",
				"8:65 api.requestsPerMinute | must be 0 (unlimited) or more (got -3)",
				"9:15 params.temperature | between 0 and 2 (got 2.5)",
				"9:35 params.concurrency | at least 1 (got 0)",
				"9:53 params.maxTokensPerResponse | at least 1 (got 0)",
				"9:80 params.maxDivergences | at least 1 (got 0)",
				"10:17 fallback.maxConsecutiveFailures | at least 1 (got 0)",
				"10:46 fallback.retryDelay | 0 or more milliseconds (got -1)",
				"11:15 budget.maxTokens | 0 (no limit) or more (got -5)",
				`12:24 pricing["m1"].input | price must be 0 to 1000000 per million tokens (got -1)`,
			},
		},
		{
			name: "a money cap below zero and a decision that is none",
			text: "{" + validBody + `
  "params": { "failOn": ["split", "forced"] },
  "budget": { "maxCost": -0.5 },
}`,
			want: []string{
				`8:35 params.failOn[1] | "forced" is not a decision: want any of agreed, decided, split, undecided`,
				"9:15 budget.maxCost | must be 0 (no limit) or more, in the currency of pricing (got -0.5)",
			},
		},
		{
			name: "numbers no one can mean",
			text: "{" + validBody + `
  "api": { "timeout": 18446744073710, "maxRetries": 9223372036854775807, "maxConcurrent": 5000, "requestsPerMinute": 1e9 },
  "params": { "maxRounds": 2147483648, "concurrency": 100000, "maxTokensPerResponse": 50000000, "maxDivergences": 1000 },
  "fallback": { "maxConsecutiveFailures": 1000, "retryDelay": 86400000 },
  "budget": { "maxTokens": 9000000000000000 },
  "pricing": { "m1": { "input": 1, "output": 1e308 } },
}`,
			want: []string{
				"8:12 api.timeout | must be at most 3600000 (one hour in milliseconds), got 18446744073710",
				"8:39 api.maxRetries | must be at most 10 (retries of one call), got 9223372036854775807",
				"8:74 api.maxConcurrent | must be at most 1024 (calls in flight), got 5000",
				"8:97 api.requestsPerMinute | must be at most 1000000 (use 0 for unlimited), got 1e+09",
				"9:15 params.maxRounds | must be at most 10 (levels of debate), got 2147483648",
				"9:40 params.concurrency | must be at most 1024 (calls in flight), got 100000",
				"9:63 params.maxTokensPerResponse | must be at most 1000000 (tokens of one answer), got 50000000",
				"9:97 params.maxDivergences | must be at most 20 (child debates of one node), got 1000",
				"10:17 fallback.maxConsecutiveFailures | must be at most 10 (failed attempts before the fallback), got 1000",
				"10:49 fallback.retryDelay | must be at most 600000 (ten minutes in milliseconds), got 86400000",
				"11:15 budget.maxTokens | must be at most 1000000000000 (a trillion tokens), got 9000000000000000",
				`12:36 pricing["m1"].output | price must be 0 to 1000000 per million tokens (got 1e+308)`,
			},
		},
		{
			name: "invalid UTF-8 in a string",
			text: "{" + validBody + "\n  \"params\": { \"maxRounds\": 2 },\n  \"sharedContext\": { \"inline\": \"caf\xe9\" },\n  \"pricing\": { \"m\xff\": { \"input\": 1 } },\n}",
			want: []string{
				"9:32 sharedContext.inline | the text is not valid UTF-8; save the file as UTF-8",
				"10:16 pricing[\"m\ufffd\"] | the name is not valid UTF-8",
			},
		},
		{
			name: "bad endpoint override",
			text: `{"debaters": [{"id": "a", "model": "m1", "api": {"baseURL": "ftp://x", "timeout": 0, "responseFormat": "xml"}},
 {"id": "b", "model": "m2"}], "reviewer": {"id": "r", "model": "m3"}, "topics": [{"id": "t", "title": "T"}]}`,
			want: []string{
				"1:50 debaters[0].api.baseURL | http or https URL",
				"1:72 debaters[0].api.timeout | greater than 0",
				"1:86 debaters[0].api.responseFormat | (got \"xml\")",
			},
		},
		{
			name: "ids a verdict or a file name cannot carry",
			text: `{"debaters": [{"id": "none", "model": "m1"}, {"id": "N-o-N-e", "model": "m2"}, {"id": "` + strings.Repeat("p", 65) + `", "model": "m2"}],
 "reviewer": {"id": "r", "model": "m3"},
 "topics": [{"id": "` + strings.Repeat("t", 300) + `", "title": "T"}]}`,
			want: []string{
				`1:16 debaters[0].id | "none" is how a verdict says it favors no debater; choose another id`,
				`1:47 debaters[1].id | "N-o-N-e" is how a verdict says it favors no debater`,
				`1:81 debaters[2].id | must be at most 64 bytes (it names files), got 65`,
				`3:14 topics[0].id | must be at most 64 bytes (it names the report's file), got 300`,
			},
		},
		{
			name: "topic ids and titles",
			text: `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "reviewer": {"id": "r", "model": "m3"},
 "topics": [{"id": "a/b", "title": "T"}, {"id": "t", "title": "T"}, {"id": "t", "title": " "}, {"title": "T"}]}`,
			want: []string{
				`3:14 topics[0].id | "a/b" cannot be used in a file name`,
				`3:70 topics[2].id | duplicate topic id "t" (already used by topics[1])`,
				`3:81 topics[2].title | required`,
				`3:96 topics[3].id | required`,
			},
		},
		{
			name: "language, prompts folder and format",
			text: "{" + validBody + `
  "prompts": { "language": "fr", "dir": "no-such-folder" },
  "output": { "format": ["markdown", "pdf"] },
}`,
			want: []string{
				`8:16 prompts.language | must be "en" or "zh" (got "fr")`,
				`8:34 prompts.dir | does not exist`,
				`9:38 output.format[1] | unknown format "pdf"`,
			},
		},
		{
			name: "trailing data",
			text: "{" + validBody + "\n}\n{}",
			want: []string{"9:1  | syntax error: invalid character '{' after top-level value"},
		},
		{
			name: "syntax error column counts runes",
			text: `{"topics": [{"title": "辩题" "id": "x"}]}`,
			want: []string{"1:28  | syntax error"},
		},
		{
			name: "not an object",
			text: `["a"]`,
			want: []string{"1:1  | must be a JSON object"},
		},
		{
			name: "problem column after non-ASCII text counts runes",
			text: `{"topics": [{"title": "辩题", "idd": "x"}], ` + validBody[1:strings.Index(validBody, `"topics"`)] + `}`,
			// The misspelt id is not reported a second time as missing.
			want: []string{`1:29 topics[0].idd | did you mean "id"?`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, tt.text), Options{Getenv: testEnv})
			if err == nil {
				t.Fatal("want problems, got none")
			}
			ps := problemsOf(t, err)
			var got []string
			for _, p := range ps {
				got = append(got, where(p)+" | "+p.Message)
			}
			wantSorted := slices.Clone(tt.want)
			if len(got) != len(wantSorted) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(wantSorted), strings.Join(got, "\n"))
			}
			for _, w := range wantSorted {
				pos, frag, _ := strings.Cut(w, " | ")
				if !slices.ContainsFunc(got, func(g string) bool {
					gpos, gmsg, _ := strings.Cut(g, " | ")
					return gpos == pos && strings.Contains(gmsg, frag)
				}) {
					t.Errorf("missing problem %q in:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

func TestProblemsAreInFileOrder(t *testing.T) {
	_, err := Load("testdata/five-mistakes.jsonc", Options{Getenv: testEnv})
	ps := problemsOf(t, err)
	if !slices.IsSortedFunc(ps, func(a, b Problem) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	}) {
		t.Errorf("problems out of order:\n%v", ps)
	}
}

func TestEnvExpansion(t *testing.T) {
	text := `{
  "api": { "apiKey": "${DEBATE_API_KEY}" },` + validBody + `
  "sharedContext": { "inline": "cost $5, keep $$HOME and ${not a name} and ${A}${B}" },
}`
	tests := []struct {
		name     string
		vars     map[string]string
		dryRun   bool
		problems []string
		warnings []string
		key      string
		inline   string
	}{
		{
			name:   "all set",
			vars:   map[string]string{"DEBATE_API_KEY": "sk-1", "A": "x", "B": "y"},
			key:    "sk-1",
			inline: "cost $5, keep $$HOME and ${not a name} and xy",
		},
		{
			name: "missing",
			vars: map[string]string{"A": "x"},
			problems: []string{
				"2:12 api.apiKey: environment variable DEBATE_API_KEY is not set",
				"9:22 sharedContext.inline: environment variable B is not set",
			},
		},
		{
			name:     "missing under dry run",
			vars:     map[string]string{"A": "x", "B": ""},
			dryRun:   true,
			warnings: []string{"2:12 api.apiKey: environment variable DEBATE_API_KEY is not set"},
			key:      "${DEBATE_API_KEY}",
			inline:   "cost $5, keep $$HOME and ${not a name} and x",
		},
	}
	path := writeConfig(t, text)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(path, Options{DryRun: tt.dryRun, Getenv: env(tt.vars)})
			if tt.problems != nil {
				ps := problemsOf(t, err)
				if len(ps) != len(tt.problems) {
					t.Fatalf("got %v, want %v", ps, tt.problems)
				}
				for i, p := range ps {
					if got := where(p) + ": " + p.Message; !strings.HasPrefix(got, tt.problems[i]) {
						t.Errorf("problem %d = %q, want %q…", i, got, tt.problems[i])
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.API.APIKey != tt.key || cfg.SharedContext.Inline != tt.inline {
				t.Errorf("key %q inline %q, want %q and %q", cfg.API.APIKey, cfg.SharedContext.Inline, tt.key, tt.inline)
			}
			var warnings []string
			for _, w := range cfg.Warnings {
				warnings = append(warnings, where(w)+": "+w.Message)
			}
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings %v, want %v", warnings, tt.warnings)
			}
			for i := range warnings {
				if !strings.HasPrefix(warnings[i], tt.warnings[i]) {
					t.Errorf("warning %d = %q, want %q…", i, warnings[i], tt.warnings[i])
				}
			}
		})
	}
}

func TestExpandString(t *testing.T) {
	getenv := env(map[string]string{"X": "1", "LONG_NAME_2": "two", "EMPTY": ""})
	tests := []struct {
		in, want string
		missing  []string
	}{
		{"plain", "plain", nil},
		{"${X}", "1", nil},
		{"a${X}b${LONG_NAME_2}c", "a1btwoc", nil},
		{"${EMPTY}", "", nil},
		{"$X and $", "$X and $", nil},
		{"$${X}", "$${X}", nil},
		{"$$${X}", "$$1", nil},
		{"$$$${X}", "$$$${X}", nil},
		{"${2X} ${} ${X", "${2X} ${} ${X", nil},
		{"${NOPE}-${X}", "${NOPE}-1", []string{"NOPE"}},
	}
	for _, tt := range tests {
		got, missing := expandString(tt.in, getenv)
		if got != tt.want || !slices.Equal(missing, tt.missing) {
			t.Errorf("expandString(%q) = %q, %v; want %q, %v", tt.in, got, missing, tt.want, tt.missing)
		}
	}
}

func TestJudgeSynonym(t *testing.T) {
	path := writeConfig(t, `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "judge": {"id": "j", "model": "m3", "fallback": "m4"}, "topics": [{"id": "t", "title": "T"}]}`)
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Judge != nil || cfg.Reviewer == nil || cfg.Reviewer.ID != "j" || cfg.Reviewer.Label != "j" || cfg.Reviewer.Fallback != "m4" {
		t.Errorf("reviewer %+v, judge %+v", cfg.Reviewer, cfg.Judge)
	}
	ids := []string{}
	for _, p := range cfg.Participants() {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []string{"a", "b", "j"}) {
		t.Errorf("participants = %v", ids)
	}
}

// TestSelfPreference: a judge whose model, ignoring a vendor prefix, is a
// debater's is a warning, located at the judge's model, that names the fix;
// debaters all of one model family are a warning located at "debaters".
func TestSelfPreference(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string // "line:col field | message fragment"
	}{
		{"reviewer", `{"debaters": [{"id": "a", "model": "openai/m1"}, {"id": "b", "model": "m2"}],
 "reviewer": {"id": "r", "model": "m1"}, "topics": [{"id": "t", "title": "T"}]}`,
			[]string{`2:26 reviewer.model | judge "r" runs m1, as debater "a" does`}},
		{"panel", `{"debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
 "judges": [{"id": "j1", "model": "m3"}, {"id": "j2", "model": "x/m2"}], "params": {"recuse": true}, "topics": [{"id": "t", "title": "T"}]}`,
			[]string{`2:55 judges[1].model | its vote is left out`}},
		{"no overlap", "{" + validBody + "}", nil},
		{"one family", `{"debaters": [{"id": "a", "model": "gpt-5"}, {"id": "b", "model": "openai/gpt-4o"}, {"id": "c", "model": "gpt-4.1-mini"}],
 "reviewer": {"id": "r", "model": "claude-sonnet-4-5"}, "topics": [{"id": "t", "title": "T"}]}`,
			[]string{`1:2 debaters | every debater runs a model of the openai family`}},
		{"mixed families", `{"debaters": [{"id": "a", "model": "gpt-5"}, {"id": "b", "model": "claude-sonnet-4-5"}, {"id": "c", "model": "gemini-2.5-pro"}],
 "reviewer": {"id": "r", "model": "qwen3-max"}, "topics": [{"id": "t", "title": "T"}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Load(writeConfig(t, tt.text), Options{Getenv: testEnv})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range cfg.Warnings {
				got = append(got, where(p)+" | "+p.Message)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("warnings:\n%s\nwant %q", strings.Join(got, "\n"), tt.want)
			}
			for i, w := range tt.want {
				pos, frag, _ := strings.Cut(w, " | ")
				if gpos, gmsg, _ := strings.Cut(got[i], " | "); gpos != pos || !strings.Contains(gmsg, frag) {
					t.Errorf("warning %q, want %q", got[i], w)
				}
			}
		})
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		json string
		want Formats
	}{
		{`"html"`, Formats{"html"}},
		{`["markdown", "json"]`, Formats{"markdown", "json"}},
		{`[]`, Formats{"markdown"}}, // an empty list gets the default
	}
	for _, tt := range tests {
		path := writeConfig(t, "{"+validBody+"\n\"output\": {\"format\": "+tt.json+"}}")
		cfg, err := Load(path, Options{Getenv: testEnv})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cfg.Output.Format, tt.want) {
			t.Errorf("format %s = %v, want %v", tt.json, cfg.Output.Format, tt.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tmpl"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.jsonc")
	text := "{" + validBody + `"prompts": {"dir": "tmpl"}, "fallback": {"retryDelay": 0}, "params": {"parallelCalls": false}}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"api.timeout", cfg.API.Timeout, DefaultTimeout},
		{"api.maxRetries", *cfg.API.MaxRetries, DefaultMaxRetries},
		{"params.maxRounds", cfg.Params.MaxRounds, DefaultMaxRounds},
		{"params.maxDivergences", cfg.Params.MaxDivergences, DefaultMaxDivergences},
		{"params.maxTokensPerResponse", cfg.Params.MaxTokensPerResponse, DefaultMaxTokensPerResponse},
		{"params.parallelCalls (written false)", cfg.ParallelCalls(), false},
		{"params.concurrency", cfg.Params.Concurrency, DefaultConcurrency},
		{"params.synthesis", cfg.Synthesis(), true},
		{"params.temperature is nil", cfg.Params.Temperature == nil, true},
		{"fallback.maxConsecutiveFailures", cfg.Fallback.MaxConsecutiveFailures, DefaultMaxConsecutiveFailures},
		{"fallback.retryDelay (written 0)", cfg.Fallback.RetryDelay, 0},
		{"output.dir", cfg.Output.Dir, filepath.Join(dir, "output")},
		{"output.format", strings.Join(cfg.Output.Format, ","), "markdown"},
		{"prompts.language", cfg.Prompts.Language, "en"},
		{"prompts.dir", cfg.Prompts.Dir, filepath.Join(dir, "tmpl")},
		{"debater label", cfg.Debaters[1].Label, "b"},
		{"reviewer label", cfg.Reviewer.Label, "r"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestEndpoint(t *testing.T) {
	zero := 0
	five := 5
	cfg := &Config{
		API: API{BaseURL: "https://top/v1", APIKey: "top", Timeout: 1000, MaxRetries: &five, RequestsPerMinute: 60},
		Debaters: []Participant{
			{ID: "a", Model: "m"},
			{ID: "b", Model: "m", API: &API{BaseURL: "https://b/v1", APIKey: "kb", MaxRetries: &zero}},
		},
		Reviewer: &Participant{ID: "r", Model: "m", API: &API{Timeout: 9, ResponseFormat: "json_object", MaxConcurrent: 2}},
	}
	tests := []struct {
		id   string
		want API
	}{
		{"a", API{BaseURL: "https://top/v1", APIKey: "top", Timeout: 1000, MaxRetries: &five, RequestsPerMinute: 60}},
		{"b", API{BaseURL: "https://b/v1", APIKey: "kb", Timeout: 1000, MaxRetries: &zero, RequestsPerMinute: 60}},
		{"r", API{BaseURL: "https://top/v1", APIKey: "top", Timeout: 9, MaxRetries: &five, RequestsPerMinute: 60, MaxConcurrent: 2, ResponseFormat: "json_object"}},
		{"unknown", API{BaseURL: "https://top/v1", APIKey: "top", Timeout: 1000, MaxRetries: &five, RequestsPerMinute: 60}},
	}
	for _, tt := range tests {
		got := cfg.Endpoint(tt.id)
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(tt.want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("Endpoint(%q) = %s, want %s", tt.id, gotJSON, wantJSON)
		}
		*got.MaxRetries = 99 // must not write through to the config
	}
	if five != 5 || zero != 0 {
		t.Errorf("Endpoint result aliases the config's MaxRetries")
	}
}

func TestRedactedAndSecrets(t *testing.T) {
	cfg, err := Load("examples/full.jsonc", Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Secrets(); !slices.Equal(got, []string{"sk-default", "sk-kimi"}) {
		t.Errorf("secrets = %v", got)
	}
	red := cfg.Redacted()
	b, err := json.Marshal(red)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"sk-default", "sk-kimi"} {
		if strings.Contains(string(b), s) {
			t.Errorf("redacted JSON contains %q: %s", s, b)
		}
	}
	if red.API.APIKey != "[redacted]" || red.Debaters[1].API.APIKey != "[redacted]" {
		t.Errorf("keys not redacted: %q %q", red.API.APIKey, red.Debaters[1].API.APIKey)
	}
	if red.Reviewer.API.APIKey != "" {
		t.Errorf("empty key became %q", red.Reviewer.API.APIKey)
	}
	// The original keeps its keys, and the copy shares nothing mutable.
	if cfg.API.APIKey != "sk-default" || cfg.Debaters[1].API.APIKey != "sk-kimi" {
		t.Errorf("Redacted changed the original: %q %q", cfg.API.APIKey, cfg.Debaters[1].API.APIKey)
	}
	red.Topics[0].CoreQuestions[0] = "changed"
	*red.Params.Temperature = 1.9
	if cfg.Topics[0].CoreQuestions[0] == "changed" || *cfg.Params.Temperature == 1.9 {
		t.Error("Redacted copy shares memory with the original")
	}
}

func TestTopicByID(t *testing.T) {
	cfg, err := Load("examples/full.jsonc", Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if tp, ok := cfg.TopicByID("async-charging"); !ok || tp.ID != "async-charging" {
		t.Errorf("TopicByID(async-charging) = %v, %v", tp.ID, ok)
	}
	if _, ok := cfg.TopicByID("nope"); ok {
		t.Error("TopicByID(nope) found a topic")
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "absent.jsonc"), Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want it to wrap os.ErrNotExist", err)
	}
}

func TestValidateHandBuilt(t *testing.T) {
	cfg := &Config{
		Debaters: []Participant{{ID: "a", Model: "m"}, {ID: "b", Model: "m"}},
		Judge:    &Participant{ID: "j", Model: "m"},
		Topics:   []Topic{{ID: "t", Title: "T"}},
	}
	cfg.ApplyDefaults()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	if cfg.Reviewer == nil || cfg.Reviewer.ID != "j" {
		t.Errorf("judge not folded: %+v", cfg.Reviewer)
	}
	cfg.Params.MaxRounds = 0
	err := cfg.Validate()
	if got := fmt.Sprint(err); got != "params.maxRounds: must be at least 1 (got 0)" {
		t.Errorf("Validate() = %q", got)
	}
}

func FuzzLoad(f *testing.F) {
	for _, p := range []string{"examples/minimal.jsonc", "examples/full.jsonc", "testdata/seed.jsonc", "testdata/five-mistakes.jsonc"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte(`{"output": {"format": "x"}, "pricing": {"m": {"input": -1}}, "judge": null}`), true)
	f.Add([]byte("{\"topics\": [{\"id\": \"t\", \"title\": \"caf\xe9\"}], \"api\": {\"timeout\": 18446744073710}}"), false)
	f.Add([]byte(`{"sharedContext": {"repository": true}, "topics": [{"id": "t", "title": "x", "sharedContext": {"repository": "sub"}}]}`), false)
	f.Add([]byte(`{"sharedContext": {"repository": 3}}`), false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte, dryRun bool) {
		path := filepath.Join(dir, "fuzz.jsonc")
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, Options{DryRun: dryRun, Getenv: env(map[string]string{"DEBATE_API_KEY": "k"})})
		if err != nil {
			var ps Problems
			if !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("error is not a non-empty Problems: %v", err)
			}
			return
		}
		if len(cfg.Topics) == 0 && len(cfg.Motions) == 0 {
			t.Fatalf("a config without topics or motions passed validation")
		}
		if len(cfg.Topics) > 0 && (cfg.Reviewer == nil || len(cfg.Debaters) < 2) {
			t.Fatalf("a config with topics but without reviewer or debaters passed validation")
		}
		if len(cfg.Motions) > 0 && (cfg.Protocol == nil || cfg.Protocol.Proposer == nil || cfg.Protocol.Opponent == nil || cfg.Protocol.Arbitrator == nil) {
			t.Fatalf("a config with motions but without every protocol role passed validation")
		}
		if a := cfg.API; a.Timeout > MaxTimeout || *a.MaxRetries > MaxRetries || cfg.Params.MaxRounds > MaxRounds ||
			cfg.Params.Concurrency > MaxConcurrency || cfg.Fallback.RetryDelay > MaxRetryDelay ||
			cfg.Fallback.MaxConsecutiveFailures > MaxConsecutiveFailures || cfg.Budget.MaxTokens > MaxBudgetTokens {
			t.Fatalf("a number above its bound passed validation: %+v %+v %+v", cfg.API, cfg.Params, cfg.Fallback)
		}
		if b, _ := json.Marshal(cfg); bytes.ContainsRune(b, utf8.RuneError) &&
			!bytes.ContainsRune(text, utf8.RuneError) && !bytes.Contains(bytes.ToLower(text), []byte(`\ufffd`)) {
			t.Fatalf("invalid UTF-8 became U+FFFD in a config that passed: %s", b)
		}
		_ = cfg.Redacted()
	})
}

// TestKeyVariable: the loader remembers which variable supplied each
// endpoint's key, so that a refused key can be traced to it; a key written
// in the file, or assembled from more than a reference, names none.
func TestKeyVariable(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, `{
  "api": { "apiKey": "${DEBATE_API_KEY}" },
  "debaters": [
    { "id": "a", "model": "m1" },
    { "id": "kimi", "model": "m2", "api": { "baseURL": "https://kimi.example/v1", "apiKey": "${KIMI_API_KEY}" } },
    { "id": "written", "model": "m2", "api": { "apiKey": "sk-in-the-file" } },
    { "id": "mixed", "model": "m2", "api": { "apiKey": "sk-${KIMI_API_KEY}" } },
    { "id": "empty", "model": "m2", "api": { "baseURL": "https://e.example/v1", "apiKey": "${EMPTY_KEY}" } },
  ],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],
}`)
	getenv := env(map[string]string{"DEBATE_API_KEY": "sk-default", "KIMI_API_KEY": "sk-kimi", "EMPTY_KEY": ""})
	cfg, err := Load(path, Options{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ id, want string }{
		{"", "DEBATE_API_KEY"},
		{"a", "DEBATE_API_KEY"},
		{"r", "DEBATE_API_KEY"},
		{"kimi", "KIMI_API_KEY"},
		{"written", ""},
		{"mixed", ""},
		// An empty key overrides nothing: the top-level key is sent.
		{"empty", "DEBATE_API_KEY"},
	}
	for _, tt := range tests {
		if got := cfg.KeyVariable(tt.id); got != tt.want {
			t.Errorf("KeyVariable(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

// TestUnsetVariableOnce: a variable read in two places and not set is one
// problem, at its first use, naming the other; with NoEnv it is no problem
// and is named in Unread, once.
func TestUnsetVariableOnce(t *testing.T) {
	text := `{
  "api": { "apiKey": "${DEBATE_API_KEY}" },` + validBody + `
  "sharedContext": { "inline": "key ${DEBATE_API_KEY}" },
}`
	path := writeConfig(t, text)
	_, err := Load(path, Options{Getenv: env(nil)})
	ps := problemsOf(t, err)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "DEBATE_API_KEY is not set (also read by sharedContext.inline)") || ps[0].Field != "api.apiKey" {
		t.Errorf("problems %v, want one at api.apiKey naming sharedContext.inline", ps)
	}
	cfg, err := Load(path, Options{Getenv: env(map[string]string{"DEBATE_API_KEY": "sk-1"}), NoEnv: true})
	if err != nil || !slices.Equal(cfg.Unread, []string{"DEBATE_API_KEY"}) || cfg.API.APIKey != "${DEBATE_API_KEY}" {
		t.Errorf("NoEnv: %v, unread %v, key %q", err, cfg.Unread, cfg.API.APIKey)
	}
}
