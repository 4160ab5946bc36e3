package configs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/debatehq/debate/internal/redact"
)

// The kinds of coding agent a participant can be.
const (
	AgentClaudeCode = "claude-code" // Anthropic's Claude Code: claude -p --output-format json
	AgentCodex      = "codex"       // OpenAI's Codex CLI: codex exec --json
	AgentGemini     = "gemini-cli"  // Google's Gemini CLI: gemini -p … --output-format json
	AgentCommand    = "command"     // any program: the prompt in, the answer as text out
)

// AgentKinds lists the kinds of agent, in the order messages name them.
var AgentKinds = []string{AgentClaudeCode, AgentCodex, AgentGemini, AgentCommand}

// kindNames are names people give the kinds, by the program or the
// product.
var kindNames = map[string]string{
	"claude": AgentClaudeCode, "claude code": AgentClaudeCode, "claudecode": AgentClaudeCode,
	"codex-cli": AgentCodex, "openai-codex": AgentCodex,
	"gemini": AgentGemini, "gemini cli": AgentGemini, "geminicli": AgentGemini,
	"cmd": AgentCommand, "exec": AgentCommand,
}

// PromptArg is the placeholder in a command agent's args that the prompt
// replaces; without it the prompt goes to the program's standard input.
const PromptArg = "{prompt}"

// Agent is a coding agent run as a process in place of a chat-completions
// endpoint: "agent" (or "fallbackAgent") on a participant. In the file it
// is the kind alone ("claude-code") or an object with the details.
type Agent struct {
	// Kind is one of AgentKinds.
	Kind string `json:"kind"`
	// Binary is the program to run; "": the kind's usual name on PATH
	// (claude, codex, gemini). A command agent must name it.
	Binary string `json:"binary,omitempty"`
	// Model is passed to the CLI's --model; "": the CLI's own default.
	// The participant's "model" beside "agent" is folded into it.
	Model string `json:"model,omitempty"`
	// Args are added to the command line after the program's own; in a
	// command agent, an argument "{prompt}" is replaced by the prompt.
	Args []string `json:"args,omitempty"`
	// Dir is the working folder, relative to the config's folder; "": the
	// top of the git repository the config lives in, else its folder.
	Dir string `json:"dir,omitempty"`
	// Timeout bounds one run of the agent, in milliseconds; 0:
	// DefaultAgentTimeout. The whole process group is ended when it passes.
	Timeout int `json:"timeout,omitempty"`
	// MaxTurns bounds the agent's turns in one run (Claude Code's
	// --max-turns); 0: the CLI's own limit.
	MaxTurns int `json:"maxTurns,omitempty"`
	// MaxBudgetUSD bounds what one run may spend, in US dollars (Claude
	// Code's --max-budget-usd); 0: no bound of its own.
	MaxBudgetUSD float64 `json:"maxBudgetUSD,omitempty"`
	// MaxOutputBytes caps what is read of the agent's output; past it the
	// answer is cut (command) or the run fails (the JSON of the others).
	// 0: DefaultMaxResponseBytes.
	MaxOutputBytes int64 `json:"maxOutputBytes,omitempty"`
	// Write lets the agent edit files (Claude Code acceptEdits, Codex
	// workspace-write, Gemini auto_edit); the default is read-only.
	Write bool `json:"write,omitempty"`
	// WriteInCI allows Write when the environment variable CI is set;
	// without it such a run is refused.
	WriteInCI bool `json:"writeInCI,omitempty"`
}

// UnmarshalJSON accepts a kind alone ("codex") or the whole object.
func (a *Agent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &a.Kind)
	}
	type plain Agent
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return fmt.Errorf("decode agent: %w", err)
	}
	return nil
}

// Label names the agent where a model name would stand (reports, usage
// per model, fallbacks): its kind, and its model after a "/" when it has
// one; a command agent without a model is named by its program.
func (a *Agent) Label() string {
	switch {
	case a.Model != "":
		return a.Kind + "/" + a.Model
	case a.Kind == AgentCommand && a.Binary != "":
		return a.Kind + "/" + filepath.Base(a.Binary)
	}
	return a.Kind
}

