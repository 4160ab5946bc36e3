package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/gitrepo"
	"github.com/debatehq/debate/internal/gitrepo/gitrepotest"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// fakes is the folder of the fake CLIs.
func fakes(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/fake")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadConfig writes a config whose debaters are the JSON objects given and
// loads it.
func loadConfig(t testing.TB, debaters ...string) *configs.Config {
	t.Helper()
	dir := t.TempDir()
	body := fmt.Sprintf(`{
  "api": {"baseURL": "http://127.0.0.1:1/v1", "apiKey": "k"},
  "debaters": [%s],
  "reviewer": {"id": "judge", "model": "judge-model"},
  "pricing": {"gpt-5-codex": {"input": 1.25, "output": 10, "cachedInput": 0.125},
              "gemini-2.5-pro": {"input": 1.25, "output": 10, "cachedInput": 0.3}},
  "topics": [{"id": "t", "title": "What does this code do?"}]
}`, strings.Join(debaters, ","))
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

// agentJSON is a debater played by the fake of kind in mode, logging its
// runs to log.
func agentJSON(t testing.TB, id, kind, mode, log string, extra string) string {
	bin := map[string]string{"claude-code": "claude", "codex": "codex", "gemini-cli": "gemini", "command": "agent"}[kind]
	return fmt.Sprintf(`{"id": %q, "agent": {"kind": %q, "binary": %q, "args": ["--fake-mode=%s", "--fake-log=%s"], "timeout": 3000%s}}`,
		id, kind, filepath.Join(fakes(t), bin), mode, log, extra)
}

// apiStub answers every call to a model with "api answer".
type apiStub struct{ calls []providers.Request }

func (s *apiStub) Complete(_ context.Context, r providers.Request) (providers.Response, error) {
	s.calls = append(s.calls, r)
	return providers.Response{Text: "api answer", Model: r.Model}, nil
}

func request(p, model, node, step string) providers.Request {
	return providers.Request{Participant: p, Model: model,
		Messages: []providers.Message{{Role: "system", Content: "You debate."}, {Role: "user", Content: step + " at " + node}},
		Origin:   providers.Origin{Topic: "t", Node: node, Step: step}}
}

// runs reads a fake's log: one command line per run.
func runs(t testing.TB, log string) [][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for line := range strings.Lines(string(b)) {
		out = append(out, strings.Split(strings.TrimSuffix(line, "\n"), "\x1f"))
	}
	return out
}

// noneLeft fails the test if a process a fake recorded in log.pids still
// runs, or any process of a group a run of the fake led: the whole group
// was to be killed.
func noneLeft(t testing.TB, log string) {
	t.Helper()
	b, _ := os.ReadFile(log + ".pids")
	for line := range strings.Lines(string(b)) {
		group := strings.HasPrefix(line, "group ")
		pid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "group ")))
		// A killed process is a zombie until its parent reaps it; wait for
		// it to go, bounded.
		deadline := time.Now().Add(5 * time.Second)
		for (alive(pid) || group && groupAlive(pid)) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("process %d that the fake started still runs", pid)
		}
		if group && groupAlive(pid) {
			t.Errorf("the process group %d of a run still has a live member", pid)
		}
	}
}

