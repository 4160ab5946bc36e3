// Package agents runs coding agents — Claude Code, Codex, Gemini CLI or any
// command — as participants of a debate: one process per attempt, started
// in the CLI's read-only mode, with its standard input closed, the
// variables of a nested session removed, in a session and process group
// of its own that a timeout, an output cap or the run's end kills whole.
// It reads each CLI's own JSON into the answer, usage and cost a model call
// returns, classifies its failures as providers classifies an endpoint's,
// and continues a debater's session from step to step of a topic where the
// CLI can resume one. The attempt loop and the fallback are the caller's.
package agents

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/gitrepo"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// Completer makes one attempt of a call at an endpoint: what answers the
// calls of participants no agent plays.
type Completer interface {
	Complete(ctx context.Context, r providers.Request) (providers.Response, error)
}

// Options tune a Runner.
type Options struct {
	// Environ is the environment agents start from; nil: os.Environ().
	// The nested-session variables are removed from it.
	Environ []string
	// Logger receives a line per agent run; nil discards them.
	Logger *slog.Logger
	// Record, when set, receives every run of an agent as an exchange:
	// the command line and folder as its request, what the program
	// printed on its standard output (up to the cap) as its response. It
	// is called from the calling goroutines.
	Record func(providers.Exchange)
	// Read are states of repositories the run has read already (the
	// repository it shares for quotes, its output and cache folders left
	// out): an agent working at the top of one of them takes its state
	// instead of reading it again.
	Read []gitrepo.State
}

// Runner is a Completer that runs the calls of agent participants as
// processes and hands every other call to the endpoints' Completer. It is
// safe for concurrent use.
type Runner struct {
	api    Completer
	cfg    *configs.Config
	byID   map[string]configs.Participant
	sem    *semaphore.Weighted
	env    []string
	log    *slog.Logger
	record func(providers.Exchange)
	dirs   map[*configs.Agent]string // each agent's working folder
	states map[string]string         // working folder → repository state key
	book   sessionBook
	hung   sync.Map // call id → true once an attempt of the call hung until its timeout
}

// New returns a Runner for the agents of cfg in front of api. It reads the
// state of each agent's repository once: what the run's answers depend on.
// Write access is refused when the environment says CI (the variable CI
// set) unless the agent allows it there.
func New(ctx context.Context, cfg *configs.Config, api Completer, opt Options) (*Runner, error) {
	r := &Runner{
		api: api, cfg: cfg, byID: map[string]configs.Participant{},
		sem:    semaphore.NewWeighted(int64(max(cfg.Params.AgentConcurrency, 1))),
		env:    environ(orEnviron(opt.Environ)),
		log:    cmp.Or(opt.Logger, slog.New(slog.DiscardHandler)),
		record: opt.Record,
		dirs:   map[*configs.Agent]string{},
		states: map[string]string{},
	}
	for _, st := range opt.Read {
		r.states[st.Root] = st.Key()
	}
	ci := inCI(r.env)
	for _, p := range cfg.Participants() {
		r.byID[p.ID] = p
		for _, a := range []*configs.Agent{p.Agent, p.FallbackAgent} {
			if a == nil {
				continue
			}
			if a.Write && ci && !a.WriteInCI {
				return nil, fmt.Errorf(`participant %q: agent %s has write access, refused in CI (CI is set); add "writeInCI": true to the agent to allow it`, p.ID, a.Label())
			}
			dir := workdir(ctx, cfg, a)
			r.dirs[a] = dir
			if _, read := r.states[dir]; !read {
				r.states[dir] = repoState(ctx, cfg, dir)
			}
		}
	}
	return r, nil
}

