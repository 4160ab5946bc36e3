package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// fake is the path of one of the fake CLIs.
func fake(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "providers", "agents", "testdata", "fake", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gitRepo makes a repository with one committed file and returns its
// folder. Git does not ignore the run's out/ and cache/ folders in it: the
// run leaves them out of the repository's state itself.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"main.go": "package main\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// judgeServer is the scripted API: the judge agrees, every other model
// answers with a short text.
func judgeServer(t *testing.T) *providertest.Server {
	return providertest.New(t, scripted.WithScript(func(c scripted.Call) scripted.Reply {
		if c.Model == "m-judge" {
			return scripted.JSON(map[string]any{"consensus": []map[string]string{{"point": "the code is small", "detail": "one file"}},
				"divergences": []any{}, "forcedVerdicts": []any{}})
		}
		return scripted.Text("An API debater's answer.")
	}))
}

// agentConfig writes a config in dir with the debaters given and loads it.
func agentConfig(t *testing.T, dir, url string, debaters ...string) *configs.Config {
	t.Helper()
	return agentConfigWith(t, dir, url, "", debaters...)
}

// agentConfigWith is agentConfig with more top-level fields, each followed
// by a comma.
func agentConfigWith(t *testing.T, dir, url, more string, debaters ...string) *configs.Config {
	t.Helper()
	body := fmt.Sprintf(`{%s
  "api": {"baseURL": %q, "apiKey": "k"},
  "debaters": [%s],
  "reviewer": {"id": "judge", "model": "m-judge"},
  "params": {"maxRounds": 1, "synthesis": false, "seed": 7},
  "fallback": {"retryDelay": 10},
  "pricing": {"gpt-5-codex": {"input": 1.25, "output": 10, "cachedInput": 0.125}},
  "topics": [{"id": "code", "title": "What does main.go do?"}],
  "output": {"dir": "out", "format": "json"},
  "cache": {"dir": "cache"}
}`, more, url, strings.Join(debaters, ",\n"))
	path := filepath.Join(dir, "debate.jsonc")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Load(path, configs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// lines counts the runs a fake logged.
func lines(t *testing.T, log string) []string {
	b, _ := os.ReadFile(log)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func readRun(t *testing.T, dir string) *tree.Run {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var run tree.Run
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	return &run
}

// TestAgentDebaters: a debate with a Claude Code, a Codex and an API
// debater: each answers, their usage and cost are in run.json, Claude
// Code's rebuttal resumes its position's session (the fake records the
// --resume), Codex's continues its thread. A second run on the unchanged
// repository (the first run's reports and cache inside it, not ignored)
// makes no call at all; after one file changes, the agents are
// asked again, and every call whose prompt did not change (here: all of
// the API's, since the fakes answer as before) comes from the cache.
func TestAgentDebaters(t *testing.T) {
	t.Parallel()
	repo, logs := gitRepo(t), t.TempDir()
	clog, xlog := filepath.Join(logs, "claude"), filepath.Join(logs, "codex")
	srv := judgeServer(t)
	cfg := agentConfig(t, repo, srv.URL(),
		fmt.Sprintf(`{"id": "claude", "agent": {"kind": "claude-code", "binary": %q, "args": ["--fake-log=%s"]}}`, fake(t, "claude"), clog),
		fmt.Sprintf(`{"id": "codex", "model": "gpt-5-codex", "agent": {"kind": "codex", "binary": %q, "args": ["--fake-log=%s"]}}`, fake(t, "codex"), xlog),
		`{"id": "api", "model": "m-api"}`)
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	run := readRun(t, cfg.Output.Dir)
	topic := run.Topics[0]
	if topic.Status != tree.Converged {
		t.Fatalf("topic %s: %+v", topic.Status, topic.Root.Errors)
	}
	if got := topic.Root.Positions["claude"]; !strings.Contains(got, "Position of claude-code") {
		t.Errorf("claude's position %q", got)
	}
	c, cu := run.ByModel["claude-code"], run.ByModel["codex/gpt-5-codex"]
	if c.Calls != 2 || c.PromptTokens != 400 || c.CompletionTokens != 80 || math.Abs(c.Cost-0.025) > 1e-9 {
		t.Errorf("claude-code usage %+v, want 2 calls, 400 prompt and 80 completion tokens, cost 0.025", c)
	}
	if want := 2 * (500*1.25 + 1500*0.125 + 300*10) / 1e6; cu.Calls != 2 || cu.CachedPromptTokens != 3000 || math.Abs(cu.Cost-want) > 1e-9 {
		t.Errorf("codex usage %+v, want 2 calls, 3000 cached tokens, cost %g from pricing", cu, want)
	}
	cl := lines(t, clog)
	sessions := map[string]tree.AgentSession{}
	for _, ss := range topic.Sessions {
		sessions[ss.Participant] = ss
	}
	cs, xs := sessions["claude"], sessions["codex"]
	if len(topic.Sessions) != 2 || strings.Join(cs.Calls, ",") != "root position,root rebuttal" ||
		!strings.Contains(cl[1], "--resume\x1f"+cs.ID+"\x1f") {
		t.Errorf("sessions %+v; claude's runs:\n%q", topic.Sessions, cl)
	}
	if xl := lines(t, xlog); xs.ID == "" || !strings.Contains(xl[1], "\x1fresume\x1f"+xs.ID) {
		t.Errorf("codex's rebuttal does not continue its thread %s: %q", xs.ID, xl[1])
	}

	// The same repository again: every answer comes from the cache.
	calls := srv.Count()
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	if n, m, k := len(lines(t, clog)), len(lines(t, xlog)), srv.Count(); n != 2 || m != 2 || k != calls {
		t.Errorf("second run: claude ran %d times, codex %d, the API %d calls; want 2, 2 and %d (nothing new)", n, m, k, calls)
	}

	// One file changes: the agents read it again.
	if err := os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	if n, m, k := len(lines(t, clog)), len(lines(t, xlog)), srv.Count(); n != 4 || m != 4 || k != calls {
		t.Errorf("after a change: claude ran %d times, codex %d, the API %d calls; want 4, 4 and %d", n, m, k, calls)
	}
	if cache := readRun(t, cfg.Output.Dir).Topics[0].Cache; cache == nil || cache.Fresh != 4 || cache.Cached != 3 {
		t.Errorf("after a change, cache use %+v; want 4 fresh (the agents) and 3 cached (the API's)", cache)
	}
}

// TestAgentQuotesRepository: a Claude Code debater quotes a file of the
// repository it runs in, and invents a line of it: with the repository
// shared, the first quote is verified with its line and the second is
// not, with the reason, as the judge reads them and run.json records.
func TestAgentQuotesRepository(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	srv := judgeServer(t)
	cfg := agentConfigWith(t, repo, srv.URL(), `"sharedContext": {"repository": true},`,
		fmt.Sprintf(`{"id": "claude", "agent": {"kind": "claude-code", "binary": %q, "args": ["--fake-mode=quote"]}}`, fake(t, "claude")),
		`{"id": "api", "model": "m-api"}`)
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	run := readRun(t, cfg.Output.Dir)
	if run.Repository == nil || run.Repository.Head == "" {
		t.Fatalf("run.json records no repository state: %+v", run.Repository)
	}
	var got []tree.Quote
	for _, a := range run.Topics[0].Root.Quotes {
		if a.Participant == "claude" && a.Step == tree.StepPosition {
			got = a.Quotes
		}
	}
	want := []tree.Quote{
		{Text: "package main", Status: tree.QuoteVerified, Document: "main.go", FirstLine: 1, LastLine: 1, Repository: true},
		{Text: "func invented() {}", Status: tree.QuoteUnverified, Reason: "not found in main.go",
			Because: []tree.Reason{tree.Because(tree.ReasonCode(quote.NotFoundIn), "main.go")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("claude's quotes %+v, want %+v", got, want)
	}
	var judge *scripted.Call
	for _, c := range srv.Calls() {
		if c.Model == "m-judge" {
			judge = &c
		}
	}
	if judge == nil {
		t.Fatal("the judge was never called")
	}
	for _, w := range []string{`<quote status="verified" doc="main.go" lines="1">package main</quote>`,
		`<quote status="unverified" reason="not found in main.go">func invented() {}</quote>`} {
		if !judge.Contains(w) {
			t.Errorf("the judge does not read %q:\n%s", w, judge.Body)
		}
	}
}

// TestAgentFailuresFallBack: an agent that never exits, one that prints
// 100 MB, one that asks for a permission on its terminal and one that is
// not logged in: each is ended within its timeout (whole: nothing it
// started runs on), the failure is named in the run, and the debater's
// fallback model answers.
func TestAgentFailuresFallBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mode, reason string }{
		{"hang", "timeout"},
		{"flood", "answer too large"},
		{"permission", "timeout"},
		{"login", "key refused"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			repo, log := gitRepo(t), filepath.Join(t.TempDir(), "log")
			srv := judgeServer(t)
			cfg := agentConfig(t, repo, srv.URL(),
				fmt.Sprintf(`{"id": "claude", "fallback": "m-fallback", "agent": {"kind": "claude-code", "binary": %q, "timeout": 1500, "maxOutputBytes": 1048576, "args": ["--fake-mode=%s", "--fake-log=%s"]}}`, fake(t, "claude"), tc.mode, log),
				`{"id": "api", "model": "m-api"}`)
			cfg.Cache.Dir = ""
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			if _, err := Run(ctx, cfg, Options{}); err != nil {
				t.Fatal(err)
			}
			topic := readRun(t, cfg.Output.Dir).Topics[0]
			if topic.Status != tree.Converged || topic.Root.Positions["claude"] != "An API debater's answer." {
				t.Errorf("status %s, claude's position %q: the fallback did not answer", topic.Status, topic.Root.Positions["claude"])
			}
			if len(topic.Fallbacks) != 1 || topic.Fallbacks[0].From != "claude-code" || !strings.Contains(topic.Fallbacks[0].Reason, tc.reason) {
				t.Errorf("fallbacks %+v, want one from claude-code naming %q", topic.Fallbacks, tc.reason)
			}
			b, _ := os.ReadFile(log + ".pids")
			for _, f := range strings.Fields(strings.ReplaceAll(string(b), "group", "")) {
				pid, _ := strconv.Atoi(f)
				if syscall.Kill(pid, 0) == nil && !zombie(pid) {
					t.Errorf("process %d the fake started still runs", pid)
				}
			}
		})
	}
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		if _, rest, _ := strings.Cut(string(b), ") "); strings.HasPrefix(rest, "Z") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// TestRealAgentsFallBack: the real Claude Code, Codex and Gemini CLI, as
// a new user without credentials or network has them, each fail as they
// do — not logged in, reconnecting until the timeout, exit 41 — and each
// debater's fallback model answers; nothing they started runs on.
func TestRealAgentsFallBack(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude", "codex", "gemini"} {
		testkit.NeedProgram(t, name, "it with npm")
	}
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name != "HOME" && !strings.Contains(name, "API_KEY") && !strings.Contains(name, "TOKEN") && !strings.HasPrefix(name, "GOOGLE_") && name != "CODEX_HOME" {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home)
	repo := gitRepo(t)
	srv := judgeServer(t)
	cfg := agentConfig(t, repo, srv.URL(),
		`{"id": "claude", "agent": "claude-code", "fallback": "m-fb1"}`,
		`{"id": "codex", "agent": {"kind": "codex", "timeout": 4000}, "fallback": "m-fb2"}`,
		`{"id": "gemini", "agent": "gemini-cli", "fallback": "m-fb3"}`)
	cfg.Cache.Dir = ""
	if _, err := Run(t.Context(), cfg, Options{AgentEnviron: env}); err != nil {
		t.Fatal(err)
	}
	topic := readRun(t, cfg.Output.Dir).Topics[0]
	if topic.Status != tree.Converged {
		t.Errorf("status %s", topic.Status)
	}
	want := map[string]string{"claude": "key refused", "codex": "failed attempts, last timeout", "gemini": "key refused"}
	for _, fb := range topic.Fallbacks {
		if !strings.Contains(fb.Reason, want[fb.Participant]) {
			t.Errorf("%s fell back for %q, want %q", fb.Participant, fb.Reason, want[fb.Participant])
		}
		delete(want, fb.Participant)
	}
	if len(want) > 0 {
		t.Errorf("no fallback for %v: %+v", want, topic.Fallbacks)
	}
	for id, text := range topic.Root.Positions {
		if text != "An API debater's answer." {
			t.Errorf("%s's position %q is not its fallback's", id, text)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := running(home)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left running: %q", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// running lists the live processes whose HOME is home.
func running(home string) []string {
	var out []string
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range envs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), "\x00HOME="+home+"\x00") && !strings.HasPrefix(string(b), "HOME="+home+"\x00") {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if !zombie(pid) {
			out = append(out, filepath.Dir(p))
		}
	}
	return out
}

// TestAgentRaw: with includeRawResponses, each run of an agent is kept
// under raw/ as a call is: its command line and folder, and what it
// printed.
func TestAgentRaw(t *testing.T) {
	t.Parallel()
	repo, log := gitRepo(t), filepath.Join(t.TempDir(), "log")
	srv := judgeServer(t)
	cfg := agentConfig(t, repo, srv.URL(),
		fmt.Sprintf(`{"id": "claude", "agent": {"kind": "claude-code", "binary": %q, "args": ["--fake-log=%s", "--token=tok-secret-9"]}}`, fake(t, "claude"), log),
		`{"id": "api", "model": "m-api"}`)
	cfg.Cache.Dir, cfg.Output.IncludeRawResponses = "", true
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cfg.Output.Dir, "raw", "*-root-position-claude-*.json"))
	if len(files) != 1 {
		t.Fatalf("raw files of claude's position: %q", files)
	}
	b, _ := os.ReadFile(files[0])
	for _, want := range []string{`"argv": [`, `"--permission-mode",`, `"dir": "` + repo, `"subtype": "success"`, `"--token=[redacted]"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the raw record lacks %q:\n%s", want, b)
		}
	}
	for _, f := range append(files, filepath.Join(cfg.Output.Dir, "run.json")) {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "tok-secret-9") {
			t.Errorf("%s holds the agent's token", f)
		}
	}
}

// TestAgentJudgeAndFallbackAgent: the judge is a Claude Code agent, asked
// for its judgment with --json-schema and read from structured_output;
// an API debater whose key is refused hands its call to its fallback
// agent.
func TestAgentJudgeAndFallbackAgent(t *testing.T) {
	t.Parallel()
	repo, logs := gitRepo(t), t.TempDir()
	jlog, flog := filepath.Join(logs, "judge"), filepath.Join(logs, "fallback")
	srv := judgeServer(t)
	srv.ReplyTo("m-refused", scripted.RefuseKey())
	cfg := agentConfig(t, repo, srv.URL(),
		`{"id": "api", "model": "m-api"}`,
		fmt.Sprintf(`{"id": "other", "model": "m-refused", "fallbackAgent": {"kind": "codex", "binary": %q, "args": ["--fake-log=%s"]}}`, fake(t, "codex"), flog))
	cfg.Reviewer = &configs.Participant{ID: "judge", Label: "judge", Agent: &configs.Agent{Kind: "claude-code", Binary: fake(t, "claude"), Model: "opus", Args: []string{"--fake-log=" + jlog}}}
	cfg.ApplyDefaults()
	cfg.Cache.Dir = ""
	if _, err := Run(t.Context(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	run := readRun(t, cfg.Output.Dir)
	topic := run.Topics[0]
	if topic.Status != tree.Converged || len(topic.Root.Judgment.Consensus) != 1 || topic.Root.Judgment.Consensus[0].Point != "agreed" {
		t.Errorf("status %s, judgment %+v: the agent judge's structured_output was not read", topic.Status, topic.Root.Judgment)
	}
	if j := lines(t, jlog); len(j) != 1 || !strings.Contains(j[0], "\x1f--json-schema\x1f{") {
		t.Errorf("the judge was not asked with --json-schema: %q", j)
	}
	if len(topic.Fallbacks) != 1 || topic.Fallbacks[0].To != "codex" || !strings.Contains(topic.Fallbacks[0].Reason, "key refused") {
		t.Errorf("fallbacks %+v, want other → codex for a refused key", topic.Fallbacks)
	}
	if got := topic.Root.Positions["other"]; !strings.Contains(got, "Position of codex") {
		t.Errorf("other's position %q is not its fallback agent's", got)
	}
	if run.ByModel["claude-code/opus"].Calls != 1 {
		t.Errorf("the judge agent's usage: %+v", run.ByModel["claude-code/opus"])
	}
}