// groupAlive reports whether a live process (not a zombie) is in the
// process group pgid.
func groupAlive(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(string(b), ") ")
		f := strings.Fields(rest) // state, ppid, pgrp, …
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// TestKinds: each kind's fake answers, with its usage, its cost (reported
// by Claude Code, priced from pricing for Codex and Gemini) and its
// session id.
func TestKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind, model string
		text        string
		usage       providers.Usage
		reasoning   string
	}{
		{"claude-code", "", "Claude Code read the repository. Position of claude-code.",
			providers.Usage{PromptTokens: 200, CachedPromptTokens: 50, CompletionTokens: 40, Cost: 0.0125}, ""},
		{"codex", "gpt-5-codex", "Codex read the repository. Position of codex.",
			providers.Usage{PromptTokens: 2000, CachedPromptTokens: 1500, CompletionTokens: 300, Cost: (500*1.25 + 1500*0.125 + 300*10) / 1e6}, "**Reading the code**"},
		{"gemini-cli", "", "Gemini read the repository.",
			providers.Usage{PromptTokens: 24939, CachedPromptTokens: 21263, CompletionTokens: 174, ReasoningTokens: 154, Cost: (3676*1.25 + 21263*0.3 + 174*10) / 1e6}, ""},
		{"command", "", "A command agent answered.", providers.Usage{PromptTokens: 0, CompletionTokens: 7, Estimated: true}, ""},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "log")
			extra := ""
			if tc.model != "" {
				extra = fmt.Sprintf(`, "model": %q`, tc.model)
			}
			cfg := loadConfig(t, agentJSON(t, "a", tc.kind, "ok", log, extra), `{"id": "b", "model": "m"}`)
			r, err := New(t.Context(), cfg, &apiStub{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := r.Complete(t.Context(), request("a", cfg.Debaters[0].Model, "root", "position"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != tc.text || resp.Reasoning != tc.reasoning {
				t.Errorf("answer %q (reasoning %q), want %q (%q)", resp.Text, resp.Reasoning, tc.text, tc.reasoning)
			}
			u := resp.Usage
			if d := u.Cost - tc.usage.Cost; d > 1e-12 || d < -1e-12 {
				t.Errorf("cost %g, want %g", u.Cost, tc.usage.Cost)
			}
			u.Cost = tc.usage.Cost
			if tc.usage.Estimated && u.PromptTokens > 0 {
				u.PromptTokens = tc.usage.PromptTokens // estimated from the prompt, whose folder varies
			}
			if u != tc.usage {
				t.Errorf("usage %+v, want %+v", u, tc.usage)
			}
			if n := len(runs(t, log)); n != 1 {
				t.Errorf("the fake ran %d times, want 1", n)
			}
		})
	}
}

// TestAPIParticipantsGoToTheEndpoint: a participant no agent plays, and an
// agent participant's API fallback, are answered by the endpoints.
func TestAPIParticipantsGoToTheEndpoint(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, strings.TrimSuffix(agentJSON(t, "a", "codex", "ok", log, ""), "}")+`, "fallback": "gpt-5.2"}`, `{"id": "b", "model": "m"}`)
	api := &apiStub{}
	r, err := New(t.Context(), cfg, api, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []providers.Request{request("b", "m", "root", "position"), request("a", "gpt-5.2", "root", "position")} {
		if resp, err := r.Complete(t.Context(), q); err != nil || resp.Text != "api answer" {
			t.Errorf("%s/%s: %q, %v; want the endpoint's answer", q.Participant, q.Model, resp.Text, err)
		}
	}
	if len(api.calls) != 2 || len(runs(t, log)) != 0 {
		t.Errorf("endpoint calls %d, agent runs %d; want 2 and 0", len(api.calls), len(runs(t, log)))
	}
	if r.key(request("b", "m", "root", "position")) != "" || r.key(request("a", cfg.Debaters[0].Model, "root", "position")) == "" {
		t.Error("only an agent's call has an agent key")
	}
}

