package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"
)

// TestDryRunAgents: the dry run of the agents example prints each agent's
// exact command lines (read-only, standard input closed) and the folder
// it runs in, the top of this repository.
func TestDryRunAgents(t *testing.T) {
	t.Parallel()
	r := invoke(t, map[string]string{"DEBATE_API_KEY": "sk-x"}, "run", "-c", "../../configs/examples/agents.jsonc", "--dry-run")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	root, _ := filepath.Abs("../..")
	for _, want := range []string{
		"claude-code → fallback gpt-5.2", "agent: claude\n",
		"claude: claude-code in " + root,
		"starts   claude -p --output-format json --permission-mode dontAsk --tools Read,Grep,Glob --allowedTools Read,Grep,Glob -- <prompt> < /dev/null",
		"resumes  claude -p --output-format json --permission-mode dontAsk --tools Read,Grep,Glob --allowedTools Read,Grep,Glob --resume SESSION_ID -- <prompt> < /dev/null",
		"starts   codex exec --json --sandbox read-only --skip-git-repo-check --model gpt-5-codex -- <prompt> < /dev/null",
		"judges   codex exec --json --sandbox read-only --skip-git-repo-check --model gpt-5-codex --output-schema SCHEMA_FILE -- <prompt> < /dev/null",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the dry run lacks %q", want)
		}
	}
	if strings.Contains(r.stdout, "runs codex/gpt-5-codex, taken for a reasoning model") {
		t.Error("an agent is described as a model at an endpoint")
	}
	for _, want := range []string{
		`debater "claude" falls back to gpt-5.2, taken for a reasoning model`,
		`debater "codex" falls back to gpt-5.2, taken for a reasoning model`,
		`debater "reader" runs gpt-5.2, taken for a reasoning model`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the dry run's reasoning notes lack %q", want)
		}
	}
}

// TestCheckAgents: check tries each agent beside the endpoints: a fake
// Claude Code answers (its version shown), a fake Gemini CLI is not
// logged in (the fix named), a missing program is named with its install
// command; the participant without a usable agent or fallback fails the
// check.
func TestCheckAgents(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	fakes, _ := filepath.Abs("../../providers/agents/testdata/fake")
	text := fmt.Sprintf(`{
  "api": { "baseURL": %q, "apiKey": "k" },
  "debaters": [
    { "id": "claude", "agent": { "kind": "claude-code", "binary": %q } },
    { "id": "gemini", "agent": { "kind": "gemini-cli", "binary": %q, "args": ["--fake-mode=login"] }, "fallback": "m-fb" },
    { "id": "gone", "agent": { "kind": "codex", "binary": "no-such-codex" } },
  ],
  "reviewer": { "id": "judge", "model": "m-judge" },
  "topics": [{ "id": "t1", "title": "Question" }],
}`, srv.URL(), filepath.Join(fakes, "claude"), filepath.Join(fakes, "gemini"))
	path := filepath.Join(t.TempDir(), "check.jsonc")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, nil, "check", "-c", path, "--json")
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d: one participant has no usable agent or model\n%s", r.code, exitFailed, r.stderr)
	}
	var rep checkReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, row := range rep.Results {
		got = append(got, fmt.Sprintf("%s %s %q %s %v", row.Participant, row.Model, row.Host, row.Result, row.Usable))
	}
	want := []string{
		`claude claude-code "2.1.197 (Claude Code)" ok true`,
		`gemini gemini-cli "gemini 0.61.0" not logged in false`,
		`gemini m-fb "` + strings.TrimPrefix(strings.TrimSuffix(srv.URL(), "/v1"), "http://") + `" ok true`,
		`gone codex "no-such-codex" not installed false`,
		`judge m-judge "` + strings.TrimPrefix(strings.TrimSuffix(srv.URL(), "/v1"), "http://") + `" ok true`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, row := range rep.Results {
		if row.Participant == "gemini" && row.Result == "not logged in" && !strings.Contains(row.Detail, "GEMINI_API_KEY") {
			t.Errorf("gemini's failure does not say how to log in: %q", row.Detail)
		}
		if row.Participant == "gone" && !strings.Contains(row.Detail, "npm install -g @openai/codex") {
			t.Errorf("the missing codex is not named with its install command: %q", row.Detail)
		}
	}
}
