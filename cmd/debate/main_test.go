package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/providers/providertest"
)

// result is what one invocation of the program left behind.
type result struct {
	code           int
	stdout, stderr string
}

// invoke runs the program in-process with the given environment variables
// (and no others) and returns its exit code and output. No server is
// started on demand.
func invoke(t *testing.T, vars map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: call{vars: vars}.getenv,
		spawn:  helperProcess,
	}
	code := e.main(args)
	return result{code, out.String(), errb.String()}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string
		stderr     []string
		noStdout   bool
		stderrNone bool
	}{
		{name: "no arguments", args: nil, code: exitUsage, stderr: []string{"USAGE", "COMMANDS"}, noStdout: true},
		{name: "help", args: []string{"--help"}, code: exitOK, stdout: []string{"run ", "validate", "version"}},
		{name: "unknown command", args: []string{"argue"}, code: exitUsage, stderr: []string{`unknown command "argue"`, "COMMANDS"}},
		{name: "misspelt command", args: []string{"runn"}, code: exitUsage, stderr: []string{`unknown command "runn": did you mean "run"?`}},
		{name: "misspelt flag", args: []string{"run", "--confg", "x.jsonc"}, code: exitUsage, stderr: []string{"unknown flag: --confg (did you mean --config?)"}},
		{name: "misspelt command in help", args: []string{"help", "rnu"}, code: exitUsage, stderr: []string{`unknown command "rnu": did you mean "debate run"?`}},
		{name: "misspelt subcommand in help", args: []string{"help", "docs", "craete"}, code: exitUsage, stderr: []string{`did you mean "debate docs create"?`}},
		{name: "misspelt role", args: []string{"guide", "proposr"}, code: exitUsage, stderr: []string{`unknown role "proposr": did you mean "debate guide proposer"?`}},
		{name: "unknown agent for install", args: []string{"guide", "install", "--for", "cursor"}, code: exitUsage, stderr: []string{`--for "cursor": want claude, codex, gemini`}},
		{name: "config without its flag", args: []string{"validate", "x.jsonc"}, code: exitUsage, stderr: []string{`unexpected argument "x.jsonc"`, "did you mean --config x.jsonc?"}},
		{name: "switches shown as switches", args: []string{"help", "run"}, code: exitOK, stdout: []string{"      --dry-run  "}},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: []string{"debate "}},
		{name: "run help documents exit codes", args: []string{"help", "run"}, code: exitOK,
			stdout: []string{"USAGE", "FLAGS", "EXAMPLES", "EXIT CODES", "130", "--dry-run", "--topic", "--max-rounds", "--concurrency", "--format", "NO_COLOR"}},
		{name: "validate help", args: []string{"validate", "-h"}, code: exitOK, stdout: []string{"EXIT CODES", "--config"}},
		{name: "run without config", args: []string{"run"}, code: exitUsage, stderr: []string{"--config is required"}},
		{name: "unknown decision to fail on", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--fail-on", "split,forced"}, code: exitUsage,
			stderr: []string{`--fail-on: "forced" is not a decision: want any of agreed, decided, split, undecided`}},
		{name: "strict budget without a cap", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--demo", "--strict-budget"}, code: exitUsage,
			stderr: []string{"--strict-budget needs budget.maxCost in the config"}},
		{name: "unknown flag", args: []string{"run", "--rounds", "3"}, code: exitUsage, stderr: []string{"unknown flag: --rounds", `debate help run`}},
		{name: "bad max rounds", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--max-rounds", "0"}, code: exitUsage,
			stderr: []string{"--max-rounds must be from 1 to 10 (levels of debate), got 0: give a number in that range, or leave the flag out to use params.maxRounds"}},
		{name: "max rounds over the bound", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--dry-run", "--max-rounds", fmt.Sprint(configs.MaxRounds + 1)}, code: exitUsage,
			stderr: []string{"--max-rounds must be from 1 to 10 (levels of debate), got 11", "params.maxRounds", `debate help run`}, noStdout: true},
		{name: "max rounds at the bound", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--dry-run", "--max-rounds", fmt.Sprint(configs.MaxRounds)}, code: exitOK},
		{name: "huge max rounds", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--max-rounds", "2147483648"}, code: exitUsage,
			stderr: []string{"--max-rounds must be from 1 to 10 (levels of debate), got 2147483648"}},
		{name: "bad concurrency", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--concurrency", "-2"}, code: exitUsage,
			stderr: []string{"--concurrency must be from 1 to 1024 (calls in flight), got -2: give a number in that range, or leave the flag out to use params.concurrency"}},
		{name: "concurrency over the bound", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--dry-run", "--concurrency", fmt.Sprint(configs.MaxConcurrency + 1)}, code: exitUsage,
			stderr: []string{"--concurrency must be from 1 to 1024 (calls in flight), got 1025"}, noStdout: true},
		{name: "concurrency at the bound", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--dry-run", "--concurrency", fmt.Sprint(configs.MaxConcurrency)}, code: exitOK},
		{name: "bad format", args: []string{"run", "-c", "../../configs/examples/minimal.jsonc", "--format", "pdf"}, code: exitUsage,
			stderr: []string{`--format "pdf": want one of markdown, json, html`}},
		{name: "stray argument", args: []string{"run", "debate.jsonc"}, code: exitUsage,
			stderr: []string{`unexpected argument "debate.jsonc"`, "--config debate.jsonc"}},
		{name: "unknown topic lists the known ids", args: []string{"run", "-c", "../../configs/examples/full.jsonc", "--dry-run", "--topic", "nope"}, code: exitUsage,
			stderr: []string{`--topic "nope": no such topic`, "known ids: billing-extraction, async-charging"}, noStdout: true},
		{name: "missing config file", args: []string{"validate", "-c", "does-not-exist.jsonc"}, code: exitUsage,
			stderr: []string{"does-not-exist.jsonc"}},
		{name: "bench without a benchmark", args: []string{"bench"}, code: exitUsage, stderr: []string{"debate bench tree", "debate bench serve"}},
		{name: "bench help", args: []string{"help", "bench"}, code: exitOK, stdout: []string{"bench tree", "bench serve", "--json"}},
		{name: "bench unknown benchmark", args: []string{"bench", "disk"}, code: exitUsage, stderr: []string{`unknown benchmark "disk" (want tree or serve or quality)`}},
		{name: "bench tree help", args: []string{"bench", "tree", "--help"}, code: exitOK,
			stdout: []string{"USAGE", "--topics", "--debaters", "--fanout", "--depth", "--latency", "--concurrency", "--faults", "--json", "EXIT CODES"}},
		{name: "bench serve help", args: []string{"bench", "serve", "-h"}, code: exitOK, stdout: []string{"--writers", "--pollers", "--duration", "--json"}},
		{name: "bench bad fan-out", args: []string{"bench", "tree", "--fanout", "0"}, code: exitUsage,
			stderr: []string{"--fanout must be from 1 to 10 (got 0)", "debate help bench tree"}},
		{name: "bench bad faults", args: []string{"bench", "tree", "--faults", "1.5"}, code: exitUsage, stderr: []string{"--faults must be a share from 0 to below 1"}},
		{name: "bench bad duration", args: []string{"bench", "serve", "--duration", "1ms"}, code: exitUsage, stderr: []string{"--duration must be from 100ms"}},
		{name: "bench stray argument", args: []string{"bench", "serve", "fast"}, code: exitUsage, stderr: []string{`unexpected argument "fast"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
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
			if tt.noStdout && r.stdout != "" {
				t.Errorf("stdout should be empty, got:\n%s", r.stdout)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	keys := map[string]string{"DEBATE_API_KEY": "sk-a", "KIMI_API_KEY": "sk-b", "ANTHROPIC_API_KEY": "sk-c"}
	t.Run("examples are valid", func(t *testing.T) {
		t.Parallel()
		files, _ := filepath.Glob("../../configs/examples/*.jsonc")
		if len(files) < 4 {
			t.Fatalf("%d example configs: %q", len(files), files)
		}
		for _, f := range files {
			r := invoke(t, keys, "validate", "--config", f)
			if filepath.Base(f) == "openrouter.jsonc" {
				// One key, and only that one; not even a warning.
				r = invoke(t, map[string]string{"OPENROUTER_API_KEY": "sk-or-a"}, "validate", "--config", f)
				if r.stderr != "" {
					t.Errorf("%s: %s", f, r.stderr)
				}
			}
			if r.code != exitOK || !strings.Contains(r.stdout, ": ok (") {
				t.Errorf("%s: exit %d\n%s%s", f, r.code, r.stdout, r.stderr)
			}
		}
	})
	t.Run("five mistakes are five located errors", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, keys, "validate", "--config", "../../configs/testdata/five-mistakes.jsonc")
		if r.code != exitUsage {
			t.Fatalf("exit %d, want %d", r.code, exitUsage)
		}
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 5 {
			t.Fatalf("%d lines, want 5:\n%s", len(lines), r.stderr)
		}
		for _, want := range []string{"unknown field", "model", "duplicate", "maxRounds", "sharedContext.files"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("errors do not mention %q:\n%s", want, r.stderr)
			}
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "../../configs/testdata/five-mistakes.jsonc:") {
				t.Errorf("error without file:line:col: %q", l)
			}
		}
	})
	t.Run("template overrides that a run would refuse are located problems", func(t *testing.T) {
		dir := t.TempDir()
		tmpl := filepath.Join(dir, "tmpl")
		if err := os.Mkdir(tmpl, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmpl, "notes.txt"), []byte("not a template"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(dir, "debate.jsonc")
		text := `{"api": {"baseURL": "http://127.0.0.1:1/v1", "apiKey": "k"},
 "debaters": [{"id": "a", "model": "m"}, {"id": "b", "model": "m"}],
 "reviewer": {"id": "r", "model": "m"},
 "topics": [{"id": "t", "title": "T"}],
 "prompts": {"dir": "tmpl"}}`
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"validate", "run"} {
			r := invoke(t, nil, cmd, "--config", cfg, "--output", filepath.Join(dir, "out"))
			if cmd == "validate" {
				r = invoke(t, nil, cmd, "--config", cfg)
			}
			if r.code != exitUsage || !strings.Contains(r.stderr, cfg+":5:") || !strings.Contains(r.stderr, "prompts.dir: ") || !strings.Contains(r.stderr, "notes.txt") {
				t.Errorf("%s: exit %d, want %d and a problem at prompts.dir naming notes.txt:\n%s", cmd, r.code, exitUsage, r.stderr)
			}
		}
	})
	t.Run("a model taken for a reasoning model is named with what it is not sent", func(t *testing.T) {
		t.Parallel()
		cfg := filepath.Join(t.TempDir(), "debate.jsonc")
		text := `{"api": {"baseURL": "http://127.0.0.1:1/v1", "apiKey": "k"},
 "debaters": [{"id": "a", "model": "o3-deployment", "temperature": 0.7}, {"id": "b", "model": "m", "fallback": "openai/gpt-5-mini"}],
 "reviewer": {"id": "r", "model": "m"},
 "topics": [{"id": "t", "title": "T"}]}`
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r := invoke(t, nil, "validate", "--config", cfg)
		want := cfg + ": ok (2 debaters, 1 topic)\n" +
			`note: debater "a" runs o3-deployment, taken for a reasoning model by its name: temperature 0.7 (its own) is not sent, and its token limit goes as max_completion_tokens, not max_tokens` + "\n" +
			`note: debater "b" falls back to openai/gpt-5-mini, taken for a reasoning model by its name: its token limit goes as max_completion_tokens, not max_tokens` + "\n"
		if r.code != exitOK || r.stdout != want {
			t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
		}
	})
	t.Run("a missing variable names itself and the field", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, map[string]string{"KIMI_API_KEY": "sk-b"}, "validate", "--config", "../../configs/examples/full.jsonc")
		if r.code != exitUsage || !strings.Contains(r.stderr, "api.apiKey: environment variable DEBATE_API_KEY is not set") {
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
	})
}

// TestDryRun checks the dry run of both examples: no key needed, exit 0, every
// round-1 prompt printed with the shared context in it, nothing written.
func TestDryRun(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"minimal", "full"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := filepath.Join("../../configs/examples", name+".jsonc")
			r := invoke(t, nil, "run", "--config", cfg, "--dry-run", "--seed", "1", "--output", dir)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "DEBATE_API_KEY is not set") {
				t.Errorf("no warning about the missing key:\n%s", r.stderr)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a dry run wrote %d files", len(entries))
			}
			out := strings.ReplaceAll(r.stdout, dir, "<output>")
			golden.Assert(t, filepath.Join("testdata", "dry-run-"+name+".txt"), []byte(out))
		})
	}
	t.Run("motion", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, map[string]string{"DEBATE_DB": "/data/debate.db"}, "run", "--config", "../../configs/examples/motion.jsonc", "--dry-run")
		if r.code != exitOK {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		for _, want := range []string{"database    /data/debate.db", "calls       at most 5 a turn with repairs, so 40 per motion", "MOTION webhook-retries"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("dry run lacks %q", want)
			}
		}
		golden.Assert(t, filepath.Join("testdata", "dry-run-motion.txt"), []byte(r.stdout))
	})
	t.Run("motion on PostgreSQL hides the password", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, map[string]string{"DEBATE_DB": "postgres://debate:s3cret@db.internal/debates"}, "run", "--config", "../../configs/examples/motion.jsonc", "--dry-run")
		if r.code != exitOK {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "database    postgres://REDACTED@db.internal/debates") || strings.Contains(r.stdout+r.stderr, "s3cret") {
			t.Errorf("dry run shows the database as:\n%s", r.stdout)
		}
	})
	t.Run("full has every round-1 prompt and the shared context", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, nil, "run", "--config", "../../configs/examples/full.jsonc", "--dry-run")
		ctx, err := os.ReadFile("../../configs/examples/context/decisions.md")
		if err != nil {
			t.Fatal(err)
		}
		firstLine := strings.SplitN(string(ctx), "\n", 2)[0]
		for _, topic := range []string{"billing-extraction", "async-charging"} {
			if !strings.Contains(r.stdout, "TOPIC "+topic) {
				t.Errorf("no section for topic %s", topic)
			}
		}
		for _, p := range []string{"party-a", "party-b", "party-c"} {
			if n := strings.Count(r.stdout, "round 1 · position · "+p); n != 2 {
				t.Errorf("%d round-1 prompts for %s, want 2", n, p)
			}
		}
		if n := strings.Count(r.stdout, firstLine); n != 6 {
			t.Errorf("shared context appears %d times, want once per round-1 call (6)", n)
		}
		for _, tmpl := range []string{"child_position_involved.tmpl", "child_position_uninvolved.tmpl", "rebuttal.tmpl", "triage.tmpl", "forced_verdict.tmpl", "repair.tmpl"} {
			if !strings.Contains(r.stdout, tmpl) {
				t.Errorf("later-step template %s not shown", tmpl)
			}
		}
	})
	t.Run("topic selection", func(t *testing.T) {
		t.Parallel()
		r := invoke(t, nil, "run", "--config", "../../configs/examples/full.jsonc", "--dry-run", "--topic", "async-charging")
		if strings.Contains(r.stdout, "TOPIC billing-extraction") || !strings.Contains(r.stdout, "TOPIC async-charging") {
			t.Errorf("--topic async-charging printed the wrong topics")
		}
		if !strings.Contains(r.stdout, "topics       1: async-charging") {
			t.Errorf("plan does not list the one topic:\n%s", r.stdout[:min(len(r.stdout), 600)])
		}
	})
}

// TestDryRunPlanAlignsCJK: the plan's participant lines line up on a
// terminal when labels mix Chinese and Latin letters, and counts read as
// words ("1 topic").
func TestDryRunPlanAlignsCJK(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	cfgPath := writeConfig(t, srv, 2, "")
	b, _ := os.ReadFile(cfgPath)
	cfg := strings.NewReplacer(`"label": "Party A"`, `"label": "甲方代表"`, `"label": "Judge"`, `"label": "裁判"`).Replace(string(b))
	os.WriteFile(cfgPath, []byte(cfg), 0o644)
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--dry-run")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	cols := map[int]bool{}
	for _, line := range strings.Split(r.stdout, "\n") {
		if i := strings.Index(line, " m-"); i >= 0 && strings.Contains(line, srv.URL()) {
			cols[textwidth.String(line[:i])] = true
		}
	}
	if len(cols) != 1 {
		t.Errorf("model columns start at %v columns, want one place:\n%s", cols, r.stdout)
	}
	v := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "validate", "-c", cfgPath)
	if !strings.Contains(v.stdout, "ok (3 debaters, 1 topic)") {
		t.Errorf("validate says %q", v.stdout)
	}
}

// TestHelpFitsEightyColumns: every help text, the top one and each
// command's (through "debate help X", "X --help" and, for a command with
// subcommands, each of theirs), fits a terminal of 80 columns, and its
// examples paste into a shell.
func TestHelpFitsEightyColumns(t *testing.T) {
	t.Parallel()
	texts := map[string]string{"debate --help": invoke(t, nil, "--help").stdout}
	for _, c := range commands() {
		for _, c := range append([]*command{c}, c.subs...) {
			words := strings.Fields(c.name)
			texts["debate help "+c.name] = invoke(t, nil, append([]string{"help"}, words...)...).stdout
			texts["debate "+c.name+" --help"] = invoke(t, nil, append(words, "--help")...).stdout
		}
	}
	for name, text := range texts {
		if strings.TrimSpace(text) == "" {
			t.Errorf("%s prints no help", name)
		}
		// Words from outside the product, and pflag's way of showing a switch.
		if w := foreignWord(text); w != "" {
			t.Errorf("%s holds %q", name, w)
		}
		if strings.Contains(text, "[=true|false]") {
			t.Errorf("%s shows a switch as taking a value", name)
		}
		// An example continued on the next line pastes into a shell as is.
		if strings.Contains(text, `\\`) {
			t.Errorf("%s holds a doubled backslash, which a shell does not take for a line continuation", name)
		}
		for i, line := range strings.Split(text, "\n") {
			if w := textwidth.String(line); w > 80 {
				t.Errorf("%s: line %d takes %d columns, want at most 80:\n%s", name, i+1, w, line)
			}
		}
	}
}