// TestFailures: every way a run goes wrong ends within the participant's
// timeout as a named failure of the kind the attempt loop acts on, with
// nothing the fake started left running.
func TestFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kind, mode string
		want             providers.Class
		says             string
	}{
		{"claude not logged in", "claude-code", "login", providers.ClassKeyRefused, "Not logged in · Please run /login"},
		{"claude turn limit", "claude-code", "turns", providers.ClassAgentLimit, "error_max_turns"},
		{"gemini auth", "gemini-cli", "login", providers.ClassKeyRefused, "exited 41"},
		{"gemini turn limit", "gemini-cli", "turns", providers.ClassAgentLimit, "exited 53"},
		{"codex turn failed", "codex", "failed", providers.ClassKeyRefused, "401 Unauthorized"},
		{"codex offline", "codex", "offline", providers.ClassTimeout, "Reconnecting... 5/5"},
		{"never exits", "claude-code", "hang", providers.ClassTimeout, "no answer within 3s"},
		{"prints 100 MB", "claude-code", "flood", providers.ClassAnswerTooLarge, "passed"},
		{"asks for a permission", "claude-code", "permission", providers.ClassTimeout, "Allow Bash(rm -rf build)?"},
		{"command fails", "command", "fail", providers.ClassErrorInAnswer, "model overloaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "log")
			cfg := loadConfig(t, agentJSON(t, "a", tc.kind, tc.mode, log, `, "maxOutputBytes": 1048576`), `{"id": "b", "model": "m"}`)
			r, err := New(t.Context(), cfg, &apiStub{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = r.Complete(t.Context(), request("a", cfg.Debaters[0].Model, "root", "position"))
			took := time.Since(start)
			pe, ok := errors.AsType[*providers.Error](err)
			if !ok {
				t.Fatalf("error %v, want a *providers.Error", err)
			}
			if pe.Class != tc.want || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("%v error %q; want %v saying %q", pe.Class, err, tc.want, tc.says)
			}
			if took > 3*time.Second+waitDelay+time.Second {
				t.Errorf("took %v, past the 3 s timeout", took)
			}
			noneLeft(t, log)
		})
	}
}

// TestStdinIsClosed: a fake that reads its standard input to the end, as
// claude -p does, answers at once: the runner never leaves it a pipe to
// wait on.
func TestStdinIsClosed(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, agentJSON(t, "a", "claude-code", "stdin", log, ""), `{"id": "b", "model": "m"}`)
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 2500*time.Millisecond)
	defer cancel()
	if _, err := r.Complete(ctx, request("a", cfg.Debaters[0].Model, "root", "position")); err != nil {
		t.Fatalf("the fake did not answer: %v", err)
	}
}

// TestNestedSessionVariables: the variables that make an agent a nested
// one are not passed on; the others are.
func TestNestedSessionVariables(t *testing.T) {
	t.Parallel()
	got := environ([]string{"CLAUDECODE=1", "PATH=/bin", "CLAUDE_CODE_ENTRYPOINT=cli", "CODEX_SANDBOX=seatbelt", "HOME=/h"})
	if want := []string{"PATH=/bin", "HOME=/h"}; !slices.Equal(got, want) {
		t.Errorf("environment %q, want %q", got, want)
	}
}

// TestWriteRefusedInCI: write access is refused when CI is set, unless
// the agent allows it there.
func TestWriteRefusedInCI(t *testing.T) {
	t.Parallel()
	w := loadConfig(t, `{"id": "a", "agent": {"kind": "codex", "write": true}}`, `{"id": "b", "model": "m"}`)
	if _, err := New(t.Context(), w, &apiStub{}, Options{Environ: []string{"CI=true"}}); err == nil || !strings.Contains(err.Error(), "writeInCI") {
		t.Errorf("write access in CI: %v, want a refusal naming writeInCI", err)
	}
	if _, err := New(t.Context(), w, &apiStub{}, Options{Environ: []string{"CI="}}); err != nil {
		t.Errorf("write access outside CI: %v", err)
	}
	ok := loadConfig(t, `{"id": "a", "agent": {"kind": "codex", "write": true, "writeInCI": true}}`, `{"id": "b", "model": "m"}`)
	if _, err := New(t.Context(), ok, &apiStub{}, Options{Environ: []string{"CI=1"}}); err != nil {
		t.Errorf("write access allowed in CI: %v", err)
	}
}

// flag returns the value after name in argv, "" without it.
func flag(argv []string, name string) string {
	if i := slices.Index(argv, name); i >= 0 && i+1 < len(argv) {
		return argv[i+1]
	}
	return ""
}