// Program is the program the agent runs: Binary, else the kind's own.
func (a *Agent) Program() string {
	if a.Binary != "" {
		return a.Binary
	}
	switch a.Kind {
	case AgentClaudeCode:
		return "claude"
	case AgentCodex:
		return "codex"
	case AgentGemini:
		return "gemini"
	}
	return ""
}

func (a *Agent) clone() *Agent {
	if a == nil {
		return nil
	}
	cp := *a
	cp.Args = slices.Clone(a.Args)
	return &cp
}

// AgentFor returns the agent that plays model for participant p: its
// agent when model is its primary, its fallbackAgent when model is its
// fallback; nil when an API model plays it.
func (p Participant) AgentFor(model string) *Agent {
	switch {
	case p.Agent != nil && model == p.Model:
		return p.Agent
	case p.FallbackAgent != nil && model == p.Fallback:
		return p.FallbackAgent
	}
	return nil
}

// HasAgent reports whether an agent plays p, as primary or fallback.
func (p Participant) HasAgent() bool { return p.Agent != nil || p.FallbackAgent != nil }

// foldAgents names each agent where a model name stands: the
// participant's model beside "agent" becomes the agent's model, and the
// model and fallback become the agents' labels. It is idempotent.
func foldAgents(p *Participant) {
	if a := p.Agent; a != nil {
		if a.Model == "" && p.Model != "" && p.Model != a.Label() {
			a.Model = p.Model
		}
		p.Model = a.Label()
	}
	if a := p.FallbackAgent; a != nil {
		p.Fallback = a.Label()
	}
}

// validateAgents checks a participant's agents, at path.
func (c *Config) validateAgents(r *reporter, path string, p *Participant) {
	if p.Agent != nil && c.src.written(joinPath(path, "model")) && c.src.written(joinPath(joinPath(path, "agent"), "model")) {
		r.at(joinPath(path, "model"), `the agent's model is set twice; keep "model" or "agent.model", not both`)
	}
	if p.FallbackAgent != nil && c.src.written(joinPath(path, "fallback")) {
		r.at(joinPath(path, "fallbackAgent"), `a participant has one fallback; keep "fallback" (a model) or "fallbackAgent", not both`)
	}
	if p.FallbackAgent != nil && p.Fallback == p.Model {
		r.at(joinPath(path, "fallbackAgent"), "is the participant's own agent (%s); choose another agent or a model as its fallback", p.Model)
	}
	for _, f := range []struct {
		name string
		a    *Agent
	}{{"agent", p.Agent}, {"fallbackAgent", p.FallbackAgent}} {
		if f.a != nil {
			c.validateAgent(r, joinPath(path, f.name), f.a)
		}
	}
}

