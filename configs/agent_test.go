package configs

import (
	"slices"
	"strings"
	"testing"
)

// agentBody is a config whose first debater is written as given.
func agentBody(first string) string {
	return `{
  "debaters": [
    ` + first + `,
    { "id": "b", "model": "m2" },
  ],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],
}`
}

// TestAgentForms: an agent is written as its kind alone or as an object;
// a model beside it becomes the agent's; the participant's model and
// fallback become the agents' labels.
func TestAgentForms(t *testing.T) {
	for _, tc := range []struct {
		first, model, fallback, agentModel string
		fallbackAgent                      bool
	}{
		{`{"id": "a", "agent": "claude-code"}`, "claude-code", "", "", false},
		{`{"id": "a", "model": "sonnet", "agent": "claude-code"}`, "claude-code/sonnet", "", "sonnet", false},
		{`{"id": "a", "agent": {"kind": "codex", "model": "gpt-5-codex"}, "fallback": "gpt-5.2"}`, "codex/gpt-5-codex", "gpt-5.2", "gpt-5-codex", false},
		{`{"id": "a", "model": "gpt-5.2", "fallbackAgent": "gemini-cli"}`, "gpt-5.2", "gemini-cli", "", true},
		{`{"id": "a", "agent": {"kind": "command", "binary": "/opt/bin/cursor-agent", "args": ["-p", "{prompt}"]}}`, "command/cursor-agent", "", "", false},
	} {
		cfg, err := Load(writeConfig(t, agentBody(tc.first)), Options{Getenv: testEnv})
		if err != nil {
			t.Fatalf("%s: %v", tc.first, err)
		}
		p := cfg.Debaters[0]
		if p.Model != tc.model || p.Fallback != tc.fallback || (p.Agent != nil && p.Agent.Model != tc.agentModel) || (p.FallbackAgent != nil) != tc.fallbackAgent {
			t.Errorf("%s: model %q fallback %q agent %+v; want %q, %q, agent model %q", tc.first, p.Model, p.Fallback, p.Agent, tc.model, tc.fallback, tc.agentModel)
		}
		if a := p.AgentFor(p.Model); (a == nil) != (p.Agent == nil) {
			t.Errorf("%s: AgentFor(model) = %v", tc.first, a)
		}
		again := cfg.Clone()
		again.ApplyDefaults()
		if again.Debaters[0].Model != p.Model || again.Debaters[0].Fallback != p.Fallback {
			t.Errorf("%s: defaults applied twice change the labels", tc.first)
		}
	}
}