// TestSessions: a debater's rebuttal continues its position's session, a
// child node's position the session its parent ended with; a second child
// forks it (Claude Code) or starts afresh (Codex, which cannot fork); a
// judge's call starts afresh; and a resume that fails starts afresh with
// the whole prompt.
func TestSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clog, xlog := filepath.Join(dir, "claude"), filepath.Join(dir, "codex")
	cfg := loadConfig(t, agentJSON(t, "c", "claude-code", "ok", clog, ""), agentJSON(t, "x", "codex", "ok", xlog, ""))
	r, err := New(t.Context(), cfg, &apiStub{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ node, step string }{{"root", "position"}, {"root", "rebuttal"}, {"d1", "position"}, {"d2", "position"}, {"root", "judge"}} {
		for _, p := range cfg.Debaters {
			if _, err := r.Complete(t.Context(), request(p.ID, p.Model, step.node, step.step)); err != nil {
				t.Fatalf("%s %s %s: %v", p.ID, step.node, step.step, err)
			}
		}
	}
	c, x := runs(t, clog), runs(t, xlog)
	first := r.Sessions("t")[0].ID
	if flag(c[0], "--resume") != "" || flag(c[1], "--resume") != first || flag(c[2], "--resume") != first {
		t.Errorf("claude's rebuttal and first child do not continue session %s:\n%q", first, c[:3])
	}
	if flag(c[3], "--resume") != first || !slices.Contains(c[3], "--fork-session") {
		t.Errorf("claude's second child does not fork %s: %q", first, c[3])
	}
	if flag(c[4], "--resume") != "" {
		t.Errorf("a judge's call resumed a session: %q", c[4])
	}
	if last := c[1][len(c[1])-1]; strings.Contains(last, "You debate.") {
		t.Errorf("a resumed call sent again what the session had read: %q", last)
	}
	thread := flag(x[1], "resume")
	if flag(x[0], "resume") != "" || thread == "" || flag(x[2], "resume") != thread || flag(x[3], "resume") != "" {
		t.Errorf("codex: rebuttal and first child continue the thread, the second starts afresh:\n%q", x[:4])
	}
	var calls [][]string
	for _, s := range r.Sessions("t") {
		calls = append(calls, s.Calls)
	}
	if got := fmt.Sprint(calls); !strings.Contains(got, "[root position root rebuttal d1 position]") {
		t.Errorf("sessions %s", got)
	}

	// A session the CLI no longer has: the call starts afresh.
	k := sessionKey{topic: "t", participant: "c", agent: cfg.Debaters[0].Model}
	r.book.byNode[k]["d3"] = &session{id: "gone-1", rec: r.book.topics["t"][0]}
	if _, err := r.Complete(t.Context(), request("c", cfg.Debaters[0].Model, "d3", "rebuttal")); err != nil {
		t.Fatalf("a failed resume did not start afresh: %v", err)
	}
	c = runs(t, clog)
	if flag(c[len(c)-2], "--resume") != "gone-1" || flag(c[len(c)-1], "--resume") != "" || !strings.Contains(c[len(c)-1][len(c[len(c)-1])-1], "You debate.") {
		t.Errorf("want a resume of gone-1, then a fresh run with the whole prompt:\n%q", c[len(c)-2:])
	}
	ss := r.Sessions("t")
	if !slices.ContainsFunc(ss, func(s tree.AgentSession) bool {
		return s.Participant == "c" && s.ResumeFailed == 1 && s.Calls[0] == "d3 rebuttal"
	}) {
		t.Errorf("no fresh session records the failed resume: %+v", ss)
	}
	var order []string
	for _, s := range ss {
		order = append(order, s.Participant+" "+s.Calls[0])
	}
	if got := strings.Join(order, ", "); got != "c root position, c d2 position, c d3 rebuttal, x root position, x d2 position" {
		t.Errorf("sessions in the order %s", got)
	}
}