// validateAgent checks one agent at path.
func (c *Config) validateAgent(r *reporter, path string, a *Agent) {
	kindPath := path
	if c.src.written(joinPath(path, "kind")) {
		kindPath = joinPath(path, "kind")
	}
	if !slices.Contains(AgentKinds, a.Kind) {
		hint := ""
		if g, ok := kindNames[strings.ToLower(a.Kind)]; ok {
			hint = fmt.Sprintf("did you mean %q? ", g)
		} else if g, ok := Closest(a.Kind, AgentKinds); ok {
			hint = fmt.Sprintf("did you mean %q? ", g)
		}
		r.at(kindPath, "unknown agent kind %q; %s(kinds: %s)", a.Kind, hint, strings.Join(AgentKinds, ", "))
	}
	if a.Kind == AgentCommand && strings.TrimSpace(a.Binary) == "" {
		r.missing(path, "binary", `required for a command agent: the program to run, e.g. "cursor-agent"`)
	}
	if a.Kind != AgentCommand {
		for i, arg := range a.Args {
			if strings.Contains(arg, PromptArg) {
				r.at(indexPath(joinPath(path, "args"), i), "%s is replaced only in a command agent's args; %s takes the prompt itself", PromptArg, a.Kind)
			}
		}
	}
	if a.Dir != "" {
		switch st, err := os.Stat(a.Dir); {
		case err != nil:
			r.at(joinPath(path, "dir"), "folder %s does not exist; create it or remove the field to run the agent in the config's repository", a.Dir)
		case !st.IsDir():
			r.at(joinPath(path, "dir"), "%s is a file, not a folder; name the folder the agent works in, or remove the field to run it in the config's repository", a.Dir)
		}
	}
	if a.Timeout < 0 {
		r.at(joinPath(path, "timeout"), "must be 0 (the default, %d ms) or more milliseconds (got %d)", DefaultAgentTimeout, a.Timeout)
	}
	r.atMost(joinPath(path, "timeout"), int64(a.Timeout), MaxTimeout, "one hour in milliseconds")
	if a.MaxTurns < 0 {
		r.at(joinPath(path, "maxTurns"), "must be 0 (the CLI's own limit) or more (got %d)", a.MaxTurns)
	}
	r.atMost(joinPath(path, "maxTurns"), int64(a.MaxTurns), MaxAgentTurns, "turns of one agent run")
	if !(a.MaxBudgetUSD >= 0 && a.MaxBudgetUSD <= MaxPrice) {
		r.at(joinPath(path, "maxBudgetUSD"), "must be 0 (no bound) to %d US dollars (got %g)", MaxPrice, a.MaxBudgetUSD)
	}
	if a.Kind != AgentClaudeCode {
		for _, f := range []struct {
			name string
			set  bool
		}{{"maxTurns", a.MaxTurns != 0}, {"maxBudgetUSD", a.MaxBudgetUSD != 0}} {
			if f.set {
				r.warn(joinPath(path, f.name), `only a %s agent honours it; a %s agent ignores it: remove it ("timeout" bounds a run of any agent)`, AgentClaudeCode, a.Kind)
			}
		}
	}
	if a.MaxOutputBytes < 0 {
		r.at(joinPath(path, "maxOutputBytes"), "must be 0 (the default, %d bytes) or more (got %d)", DefaultMaxResponseBytes, a.MaxOutputBytes)
	}
	r.atMost(joinPath(path, "maxOutputBytes"), a.MaxOutputBytes, MaxResponseBytes, "1 GiB")
	if a.WriteInCI && !a.Write {
		r.at(joinPath(path, "writeInCI"), `allows write access in CI, which this agent does not have; remove it or add "write": true`)
	}
}

// agentDefaults resolves an agent's folder against the config's.
func (c *Config) agentDefaults(a *Agent) {
	if a != nil && a.Dir != "" {
		a.Dir = c.resolve(a.Dir)
	}
}

// participantRefs returns every participant a model or an agent plays:
// debaters, reviewer (or judge), judges and the protocol's roles.
func (c *Config) participantRefs() []*Participant {
	var out []*Participant
	for i := range c.Debaters {
		out = append(out, &c.Debaters[i])
	}
	for _, p := range []*Participant{c.Reviewer, c.Judge} {
		if p != nil {
			out = append(out, p)
		}
	}
	for i := range c.Judges {
		out = append(out, &c.Judges[i])
	}
	return append(out, c.roleParticipants()...)
}

// Agents returns every participant an agent plays, as primary or
// fallback, in the order of Participants.
func (c *Config) Agents() []Participant {
	var out []Participant
	for _, p := range c.Participants() {
		if p.HasAgent() {
			out = append(out, p)
		}
	}
	return out
}

// DropAgents leaves every participant to its models: the agents' labels
// stay as model names (a demo's scripted model answers them).
func (c *Config) DropAgents() {
	for _, p := range c.participantRefs() {
		p.Agent, p.FallbackAgent = nil, nil
	}
}

// secretArgs returns the values among args that a credential-named flag
// gives ("--api-key=v", or "--token v"), to be kept out of what is
// printed or recorded.
func secretArgs(args []string) []string {
	var out []string
	for i, arg := range args {
		name, val, inline := strings.Cut(arg, "=")
		if !strings.HasPrefix(name, "-") || !redact.SecretName(strings.TrimLeft(name, "-")) {
			continue
		}
		switch {
		case inline && val != "":
			out = append(out, val)
		case !inline && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			out = append(out, args[i+1])
		}
	}
	return out
}

// RedactedArgs returns the agent's args with the values of
// credential-named flags masked: what the config's copy in run.json, the
// dry run and the raw records show.
func (a *Agent) RedactedArgs() []string {
	secrets := secretArgs(a.Args)
	out := slices.Clone(a.Args)
	for i, arg := range out {
		for _, v := range secrets {
			arg = strings.ReplaceAll(arg, v, redactedKey)
		}
		out[i] = arg
	}
	return out
}
