package agents

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/providers"
)

// cliPackages are the npm packages of the real CLIs.
var cliPackages = map[string]string{"claude": "@anthropic-ai/claude-code", "codex": "@openai/codex", "gemini": "@google/gemini-cli"}

// realCLI returns the path of a real CLI, skipping the test when it is not
// installed, except under CI, where .ci/run installs it.
func realCLI(t *testing.T, name string) string {
	t.Helper()
	return testkit.NeedProgram(t, name, cliPackages[name])
}

// credentialVars are what would give a CLI credentials; the real CLIs run
// here without any.
var credentialVars = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY", "CODEX_API_KEY",
	"CODEX_HOME", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA", "GOOGLE_APPLICATION_CREDENTIALS", "XDG_CONFIG_HOME"}

// bareEnviron is the environment with HOME a fresh folder and no
// credentials: a CLI as a new user has it, who never logged in.
func bareEnviron(t *testing.T) (env []string, home string) {
	home = t.TempDir()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "HOME" && !slices.Contains(credentialVars, name) {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home), home
}

// leftBehind lists the processes that run with home as their HOME.
func leftBehind(home string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), "HOME="+home+"\x00") {
			continue
		}
		pid := filepath.Base(filepath.Dir(p))
		if n, err := strconv.Atoi(pid); err != nil || !alive(n) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
		out = append(out, pid+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

// noneLeftIn fails the test while a process of the CLI's user runs, once
// the run is over (a killed process is gone in moments).
func noneLeftIn(t *testing.T, home string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(leftBehind(home)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := leftBehind(home); len(left) > 0 {
		t.Errorf("processes left running: %q", left)
	}
}

// realRunner is a Runner for one debater played by the real CLI of kind.
func realRunner(t *testing.T, kind, extra string) (*Runner, *configs.Config, string) {
	t.Helper()
	env, home := bareEnviron(t)
	cfg := loadConfig(t, fmt.Sprintf(`{"id": "a", "agent": {"kind": %q, "dir": %q%s}}`, kind, home, extra), `{"id": "b", "model": "m"}`)
	r, err := New(t.Context(), cfg, &apiStub{}, Options{Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	return r, cfg, home
}

// TestRealClaudeCode: the real claude, without credentials, accepts every
// command line debate builds (limits, a resume, a fork, an answer schema)
// and fails as it really does: exit 1 with a result of subtype "success",
// is_error true and "Not logged in · Please run /login", which is a key
// refused: the roster hands the call to the fallback.
func TestRealClaudeCode(t *testing.T) {
	t.Parallel()
	realCLI(t, "claude")
	r, cfg, home := realRunner(t, configs.AgentClaudeCode, `, "model": "sonnet", "maxTurns": 4, "maxBudgetUSD": 0.5, "timeout": 60000`)
	a := cfg.Debaters[0].Agent
	for _, tc := range []struct {
		name string
		prev *session
		fork bool
		json bool
		big  bool
	}{
		{"fresh", nil, false, false, false},
		{"resumed", &session{id: "0b3f8c1e-5d2a-4c7e-9f10-2a6b8d4e1c3f"}, false, false, false},
		{"forked", &session{id: "0b3f8c1e-5d2a-4c7e-9f10-2a6b8d4e1c3f"}, true, false, false},
		{"structured", nil, false, true, false},
		{"a prompt too long for an argument, on standard input", nil, false, false, true},
	} {
		q := request("a", cfg.Debaters[0].Model, "root", "position")
		if tc.big {
			q.Messages = append(q.Messages, providers.Message{Role: "user", Content: strings.Repeat("long prompt ", maxArgPrompt/8)})
		}
		if tc.json {
			q.JSON, q.Schema = true, []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)
		}
		_, err := r.attempt(t.Context(), q, a, tc.prev, tc.fork)
		f, ok := errors.AsType[*failure](err)
		switch {
		case !ok:
			t.Errorf("%s: %v, want a failure", tc.name, err)
		case tc.prev != nil && f.resume:
			// The session is unknown to a new user: the flags parsed.
		case f.class != providers.ClassKeyRefused || !strings.Contains(f.msg, "Not logged in · Please run /login"):
			t.Errorf("%s: %v %q, want auth saying Not logged in · Please run /login", tc.name, f.class, f.msg)
		}
	}
	noneLeftIn(t, home)
}

// TestRealGemini: the real gemini, without credentials, accepts debate's
// command line and exits 41 with its error JSON on standard error, an
// auth failure.
func TestRealGemini(t *testing.T) {
	t.Parallel()
	realCLI(t, "gemini")
	r, cfg, home := realRunner(t, configs.AgentGemini, `, "model": "gemini-2.5-pro", "timeout": 60000`)
	_, err := r.Complete(t.Context(), request("a", cfg.Debaters[0].Model, "root", "position"))
	pe, ok := errors.AsType[*providers.Error](err)
	if !ok || pe.Class != providers.ClassKeyRefused || !strings.Contains(err.Error(), "exited 41") || !strings.Contains(err.Error(), "Please set an Auth method") {
		t.Errorf("%v, want an auth failure: exited 41, Please set an Auth method", err)
	}
	noneLeftIn(t, home)
}

// TestRealCodex: the real codex, without credentials or network, accepts
// debate's command lines (an answer schema, a resume) and, asked afresh,
// prints thread.started, turn.started, then "Reconnecting... n/5" errors
// and does not exit: the participant's timeout ends it, whole, as a
// timeout the roster retries once before the fallback.
func TestRealCodex(t *testing.T) {
	t.Parallel()
	realCLI(t, "codex")
	r, cfg, home := realRunner(t, configs.AgentCodex, `, "model": "gpt-5-codex", "timeout": 8000`)
	a := cfg.Debaters[0].Agent
	q := request("a", cfg.Debaters[0].Model, "root", "judge")
	q.JSON, q.Schema = true, []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)
	_, err := r.attempt(t.Context(), q, a, &session{id: "0b3f8c1e-5d2a-4c7e-9f10-2a6b8d4e1c3f"}, false)
	if f, ok := errors.AsType[*failure](err); !ok || !f.resume {
		t.Errorf("resume of an unknown thread: %v, want a failed resume (the flags parsed)", err)
	}
	start := time.Now()
	_, err = r.Complete(t.Context(), request("a", cfg.Debaters[0].Model, "root", "position"))
	pe, ok := errors.AsType[*providers.Error](err)
	switch {
	case ok && pe.Class == providers.ClassKeyRefused:
		t.Logf("codex reached its server here (a network): %v", err) // offline it reconnects until the timeout
	case !ok || pe.Class != providers.ClassTimeout || !strings.Contains(err.Error(), "Reconnecting..."):
		t.Errorf("%v, want a timeout that names codex's last Reconnecting... error", err)
	}
	if took := time.Since(start); took > 8*time.Second+waitDelay+2*time.Second {
		t.Errorf("took %v, past the 8 s timeout", took)
	}
	noneLeftIn(t, home)
}

// TestRealCheck: check finds each real CLI, reports its version, and names
// what is missing with the command that fixes it.
func TestRealCheck(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude", "codex", "gemini"} {
		realCLI(t, name)
	}
	env, home := bareEnviron(t)
	cfg := loadConfig(t,
		fmt.Sprintf(`{"id": "c", "agent": {"kind": "claude-code", "dir": %q}}`, home),
		fmt.Sprintf(`{"id": "x", "agent": {"kind": "codex", "dir": %q}}`, home),
		fmt.Sprintf(`{"id": "g", "agent": {"kind": "gemini-cli", "dir": %q}}`, home),
		`{"id": "n", "agent": {"kind": "command", "binary": "no-such-agent-cli"}}`)
	rows := Check(t.Context(), cfg, CheckOptions{Timeout: 20 * time.Second, Environ: env})
	want := map[string]struct{ version, result, fix string }{
		"c": {"(Claude Code)", CheckNotLoggedIn, "/login"},
		"x": {"codex-cli ", providers.ClassTimeout.Title(), "codex login"},
		"g": {"gemini ", CheckNotLoggedIn, "GEMINI_API_KEY"},
		"n": {"no-such-agent-cli", CheckMissing, `"binary"`},
	}
	for _, row := range rows {
		w := want[row.Participant]
		if row.Participant == "x" && row.Result == CheckNotLoggedIn {
			w.result = CheckNotLoggedIn // codex reached its server: this machine has a network
		}
		if !strings.Contains(row.Host, w.version) || row.Result != w.result || !strings.Contains(row.Detail, w.fix) || row.Usable {
			t.Errorf("%s: %q %q %q, want version %q, %q, a fix naming %q", row.Participant, row.Host, row.Result, row.Detail, w.version, w.result, w.fix)
		}
	}
	noneLeftIn(t, home)
}