// workdir returns the folder agent a runs in: its dir, else the top of the
// git repository the config lives in, else the config's folder.
func workdir(ctx context.Context, cfg *configs.Config, a *configs.Agent) string {
	dir := cmp.Or(a.Dir, cfg.Dir, ".")
	if a.Dir == "" {
		if root, err := gitrepo.Root(ctx, dir); err == nil {
			return root
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// repoState is the state of the git repository that holds dir, the run's
// output and cache folders left out; "" outside one.
func repoState(ctx context.Context, cfg *configs.Config, dir string) string {
	st, err := gitrepo.Open(ctx, dir, cfg.Output.Dir, cfg.Cache.Dir)
	if err != nil {
		return ""
	}
	return st.Key()
}

// orEnviron is env, or the process's environment when env is nil.
func orEnviron(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// inCI reports whether env says the run is in CI: CI set to anything but
// "", "0" or "false".
func inCI(env []string) bool {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "CI="); ok {
			v = strings.TrimSpace(v)
			return v != "" && v != "0" && !strings.EqualFold(v, "false")
		}
	}
	return false
}

// Adaptations returns what the endpoints' Completer adapted to, if it
// does.
func (r *Runner) Adaptations() []providers.Adaptation {
	if a, ok := r.api.(interface{ Adaptations() []providers.Adaptation }); ok {
		return a.Adaptations()
	}
	return nil
}

// agent returns the agent that answers request q, nil for a model.
func (r *Runner) agent(q providers.Request) *configs.Agent {
	p, ok := r.byID[q.Participant]
	if !ok {
		return nil
	}
	return p.AgentFor(q.Model)
}

// key is what an agent's answer depends on besides the request: its kind,
// program, arguments, model, limits, write access and the state of the
// repository it reads; "" for a call a model answers. Sent adds it to what
// a call sends, by which the journal and the call cache key the call.
func (r *Runner) key(q providers.Request) string {
	a := r.agent(q)
	if a == nil {
		return ""
	}
	dir := r.dirs[a]
	shapes := *a // what can change an answer: not how long it may take
	shapes.Timeout, shapes.WriteInCI = 0, false
	b, _ := json.Marshal(struct {
		Agent configs.Agent `json:"agent"`
		Dir   string        `json:"dir"`
		State string        `json:"state"`
	}{shapes, dir, r.states[dir]})
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// Sent says what q sends that can change its answer, for the journal and
// the call cache to key it by: for an agent, its key (see key) and the
// prompt, the answer's JSON and its schema; for a model, what the
// endpoints' Completer sends.
func (r *Runner) Sent(q providers.Request) (providers.Sent, error) {
	if r.agent(q) == nil {
		s, ok := r.api.(interface {
			Sent(providers.Request) (providers.Sent, error)
		})
		if !ok {
			return providers.Sent{}, errors.New("the endpoints' client cannot say what it sends")
		}
		return s.Sent(q)
	}
	body, err := json.Marshal(struct {
		Messages []providers.Message `json:"messages"`
		JSON     bool                `json:"json,omitempty"`
		Schema   json.RawMessage     `json:"schema,omitempty"`
	}{q.Messages, q.JSON, q.Schema})
	if err != nil {
		return providers.Sent{}, fmt.Errorf("participant %q, agent %s: encode the request: %w", q.Participant, q.Model, err)
	}
	return providers.Sent{URL: "agent:" + q.Model, Headers: map[string]string{"agent": r.key(q)}, Body: body}, nil
}

// Complete answers q: by running its agent when one plays its participant
// and model, else through the endpoints' Completer.
func (r *Runner) Complete(ctx context.Context, q providers.Request) (providers.Response, error) {
	a := r.agent(q)
	if a == nil {
		return r.api.Complete(ctx, q)
	}
	if err := r.sem.Acquire(ctx, 1); err != nil {
		return providers.Response{}, &providers.Error{Class: providers.ClassCanceled, Model: q.Model, Err: err}
	}
	defer r.sem.Release(1)
	if q.OnSent != nil {
		q.OnSent()
	}
	if q.OnDone != nil {
		defer q.OnDone()
	}
	return r.complete(ctx, q, a)
}

// complete runs a for q, continuing the participant's session where it
// can, and afresh with the whole prompt when that resume fails.
func (r *Runner) complete(ctx context.Context, q providers.Request, a *configs.Agent) (providers.Response, error) {
	start := time.Now()
	k := sessionKey{topic: q.Origin.Topic, participant: q.Participant, agent: a.Label()}
	var prev *session
	fork := false
	if resumable(a.Kind) && continues(q.Origin.Step) {
		prev, fork = r.book.take(k, q.Origin.Node, forkable(a.Kind))
	}
	ans, err := r.attempt(ctx, q, a, prev, fork)
	resumeFailed := false
	if f, ok := errors.AsType[*failure](err); ok && prev != nil && f.resume {
		r.log.Info("agent session could not be resumed; starting afresh with the whole prompt",
			"participant", q.Participant, "agent", a.Label(), "session", prev.id, "err", f.msg)
		prev, resumeFailed = nil, true
		ans, err = r.attempt(ctx, q, a, nil, false)
	}
	if err != nil {
		if !fork { // a forked session stays another call's
			r.book.release(prev)
		}
		return providers.Response{}, r.wrap(q, a, r.hangs(q, err))
	}
	r.hung.Delete(q.Call)
	for _, n := range ans.notes {
		r.log.Info("agent note", "participant", q.Participant, "agent", a.Label(), "note", n)
	}
	if ans.session != "" && continues(q.Origin.Step) {
		r.book.put(k, q.Origin.Node, q.Origin.Node+" "+q.Origin.Step, ans.session, prev, fork, resumeFailed, q.Messages)
	}
	resp := providers.Response{Text: ans.text, Reasoning: ans.reasoning, FinishReason: "stop", Model: q.Model,
		Usage: ans.usage, Latency: time.Since(start)}
	if ans.cut {
		resp.FinishReason = "length"
	}
	return resp, nil
}

// hangs lets a call without a fallback to go to hang until its timeout
// once: the attempt loop tries it again, as a timeout may pass, but a
// second hang of the same call is an agent that does not answer this
// prompt, and the call ends rather than wait out api.maxRetries more
// timeouts. With a fallback, fallback.maxConsecutiveFailures decides.
func (r *Runner) hangs(q providers.Request, err error) error {
	f, ok := errors.AsType[*failure](err)
	if !ok || f.class != providers.ClassTimeout || q.Call == 0 {
		return err
	}
	if p := r.byID[q.Participant]; q.Model == p.Model && p.Fallback != "" && p.Fallback != p.Model {
		return err
	}
	if _, again := r.hung.LoadOrStore(q.Call, true); again {
		r.hung.Delete(q.Call)
		return &failure{class: providers.ClassAgentLimit, msg: "hung twice: " + f.msg}
	}
	return err
}

// continues reports whether a step continues the debater's session: its
// positions and rebuttals do; a judge's calls and repairs start afresh.
func continues(step string) bool {
	return step == string(tree.StepPosition) || step == string(tree.StepRebuttal)
}

// attempt runs a once for q, continuing prev (forked when fork) when it is
// not nil.
func (r *Runner) attempt(ctx context.Context, q providers.Request, a *configs.Agent, prev *session, fork bool) (answer, error) {
	inv := invocation{prompt: r.preamble(a) + render(q.Messages, nil)}
	if prev != nil {
		inv.resume, inv.fork, inv.prompt = prev.id, fork, render(q.Messages, prev.sent)
	}
	if q.JSON && len(q.Schema) > 0 {
		inv.schema = q.Schema
		if a.Kind == configs.AgentCodex {
			f, err := schemaFile(q.Schema)
			if err != nil {
				return answer{}, err
			}
			defer os.Remove(f)
			inv.schemaFile = f
		}
	}
	argv, stdin := command(a, inv)
	timeout := time.Duration(cmp.Or(a.Timeout, configs.DefaultAgentTimeout)) * time.Millisecond
	started := time.Now()
	o := run(ctx, process{argv: argv, dir: r.dirs[a], env: r.env, stdin: stdin, timeout: timeout,
		maxOut: cmp.Or(a.MaxOutputBytes, configs.DefaultMaxResponseBytes)})
	r.log.Debug("agent ran", "participant", q.Participant, "agent", a.Label(), "exit", o.exit, "elapsed", o.elapsed, "stdout", len(o.stdout))
	if r.record != nil {
		shown, _ := command(redacted(a), inv)
		r.record(exchange(q, shown, r.dirs[a], stdin, o, started))
	}
	switch {
	case o.err != nil && ctx.Err() != nil:
		return answer{}, &failure{class: providers.ClassCanceled, msg: o.err.Error()}
	case errors.Is(o.err, exec.ErrNotFound) || errors.Is(o.err, os.ErrNotExist):
		return answer{}, fail(providers.ClassAgentMissing, "program %s not found: %s", a.Program(), installHint(a.Kind))
	case o.err != nil:
		return answer{}, fail(providers.ClassOther, "%s: %v", a.Program(), o.err)
	case o.timedOut:
		return answer{}, fail(providers.ClassTimeout, "no answer within %s; its process group was ended%s", timeout, said(a, o))
	case o.overflow && a.Kind != configs.AgentCommand:
		return answer{}, fail(providers.ClassAnswerTooLarge, "its output passed %d bytes; its process group was ended", len(o.stdout))
	}
	ans, f := parse(a, o, r.cfg.Pricing)
	if f != nil {
		return ans, f
	}
	if a.Kind == configs.AgentCommand {
		// A command reports no usage: estimated as a provider's missing
		// usage is, and marked so.
		ans.usage = providers.Usage{PromptTokens: providers.EstimateTokens(len(inv.prompt)),
			CompletionTokens: providers.EstimateTokens(len(ans.text)), Estimated: true}
	}
	return ans, nil
}

// exchange is a run of an agent as the raw records keep a call.
func exchange(q providers.Request, argv []string, dir, stdin string, o outcome, started time.Time) providers.Exchange {
	req, _ := json.Marshal(struct {
		Argv  []string `json:"argv"`
		Dir   string   `json:"dir"`
		Stdin string   `json:"stdin,omitempty"`
	}{argv, dir, stdin})
	x := providers.Exchange{Origin: q.Origin, Participant: q.Participant, Model: q.Model, Attempt: max(q.Attempt, 1),
		Request: req, Response: o.stdout, Started: started, Latency: o.elapsed}
	switch {
	case o.err != nil:
		x.Err = o.err.Error()
	case o.timedOut:
		x.Err = "timeout"
	case o.overflow:
		x.Err = "output over its cap"
	case o.exit != 0:
		x.Err = fmt.Sprintf("exit %d: %s", o.exit, lastLines(o.stderr, 3))
	}
	return x
}

// preamble tells an agent starting a session where it is and what it may
// do there.
func (r *Runner) preamble(a *configs.Agent) string { return preamble(a, r.dirs[a]) + "\n\n" }

// preamble is what an agent working in dir is told first.
func preamble(a *configs.Agent, dir string) string {
	if a.Write {
		return fmt.Sprintf("You are working in %s, the code under debate.", dir)
	}
	return fmt.Sprintf("You are working in %s, the code under debate. Read and search the files you need to support what you say; change nothing.", dir)
}

// said is what a run that was cut short last said, to name its failure.
func said(a *configs.Agent, o outcome) string {
	last := ""
	if a.Kind == configs.AgentCodex {
		for line := range strings.Lines(string(o.stdout)) {
			var ev codexEvent
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "error" {
				last = ev.Message
			}
		}
	}
	last = cmp.Or(last, lastLines(o.stderr, 1), lastLines(o.stdout, 1))
	if len(last) > 300 {
		last = last[:300] + "…"
	}
	if last == "" {
		return " (it printed nothing)"
	}
	return "; it last said: " + last
}

// wrap makes err the *providers.Error of a failed agent call, so that the
// attempt loop classifies it as any call's.
func (r *Runner) wrap(q providers.Request, a *configs.Agent, err error) error {
	class := providers.ClassOther
	if f, ok := errors.AsType[*failure](err); ok {
		class = f.class
	}
	return &providers.Error{Class: class, Model: q.Model, Endpoint: "agent " + a.Program(), Err: err}
}

// schemaFile writes a schema to a file of its own for a CLI that reads it
// from one.
func schemaFile(schema []byte) (string, error) {
	f, err := os.CreateTemp("", "debate-schema-*.json")
	if err != nil {
		return "", fmt.Errorf("write the answer schema: %w", err)
	}
	_, err = f.Write(schema)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the answer schema: %w", err)
	}
	return f.Name(), nil
}

// render is the text of msgs an agent reads as its prompt, leaving out
// those already sent in its session: every message's content, an earlier
// answer marked as such.
func render(msgs []providers.Message, sent map[[32]byte]bool) string {
	var b strings.Builder
	for _, m := range msgs {
		if sent[digest(m)] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if m.Role == "assistant" {
			b.WriteString("Your earlier answer was:\n\n")
		}
		b.WriteString(m.Content)
	}
	return b.String()
}

func digest(m providers.Message) [32]byte {
	return sha256.Sum256([]byte(m.Role + "\x00" + m.Content))
}

// Sessions returns the agent sessions of a topic's calls: by participant
// in config order, then by the node and step of their first call, so that
// the order never depends on which call ended first.
func (r *Runner) Sessions(topic string) []tree.AgentSession {
	order := map[string]int{}
	for i, p := range r.cfg.Participants() {
		if _, ok := order[p.ID]; !ok {
			order[p.ID] = i
		}
	}
	out := r.book.of(topic)
	slices.SortStableFunc(out, func(a, b tree.AgentSession) int {
		return cmp.Or(cmp.Compare(order[a.Participant], order[b.Participant]), compareCalls(a.Calls[0], b.Calls[0]))
	})
	return out
}

// compareCalls orders two calls named "node step" as the tree is walked:
// root, d1, d1.1, d1.2, d2, …; a position before a rebuttal.
func compareCalls(a, b string) int {
	an, as, _ := strings.Cut(a, " ")
	bn, bs, _ := strings.Cut(b, " ")
	return cmp.Or(slices.Compare(nodePath(an), nodePath(bn)), cmp.Compare(as, bs))
}

// nodePath is a node id as numbers: "root" → [], "d1.2" → [1 2].
func nodePath(id string) []int {
	var out []int
	for part := range strings.SplitSeq(strings.TrimPrefix(id, "d"), ".") {
		if n, err := strconv.Atoi(part); err == nil {
			out = append(out, n)
		}
	}
	return out
}