// TestStructuredJudge: a judge's call with a schema asks Claude Code with
// --json-schema and Codex with --output-schema, and a structured answer
// is read as the answer.
func TestStructuredJudge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clog, xlog := filepath.Join(dir, "claude"), filepath.Join(dir, "codex")
	cfg := loadConfig(t, agentJSON(t, "c", "claude-code", "ok", clog, ""), agentJSON(t, "x", "codex", "ok", xlog, ""))
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	schema := []byte(`{"type":"object"}`)
	for _, p := range cfg.Debaters {
		q := request(p.ID, p.Model, "root", "judge")
		q.JSON, q.Schema = true, schema
		resp, err := r.Complete(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if p.ID == "c" && !strings.HasPrefix(resp.Text, `{"consensus"`) {
			t.Errorf("claude's structured_output not read: %q", resp.Text)
		}
	}
	if got := flag(runs(t, clog)[0], "--json-schema"); got != string(schema) {
		t.Errorf("claude --json-schema %q", got)
	}
	f := flag(runs(t, xlog)[0], "--output-schema")
	if f == "" {
		t.Fatal("codex was not given --output-schema")
	}
	if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the schema file %s outlived the call", f)
	}
}

// TestAgentCap: no more agent processes run at once than
// params.agentConcurrency.
func TestAgentCap(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, agentJSON(t, "a", "claude-code", "ok", log, ""), `{"id": "b", "model": "m"}`)
	cfg.Params.AgentConcurrency = 1
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	if !r.sem.TryAcquire(1) {
		t.Fatal("the cap is not free at the start")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := r.Complete(ctx, request("a", cfg.Debaters[0].Model, "root", "position"))
	if pe, ok := errors.AsType[*providers.Error](err); !ok || pe.Class != providers.ClassCanceled || len(runs(t, log)) != 0 {
		t.Errorf("with the cap taken a call ran (%v)", err)
	}
	r.sem.Release(1)
}

// TestHangsOnce: a call without a fallback whose attempts hang until the
// timeout is tried again once (a timeout may pass); the second hang is an
// agent limit, which ends the call.
func TestHangsOnce(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, strings.Replace(agentJSON(t, "a", "claude-code", "hang", log, ""), `"timeout": 3000`, `"timeout": 300`, 1), `{"id": "b", "model": "m"}`)
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	q := request("a", cfg.Debaters[0].Model, "root", "position")
	q.Call = 7
	var kinds []providers.Class
	for range 3 {
		_, err := r.Complete(t.Context(), q)
		pe, _ := errors.AsType[*providers.Error](err)
		kinds = append(kinds, pe.Class)
	}
	if want := []providers.Class{providers.ClassTimeout, providers.ClassAgentLimit, providers.ClassTimeout}; !slices.Equal(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	noneLeft(t, log)
}

// TestCancelKillsGroup: the run's end (Ctrl-C) kills a running agent's
// whole process group at once, not at its timeout.
func TestCancelKillsGroup(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, strings.Replace(agentJSON(t, "a", "claude-code", "hang", log, ""), `"timeout": 3000`, `"timeout": 600000`, 1), `{"id": "b", "model": "m"}`)
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := r.Complete(ctx, request("a", cfg.Debaters[0].Model, "root", "position"))
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(log + ".pids"); len(b) > 0 {
			break // the fake and its child run
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake never started")
		}
	}
	cancel()
	select {
	case err := <-done:
		if pe, ok := errors.AsType[*providers.Error](err); !ok || pe.Class != providers.ClassCanceled {
			t.Errorf("%v, want a canceled call", err)
		}
	case <-time.After(waitDelay + 5*time.Second):
		t.Fatal("the call did not end when the run did")
	}
	noneLeft(t, log)
}

