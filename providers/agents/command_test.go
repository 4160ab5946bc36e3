package agents

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
)

// TestCommandLines: each kind's command line, read-only unless write
// access is given, the prompt as an argument or, when too long for one,
// on standard input.
func TestCommandLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", maxArgPrompt+1)
	for _, tc := range []struct {
		name  string
		a     configs.Agent
		inv   invocation
		want  string
		stdin bool
	}{
		{"claude", configs.Agent{Kind: "claude-code", Model: "sonnet", MaxTurns: 8, MaxBudgetUSD: 0.25, Args: []string{"--verbose"}}, invocation{prompt: "-q"},
			"claude -p --output-format json --permission-mode dontAsk --tools Read,Grep,Glob --allowedTools Read,Grep,Glob --model sonnet --max-turns 8 --max-budget-usd 0.25 --verbose -- -q", false},
		{"claude resumed and forked, with a schema", configs.Agent{Kind: "claude-code"}, invocation{prompt: "p", resume: "s1", fork: true, schema: []byte(`{}`)},
			"claude -p --output-format json --permission-mode dontAsk --tools Read,Grep,Glob --allowedTools Read,Grep,Glob --resume s1 --fork-session --json-schema '{}' -- p", false},
		{"claude writes", configs.Agent{Kind: "claude-code", Write: true}, invocation{prompt: "p"},
			"claude -p --output-format json --permission-mode acceptEdits -- p", false},
		{"claude long prompt", configs.Agent{Kind: "claude-code"}, invocation{prompt: long},
			"claude -p --output-format json --permission-mode dontAsk --tools Read,Grep,Glob --allowedTools Read,Grep,Glob", true},
		{"codex", configs.Agent{Kind: "codex", Model: "gpt-5-codex"}, invocation{prompt: "p", schemaFile: "/tmp/s.json"},
			"codex exec --json --sandbox read-only --skip-git-repo-check --model gpt-5-codex --output-schema /tmp/s.json -- p", false},
		{"codex resumed", configs.Agent{Kind: "codex", Write: true}, invocation{prompt: "p", resume: "t1"},
			"codex exec --json --sandbox workspace-write --skip-git-repo-check resume t1 -- p", false},
		{"codex long prompt", configs.Agent{Kind: "codex"}, invocation{prompt: long},
			"codex exec --json --sandbox read-only --skip-git-repo-check -", true},
		{"gemini", configs.Agent{Kind: "gemini-cli", Model: "gemini-2.5-pro"}, invocation{prompt: "-p"},
			"gemini --output-format json --approval-mode plan --skip-trust --model gemini-2.5-pro --prompt=-p", false},
		{"gemini long prompt", configs.Agent{Kind: "gemini-cli", Write: true}, invocation{prompt: long},
			"gemini --output-format json --approval-mode auto_edit --skip-trust '--prompt=Answer the request given above.'", true},
		{"command, prompt as an argument", configs.Agent{Kind: "command", Binary: "cursor-agent", Args: []string{"-p", "{prompt}", "--json"}}, invocation{prompt: "p q"},
			"cursor-agent -p 'p q' --json", false},
		{"command, prompt on stdin", configs.Agent{Kind: "command", Binary: "my-agent"}, invocation{prompt: "p"},
			"my-agent", true},
	} {
		argv, stdin := command(&tc.a, tc.inv)
		if got := shellLine(argv); got != tc.want || (stdin != "") != tc.stdin {
			t.Errorf("%s:\n got %s (stdin %t)\nwant %s (stdin %t)", tc.name, got, stdin != "", tc.want, tc.stdin)
		}
	}
}
