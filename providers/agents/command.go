package agents

import (
	"strconv"
	"strings"

	"github.com/debatehq/debate/configs"
)

// invocation is what one run of an agent is asked.
type invocation struct {
	prompt string
	// resume is the session to continue, "" for a fresh one; fork
	// branches a new session from it (Claude Code).
	resume string
	fork   bool
	// schema is the JSON schema of the answer, nil for free text;
	// schemaFile holds it for a CLI that reads it from a file (Codex).
	schema     []byte
	schemaFile string
}

// maxArgPrompt is the longest prompt given as an argument: Linux refuses
// a single argument over 128 KiB, so a longer one goes to standard input.
const maxArgPrompt = 100 << 10

// command returns the program and arguments that run a with inv, and what
// to write to its standard input ("" for none: it reads the null device).
func command(a *configs.Agent, inv invocation) (argv []string, stdin string) {
	prompt, viaStdin := inv.prompt, len(inv.prompt) > maxArgPrompt
	if viaStdin {
		stdin = prompt
	}
	argv = []string{a.Program()}
	switch a.Kind {
	case configs.AgentClaudeCode:
		argv = append(argv, claudeArgs(a, inv)...)
		argv = append(argv, a.Args...)
		if !viaStdin {
			argv = append(argv, "--", prompt)
		}
	case configs.AgentCodex:
		argv = append(argv, codexArgs(a, inv)...)
		argv = append(argv, a.Args...)
		if inv.resume != "" {
			argv = append(argv, "resume", inv.resume)
		}
		if viaStdin {
			argv = append(argv, "-")
		} else {
			argv = append(argv, "--", prompt)
		}
	case configs.AgentGemini:
		argv = append(argv, geminiArgs(a)...)
		argv = append(argv, a.Args...)
		if viaStdin {
			argv = append(argv, "--prompt=Answer the request given above.")
		} else {
			argv = append(argv, "--prompt="+prompt)
		}
	case configs.AgentCommand:
		placed := false
		for _, arg := range a.Args {
			if strings.Contains(arg, configs.PromptArg) {
				arg, placed = strings.ReplaceAll(arg, configs.PromptArg, prompt), true
			}
			argv = append(argv, arg)
		}
		if !placed {
			stdin = prompt
		}
	}
	return argv, stdin
}

// claudeReadTools are the only tools a read-only Claude Code has: it reads
// and searches the files, and can run, edit or fetch nothing. Plan mode is
// not relied on: in print mode Claude Code 2.1 approves its own exit from
// plan mode, and then may edit.
const claudeReadTools = "Read,Grep,Glob"

// claudeArgs are Claude Code's options: print mode with one JSON result,
// read-only tools that need no permission (nothing is asked) unless write
// access is given, and the limits.
func claudeArgs(a *configs.Agent, inv invocation) []string {
	args := []string{"-p", "--output-format", "json"}
	if a.Write {
		args = append(args, "--permission-mode", "acceptEdits")
	} else {
		args = append(args, "--permission-mode", "dontAsk", "--tools", claudeReadTools, "--allowedTools", claudeReadTools)
	}
	if a.Model != "" {
		args = append(args, "--model", a.Model)
	}
	if a.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(a.MaxTurns))
	}
	if a.MaxBudgetUSD > 0 {
		args = append(args, "--max-budget-usd", strconv.FormatFloat(a.MaxBudgetUSD, 'f', -1, 64))
	}
	if inv.resume != "" {
		args = append(args, "--resume", inv.resume)
		if inv.fork {
			args = append(args, "--fork-session")
		}
	}
	if inv.schema != nil {
		args = append(args, "--json-schema", string(inv.schema))
	}
	return args
}

// codexArgs are the options of codex exec: JSON Lines events, the
// read-only sandbox named explicitly (workspace-write when write access is
// given), and the model and answer schema.
func codexArgs(a *configs.Agent, inv invocation) []string {
	sandbox := "read-only"
	if a.Write {
		sandbox = "workspace-write"
	}
	args := []string{"exec", "--json", "--sandbox", sandbox, "--skip-git-repo-check"}
	if a.Model != "" {
		args = append(args, "--model", a.Model)
	}
	if inv.schemaFile != "" {
		args = append(args, "--output-schema", inv.schemaFile)
	}
	return args
}

// geminiArgs are Gemini CLI's options: one JSON object, plan mode
// (read-only) unless write access is given, in a folder trusted for this
// session only (an untrusted folder turns plan mode back to default).
func geminiArgs(a *configs.Agent) []string {
	mode := "plan"
	if a.Write {
		mode = "auto_edit"
	}
	args := []string{"--output-format", "json", "--approval-mode", mode, "--skip-trust"}
	if a.Model != "" {
		args = append(args, "--model", a.Model)
	}
	return args
}

// resumable reports whether a kind's CLI continues a session by its id.
func resumable(kind string) bool {
	return kind == configs.AgentClaudeCode || kind == configs.AgentCodex
}

// forkable reports whether a kind's CLI branches a new session from an
// earlier one.
func forkable(kind string) bool { return kind == configs.AgentClaudeCode }

// shellLine returns argv as one line a POSIX shell reads back as the same
// words: what --dry-run prints.
func shellLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = shellWord(w)
	}
	return strings.Join(words, " ")
}

// shellWord quotes w for a POSIX shell when it needs it.
func shellWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