// TestAgentProblems: every mistake in an agent is located at its field.
func TestAgentProblems(t *testing.T) {
	for _, tc := range []struct {
		name, first string
		want        []string
	}{
		{"unknown kind", `{"id": "a", "agent": "claude"}`, []string{`3:17 debaters[0].agent | unknown agent kind "claude"; did you mean "claude-code"? (kinds: claude-code, codex, gemini-cli, command)`}},
		{"unknown kind in the object", `{"id": "a", "agent": {"kind": "gemini"}}`, []string{`3:27 debaters[0].agent.kind | did you mean "gemini-cli"?`}},
		{"unknown field", `{"id": "a", "agent": {"kind": "codex", "sandbox": "x"}}`, []string{`3:44 debaters[0].agent.sandbox | unknown field`}},
		{"wrong type", `{"id": "a", "agent": 3}`, []string{`3:17 debaters[0].agent | want an object`}},
		{"command without a binary", `{"id": "a", "agent": {"kind": "command"}}`, []string{`3:26 debaters[0].agent.binary | required for a command agent`}},
		{"prompt placeholder outside a command", `{"id": "a", "agent": {"kind": "codex", "args": ["{prompt}"]}}`, []string{`3:53 debaters[0].agent.args[0] | replaced only in a command agent's args`}},
		{"negative timeout and turns", `{"id": "a", "agent": {"kind": "codex", "timeout": -1, "maxTurns": -2}}`, []string{`3:44 debaters[0].agent.timeout | must be 0`, `3:59 debaters[0].agent.maxTurns | must be 0`}},
		{"model twice", `{"id": "a", "model": "x", "agent": {"kind": "codex", "model": "y"}}`, []string{`3:17 debaters[0].model | set twice`}},
		{"two fallbacks", `{"id": "a", "model": "x", "fallback": "y", "fallbackAgent": "codex"}`, []string{`3:48 debaters[0].fallbackAgent | keep "fallback" (a model) or "fallbackAgent"`}},
		{"fallback is itself", `{"id": "a", "agent": "codex", "fallbackAgent": "codex"}`, []string{`3:35 debaters[0].fallbackAgent | is the participant's own agent`}},
		{"missing folder", `{"id": "a", "agent": {"kind": "codex", "dir": "no-such-folder"}}`, []string{`3:44 debaters[0].agent.dir | does not exist`}},
		{"folder is a file", `{"id": "a", "agent": {"kind": "codex", "dir": "debate.jsonc"}}`, []string{`3:44 debaters[0].agent.dir | is a file, not a folder`}},
		{"writeInCI without write", `{"id": "a", "agent": {"kind": "codex", "writeInCI": true}}`, []string{`3:44 debaters[0].agent.writeInCI | remove it or add "write": true`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, agentBody(tc.first)), Options{Getenv: testEnv})
			if err == nil {
				t.Fatal("want problems, got none")
			}
			var got []string
			for _, p := range problemsOf(t, err) {
				got = append(got, where(p)+" | "+p.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for _, w := range tc.want {
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

// TestAgentClaudeOnlyFields: maxTurns and maxBudgetUSD, which only Claude
// Code takes, are warned of, at the field, on any other kind of agent.
func TestAgentClaudeOnlyFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, first string
		want        []string
	}{
		{"claude code takes both", `{"id": "a", "agent": {"kind": "claude-code", "maxTurns": 4, "maxBudgetUSD": 2}}`, nil},
		{"codex", `{"id": "a", "agent": {"kind": "codex", "maxTurns": 4}}`, []string{`3:44 debaters[0].agent.maxTurns | only a claude-code agent honours it; a codex agent ignores it`}},
		{"gemini cli", `{"id": "a", "agent": {"kind": "gemini-cli", "maxBudgetUSD": 2}}`, []string{`3:49 debaters[0].agent.maxBudgetUSD | a gemini-cli agent ignores it`}},
		{"command fallback", `{"id": "a", "model": "m", "fallbackAgent": {"kind": "command", "binary": "x", "maxTurns": 4, "maxBudgetUSD": 2}}`,
			[]string{`3:83 debaters[0].fallbackAgent.maxTurns | a command agent ignores it`, `3:98 debaters[0].fallbackAgent.maxBudgetUSD | a command agent ignores it`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Load(writeConfig(t, agentBody(tc.first)), Options{Getenv: testEnv})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range cfg.Warnings {
				got = append(got, where(p)+" | "+p.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d warnings, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				pos, frag, _ := strings.Cut(w, " | ")
				if gpos, gmsg, _ := strings.Cut(got[i], " | "); gpos != pos || !strings.Contains(gmsg, frag) {
					t.Errorf("warning %q, want %q", got[i], w)
				}
			}
		})
	}
}

// TestAgentArgsRedacted: a credential given to an agent in its args is
// masked in the config's redacted copy and listed among the secrets.
func TestAgentArgsRedacted(t *testing.T) {
	cfg, err := Load(writeConfig(t, agentBody(`{"id": "a", "agent": {"kind": "command", "binary": "x", "args": ["--api-key=${AGENT_KEY}", "--token", "tok-123", "--verbose", "{prompt}"]}}`)),
		Options{Getenv: func(n string) (string, bool) { return "sk-agent-1", n == "AGENT_KEY" }})
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.Redacted().Debaters[0].Agent.Args
	if want := []string{"--api-key=[redacted]", "--token", "[redacted]", "--verbose", "{prompt}"}; !slices.Equal(got, want) {
		t.Errorf("redacted args %q, want %q", got, want)
	}
	if cfg.Debaters[0].Agent.Args[0] != "--api-key=sk-agent-1" {
		t.Error("redacting changed the config")
	}
	if s := cfg.Secrets(); !slices.Contains(s, "sk-agent-1") || !slices.Contains(s, "tok-123") {
		t.Errorf("secrets %q lack the agent's", s)
	}
}