// TestCheckFakes: check runs each agent's program: its version, and one
// tiny prompt in read-only mode; a command agent is asked no version.
func TestCheckFakes(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, agentJSON(t, "c", "claude-code", "ok", log, `, "write": true`), agentJSON(t, "x", "command", "ok", log, ""))
	rows := Check(t.Context(), cfg, CheckOptions{Timeout: 5 * time.Second})
	if len(rows) != 2 || !rows[0].Usable || rows[0].Host != "2.1.197 (Claude Code)" || !rows[1].Usable || rows[1].Host != cfg.Debaters[1].Agent.Binary {
		t.Errorf("rows %+v", rows)
	}
	for _, argv := range runs(t, log) {
		if slices.Contains(argv, "acceptEdits") || !slices.Contains(argv, "dontAsk") && argv[0] == "claude" {
			t.Errorf("the check ran an agent with write access: %q", argv)
		}
	}
}

// TestCheckInTheAgentsFolder: check asks its tiny prompt in the folder the
// agent runs in, as a run does.
func TestCheckInTheAgentsFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, fmt.Sprintf(`{"id": "x", "agent": {"kind": "command", "binary": "sh", "args": ["-c", "test -f marker && echo here"], "dir": %q}}`, dir),
		`{"id": "b", "model": "m"}`)
	rows := Check(t.Context(), cfg, CheckOptions{Timeout: 5 * time.Second})
	if len(rows) != 1 || !rows[0].Usable {
		t.Errorf("rows %+v; want the agent usable in its folder %s", rows, dir)
	}
}

// TestCheckMissing: an agent whose program is not installed is not
// usable, with its class and how to install it, as every failed check
// names its class.
func TestCheckMissing(t *testing.T) {
	t.Parallel()
	cfg := loadConfig(t, `{"id": "x", "agent": {"kind": "codex", "binary": "no-such-agent-cli"}}`, `{"id": "b", "model": "m"}`)
	rows := Check(t.Context(), cfg, CheckOptions{Timeout: 5 * time.Second})
	if len(rows) != 1 || rows[0].Usable || rows[0].Result != CheckMissing || rows[0].Class != providers.ClassAgentMissing.String() ||
		!strings.Contains(rows[0].Detail, "npm install -g @openai/codex") {
		t.Errorf("rows %+v; want codex not installed, class %s, with its install command", rows, providers.ClassAgentMissing)
	}
}

// TestCommandCut: a command agent that prints past its cap is killed at
// the cap, whole, and its answer kept cut and marked as cut at a limit.
func TestCommandCut(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "log")
	cfg := loadConfig(t, agentJSON(t, "a", "command", "flood", log, `, "maxOutputBytes": 65536`), `{"id": "b", "model": "m"}`)
	r, _ := New(t.Context(), cfg, &apiStub{}, Options{})
	resp, err := r.Complete(t.Context(), request("a", cfg.Debaters[0].Model, "root", "position"))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Cut() || len(resp.Text) != 65536 {
		t.Errorf("answer of %d bytes, cut %t; want the first 65536, marked cut", len(resp.Text), resp.Cut())
	}
	noneLeft(t, log)
}

// TestStateReadOnce: an agent working at the top of a repository whose
// state the run has read already takes that state, without reading the
// repository again; without it, the runner reads the state itself.
func TestStateReadOnce(t *testing.T) {
	t.Parallel()
	repo := gitrepotest.New(t, map[string]string{"main.go": "package main\n"})
	cfg := loadConfig(t, fmt.Sprintf(`{"id": "a", "agent": {"kind": "codex", "dir": %q}}`, repo), `{"id": "b", "model": "m"}`)
	known := gitrepo.State{Root: repo, Head: "known"}
	r, err := New(t.Context(), cfg, &apiStub{}, Options{Read: []gitrepo.State{known}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.states[repo]; got != "known" {
		t.Errorf("state %q, want the one the run read", got)
	}
	r, err = New(t.Context(), cfg, &apiStub{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.states[repo]; len(got) != 40 {
		t.Errorf("state %q, want the repository's commit", got)
	}
}
