package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sourcegraph/conc/iter"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
)

// The results of an agent's check besides providers' ok, key refused and
// timeout.
const (
	CheckMissing     = "not installed"
	CheckNotLoggedIn = "not logged in"
	CheckNoVersion   = "no version"
)

// installHint says how to install the CLI of a kind.
func installHint(kind string) string {
	switch kind {
	case configs.AgentClaudeCode:
		return "install it with: npm install -g @anthropic-ai/claude-code"
	case configs.AgentCodex:
		return "install it with: npm install -g @openai/codex"
	case configs.AgentGemini:
		return "install it with: npm install -g @google/gemini-cli"
	}
	return `install it, or set the agent's "binary" to its path`
}

// loginHint says how to give the CLI of a kind its credentials.
func loginHint(kind string) string {
	switch kind {
	case configs.AgentClaudeCode:
		return "log in: run claude and type /login, or set ANTHROPIC_API_KEY"
	case configs.AgentCodex:
		return "log in: codex login (or printenv OPENAI_API_KEY | codex login --with-api-key)"
	case configs.AgentGemini:
		return "log in: run gemini once and choose a sign-in method, or set GEMINI_API_KEY"
	}
	return "give the program the credentials it needs"
}

// checkPrompt is the tiny question an agent's check asks.
var checkPrompt = []providers.Message{{Role: "user", Content: "Reply with the single word ok. Do not use any tool."}}

// CheckOptions tune Check.
type CheckOptions struct {
	// Timeout bounds each step of a check; 0: 30 seconds (or the agent's
	// own timeout when shorter).
	Timeout time.Duration
	// Environ is as in Options.
	Environ []string
}

// Check tries every agent of cfg, primaries and fallbacks, in parallel:
// is its program found, what version it reports, and does it answer one
// tiny prompt in its read-only mode. Each row's Host is the program's
// version (with its name when the version does not say it); a failure's
// Class is its class and its Detail says how to fix it (the install or the
// login command).
func Check(ctx context.Context, cfg *configs.Config, opt CheckOptions) []providers.CheckRow {
	timeout := cmp.Or(opt.Timeout, 30*time.Second)
	type probe struct {
		p        configs.Participant
		a        *configs.Agent // as checked: read-only, within the check's timeout
		fallback bool
	}
	r := &Runner{cfg: cfg, env: environ(orEnviron(opt.Environ)), log: slog.New(slog.DiscardHandler), dirs: map[*configs.Agent]string{}, states: map[string]string{}}
	var probes []probe
	for _, p := range cfg.Participants() {
		for i, a := range []*configs.Agent{p.Agent, p.FallbackAgent} {
			if a == nil {
				continue
			}
			checked := *a
			checked.Timeout = int(min(time.Duration(cmp.Or(a.Timeout, configs.DefaultAgentTimeout))*time.Millisecond, timeout) / time.Millisecond)
			checked.Write = false
			r.dirs[&checked] = workdir(ctx, cfg, a)
			probes = append(probes, probe{p, &checked, i == 1})
		}
	}
	return iter.Map(probes, func(pr *probe) providers.CheckRow {
		row := r.check(ctx, pr.a, timeout)
		row.Participant, row.Fallback, row.Model = pr.p.ID, pr.fallback, pr.a.Label()
		return row
	})
}

// check tries one agent as checked, in its folder (r.dirs): its version
// within timeout, then the tiny prompt.
func (r *Runner) check(ctx context.Context, a *configs.Agent, timeout time.Duration) providers.CheckRow {
	row := providers.CheckRow{Host: a.Program()}
	path, err := exec.LookPath(a.Program())
	if err != nil {
		row.Result, row.Class, row.Detail = CheckMissing, providers.ClassAgentMissing.String(), fmt.Sprintf("%s not found: %s", a.Program(), installHint(a.Kind))
		return row
	}
	if a.Kind != configs.AgentCommand { // any program need not know --version
		v := run(ctx, process{argv: []string{path, "--version"}, dir: r.dirs[a], env: r.env, timeout: timeout, maxOut: 4 << 10})
		version := lastLines(v.stdout, 1)
		if v.exit != 0 || version == "" {
			row.Result, row.Class, row.Detail = CheckNoVersion, providers.ClassAgentMissing.String(), fmt.Sprintf("%s --version failed (exit %d): %s; %s", a.Program(), v.exit, lastLines(v.stderr, 2), installHint(a.Kind))
			return row
		}
		row.Host = version
		if base := filepath.Base(a.Program()); !strings.Contains(strings.ToLower(version), strings.ToLower(base)) {
			row.Host = base + " " + version
		}
	}
	start := time.Now()
	_, err = r.attempt(ctx, providers.Request{Model: a.Label(), Messages: checkPrompt}, a, nil, false)
	row.Latency = time.Since(start).Round(time.Millisecond)
	row.LatencyMS = row.Latency.Milliseconds()
	if err == nil {
		row.Result, row.Usable = providers.CheckOK, true
		return row
	}
	var f *failure
	if !errors.As(err, &f) {
		row.Result, row.Class, row.Detail = providers.ClassOther.Title(), providers.ClassOther.String(), err.Error()
		return row
	}
	row.Class = f.class.String()
	switch f.class {
	case providers.ClassKeyRefused:
		row.Result, row.Detail = CheckNotLoggedIn, f.msg+"; "+loginHint(a.Kind)
	case providers.ClassTimeout:
		row.Result, row.Detail = providers.ClassTimeout.Title(), f.msg+" (offline, or waiting for a login? "+loginHint(a.Kind)+")"
	default:
		row.Result, row.Detail = f.class.Title(), strings.TrimSpace(f.msg)
	}
	return row
}
