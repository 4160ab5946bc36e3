package agents

import (
	"context"
	"strings"

	"github.com/debatehq/debate/configs"
)

// Line is how a dry run shows one agent: the command lines a run starts
// and the folder it starts them in.
type Line struct {
	Participant string
	Fallback    bool // the agent is the participant's fallback
	Agent       string
	Dir         string
	// Fresh starts a session; Resume continues one (empty for a CLI that
	// cannot); Judge asks for an answer to a schema (a judge's calls).
	Fresh, Resume, Judge string
	// Preamble is what a new session's prompt starts with, before the
	// step's messages.
	Preamble string
}

// promptWord stands for the prompt in a command line shown; "<prompt>"
// replaces it once the line is quoted (a shell word that needs no quotes).
const promptWord = "PROMPT_OF_THE_STEP"

// Plan returns the command lines of every agent of cfg, in participant
// order, primaries before fallbacks.
func Plan(ctx context.Context, cfg *configs.Config) []Line {
	var out []Line
	for _, p := range cfg.Participants() {
		for i, a := range []*configs.Agent{p.Agent, p.FallbackAgent} {
			if a == nil {
				continue
			}
			dir := workdir(ctx, cfg, a)
			l := Line{Participant: p.ID, Fallback: i == 1, Agent: a.Label(), Dir: dir, Fresh: shown(a, invocation{prompt: promptWord}), Preamble: preamble(a, dir)}
			if resumable(a.Kind) {
				l.Resume = shown(a, invocation{prompt: promptWord, resume: "SESSION_ID"})
			}
			inv := invocation{prompt: promptWord, schema: []byte(`{…judgment schema…}`)}
			if a.Kind == configs.AgentCodex {
				inv.schemaFile = "SCHEMA_FILE"
			}
			l.Judge = shown(a, inv)
			out = append(out, l)
		}
	}
	return out
}

// shown is the command line of inv as a shell reads it, the prompt
// marked as such and credentials in the args masked.
func shown(a *configs.Agent, inv invocation) string {
	argv, stdin := command(redacted(a), inv)
	line := strings.ReplaceAll(shellLine(argv), promptWord, "<prompt>")
	if stdin != "" {
		line += " < <prompt>"
	} else {
		line += " < /dev/null"
	}
	return line
}

// redacted is a with the values of its credential-named flags masked.
func redacted(a *configs.Agent) *configs.Agent {
	cp := *a
	cp.Args = a.RedactedArgs()
	return &cp
}
