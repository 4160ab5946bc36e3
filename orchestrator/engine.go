// Package orchestrator runs tree-recursive debates: for every topic a root
// node of positions, rebuttals and a judge's triage, then one child node per
// divergence, down to consensus or the round limit. It owns parallelism,
// per-topic model fallback, judge JSON extraction and repair, termination,
// the token budget, the optional synthesis calls, and progress events. It
// renders and writes nothing.
package orchestrator

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/prefix"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/quote/repo"
	"github.com/debatehq/debate/tree"
)

// Completer makes one attempt of a chat-completion call. Its errors are
// sorted by providers.Classify; trying again and falling back is the
// engine's attempt loop.
type Completer interface {
	Complete(ctx context.Context, r providers.Request) (providers.Response, error)
}

// adapter is a Completer that adapts requests to what servers refuse;
// *providers.Client is one.
type adapter interface {
	Adaptations() []providers.Adaptation
}

// adaptations lists what c adapted to, if it does.
func adaptations(c Completer) []tree.Adaptation {
	a, ok := c.(adapter)
	if !ok {
		return nil
	}
	var out []tree.Adaptation
	for _, x := range a.Adaptations() {
		out = append(out, tree.Adaptation(x))
	}
	return out
}

// builder makes the messages of every step. *prompts.Set is one.
type builder interface {
	RootPosition(prompts.RootPosition) ([]prompts.Message, error)
	ChildPosition(prompts.ChildPosition) ([]prompts.Message, error)
	Rebuttal(prompts.Rebuttal) ([]prompts.Message, error)
	Triage(prompts.Judge) ([]prompts.Message, error)
	ForcedVerdict(prompts.Judge) ([]prompts.Message, error)
	PanelVerdict(prompts.PanelVerdict) ([]prompts.Message, error)
	Repair(prompts.Repair) ([]prompts.Message, error)
	Synthesis(prompts.Synthesis) ([]prompts.Message, error)
	Edits(prompts.Edits) ([]prompts.Message, error)
}

// Options tune a run. The zero value runs every topic with the configured
// round limit and reports no events.
type Options struct {
	// Selection names the topics and motions to play, in the order they
	// run and appear (batch.Select makes it, in config order). nil plays
	// every topic, and every motion when Motions is set.
	Selection *tree.Selection
	// MaxRounds overrides params.maxRounds when positive.
	MaxRounds int
	// Events receives progress events. It is called from many goroutines at
	// once and must be cheap; nil drops them.
	Events func(tree.Event)
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
	// Jitter returns numbers in [0,1) that spread the backoff waits; it must
	// be safe for concurrent use. nil uses math/rand/v2.
	Jitter func() float64
	// Logger receives one line per notable happening; nil discards them.
	Logger *slog.Logger
	// Repository is the git repository whose files the debaters may quote,
	// opened when the run started (repo.Open); nil shares none.
	Repository *repo.Files
	// PositionsOnly ends every topic at its root's position step: each
	// debater is asked the question once, with no rebuttal, judgment or
	// child debate. The root ends converged when every debater answered
	// (partial otherwise); "debate bench quality" measures its lone
	// answers this way, with the run's retries, fallback and pricing.
	PositionsOnly bool
	// Motions, when set, makes Run also play the config's motions (protocol
	// debates) at the same time as the topics, under the same call limits:
	// those of Selection, or all of them. Its own Motions field is ignored.
	Motions *MotionOptions
	// Say words the reasons the engine records beside their codes, and
	// those of its log lines and events; nil says them by their codes.
	Say Sayer
}

// SeedBits is the size of a derived seed: small enough that every JSON
// reader keeps it exactly.
const SeedBits = 53

// Engine runs the debates of one configuration.
type Engine struct {
	cfg       *configs.Config
	c         Completer
	p         builder
	opt       Options
	maxRounds int
	// seed is params.seed, which every topic draws its aliases and orders
	// from; nil: each topic draws from a seed derived from the topic as
	// configured (topicSeed), so that an unchanged topic sends the same
	// requests run after run and a call cache answers them. The run
	// records which seed each topic used.
	seed      *uint64
	debaters  []configs.Participant
	judge     configs.Participant   // the panel's chair
	judges    []configs.Participant // the panel, chair first
	log       *slog.Logger
	spent     atomic.Int64  // tokens spent by the whole run, for the budget
	spentCost atomic.Int64  // what the run spent, in billionths of the pricing's currency, for the budget
	calls     atomic.Uint64 // numbers the calls, so that retries can be told from new calls
	prefixes  prefix.Book   // the prompts sent per model and endpoint, for the cache-eligible count
	badUsage  sync.Once     // logs the first implausible usage
	quotes    *checker      // checks the quotes of the shared documents; nil when quotes are off
	indexes   indexes       // every shared document indexed for quotes, once
	listing   []string      // the shared repository's files as the debaters are shown them
}

// New returns an engine for cfg that makes its calls through c and builds its
// prompts with p. cfg must have been loaded and validated.
func New(cfg *configs.Config, c Completer, p *prompts.Set, opt Options) *Engine {
	return newEngine(cfg, c, p, opt)
}

func newEngine(cfg *configs.Config, c Completer, p builder, opt Options) *Engine {
	e := &Engine{cfg: cfg, c: c, p: p, opt: opt, debaters: cfg.Debaters}
	e.judges = cfg.Panel()
	e.indexes = newIndexes(cfg)
	e.quotes = newChecker(cfg, cfg.SharedContext.Documents, e.indexes, opt.Repository)
	if e.quotes != nil && opt.Repository != nil {
		e.listing = opt.Repository.Listing(ListingBytes)
	}
	if len(e.judges) == 0 && cfg.Judge != nil {
		e.judges = []configs.Participant{*cfg.Judge}
	}
	if len(e.judges) > 0 {
		e.judge = e.judges[0]
	}
	e.maxRounds = cfg.Params.MaxRounds
	if opt.MaxRounds > 0 {
		e.maxRounds = opt.MaxRounds
	}
	if s := cfg.Params.Seed; s != nil {
		n := *s
		e.seed = &n
	}
	if e.opt.Now == nil {
		e.opt.Now = time.Now
	}
	if e.opt.Jitter == nil {
		e.opt.Jitter = rand.Float64
	}
	if e.opt.Say == nil {
		e.opt.Say = codes
	}
	e.log = opt.Logger
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	return e
}

// Run debates the selected topics, all at once, and returns the whole run.
// When ctx ends first, Run starts no new call, marks every unfinished node
// interrupted and returns the run as it stands together with ctx's error.
// run.Config is left for the caller to fill.
func (e *Engine) Run(ctx context.Context) (*tree.Run, error) {
	topics, err := e.selected()
	if err != nil {
		return nil, err
	}
	var mo *MotionOptions
	if e.opt.Motions != nil {
		m := *e.opt.Motions
		m.Motions = e.cfg.MotionIDs()
		if sel := e.opt.Selection; sel != nil {
			m.Motions = sel.Motions
		}
		mo = &m
	}
	playMotions := mo != nil && len(mo.Motions) > 0
	run := e.newRun(len(topics))

	var (
		wg     conc.WaitGroup
		motErr error
		edits  string
		byEdit map[string]tree.Usage
	)
	if playMotions {
		wg.Go(func() { run.Motions, motErr = e.RunMotions(ctx, *mo) })
	}
	for i, p := range each(len(topics), true, func(i int) { run.Topics[i] = e.runTopic(ctx, topics[i]) }) {
		if p != nil {
			run.Topics[i] = e.brokenTopic(topics[i], p)
		}
	}
	if len(topics) > 0 {
		for _, d := range e.cfg.SharedContext.Documents {
			run.Documents = append(run.Documents, d.Path)
		}
		if p := panics.Try(func() { edits, byEdit = e.edits(ctx, run) }); p != nil {
			e.log.Error("the edits call panicked; the run goes on without proposed edits", "panic", p.String())
		}
	}
	wg.Wait()

	run.Edits = edits
	total(run, byEdit)
	e.countEligible(run)
	run.Adaptations = adaptations(e.c)
	run.Tally()
	run.FinishedAt = e.opt.Now()
	if err := ctx.Err(); err != nil {
		return run, fmt.Errorf("run interrupted: %w", context.Cause(ctx))
	}
	if motErr != nil && run.Motions == nil {
		return run, motErr
	}
	return run, nil
}

// newRun returns the run's record before any topic is played: its
// settings, participants and room for n topics.
func (e *Engine) newRun(n int) *tree.Run {
	run := &tree.Run{
		SchemaVersion: tree.SchemaVersion,
		StartedAt:     e.opt.Now(),
		Language:      e.cfg.Prompts.Language,
		MaxRounds:     e.maxRounds,
		Seed:          e.seed,
		Judge:         participant(e.judge),
		Topics:        make([]tree.Topic, n),
	}
	if r := e.opt.Repository; r != nil {
		run.Repository = &tree.Repository{Head: r.State().Head, Dirty: r.State().Dirty, Files: len(r.Names())}
	}
	for _, d := range e.debaters {
		run.Debaters = append(run.Debaters, participant(d))
	}
	if len(e.judges) > 1 {
		for _, j := range e.judges {
			run.Judges = append(run.Judges, participant(j))
		}
	}
	return run
}

// total sums the usage, the usage per model and the quotes of the run's
// topics and motions and of the edits call (byEdit, per model) into run.
func total(run *tree.Run, byEdit map[string]tree.Usage) {
	var usage tree.Usage
	for _, m := range sortedKeys(byEdit) {
		usage = usage.Add(byEdit[m])
	}
	run.ByModel = tree.MergeByModel(nil, byEdit)
	for _, t := range run.Topics {
		usage = usage.Add(t.Usage)
		run.Quotes = run.Quotes.Merge(t.Quotes)
		run.ByModel = tree.MergeByModel(run.ByModel, t.ByModel)
	}
	for _, m := range run.Motions {
		usage = usage.Add(m.Usage)
		run.ByModel = tree.MergeByModel(run.ByModel, m.ByModel)
	}
	run.Usage = usage
}

// selected returns the topics of the selection, or every topic.
func (e *Engine) selected() ([]configs.Topic, error) {
	sel := e.opt.Selection
	if sel == nil {
		return e.cfg.Topics, nil
	}
	out := make([]configs.Topic, 0, len(sel.Topics))
	for _, id := range sel.Topics {
		t, ok := e.cfg.TopicByID(id)
		if !ok {
			return nil, fmt.Errorf("unknown topic %q (known: %v)", id, e.cfg.TopicIDs())
		}
		out = append(out, t)
	}
	return out, nil
}

// emit stamps and sends an event.
func (e *Engine) emit(ev tree.Event) {
	if e.opt.Events == nil {
		return
	}
	ev.Time = e.opt.Now()
	e.opt.Events(ev)
}

func participant(p configs.Participant) tree.Participant {
	return tree.Participant{ID: p.ID, Label: p.Label, Model: p.Model, Fallback: p.Fallback}
}

func party(p configs.Participant) prompts.Party {
	return prompts.Party{ID: p.ID, Label: p.Label}
}

func messages(ms []prompts.Message) []providers.Message {
	out := make([]providers.Message, len(ms))
	for i, m := range ms {
		out[i] = providers.Message{Role: m.Role, Content: m.Content, Breaks: m.Breaks}
	}
	return out
}

// overBudget reports whether the run has spent more tokens, or more money,
// than its budget.
func (e *Engine) overBudget() bool {
	b := e.cfg.Budget
	return b.MaxTokens > 0 && e.spent.Load() >= int64(b.MaxTokens) ||
		b.MaxCost > 0 && e.spentMoney() >= b.MaxCost
}

// budgetReason says which budget was reached, as a forced node's stop
// reason.
func (e *Engine) budgetReason() tree.Reason {
	b := e.cfg.Budget
	if b.MaxTokens > 0 && e.spent.Load() >= int64(b.MaxTokens) {
		return tree.Because(tree.TokenBudget, b.MaxTokens)
	}
	return tree.Because(tree.CostBudget, b.MaxCost)
}

// nanos is the unit spentCost counts in: a billionth of the currency.
const nanos = 1e9

// spentMoney returns what the run's calls cost so far: each call's cost as its
// provider reported it, else its tokens at the model's price, estimated
// tokens included; a call of a model with neither costs nothing.
func (e *Engine) spentMoney() float64 {
	return float64(e.spentCost.Load()) / nanos
}

// spend adds the cost of one answered call of model to what the run spent.
func (e *Engine) spend(model string, u tree.Usage) {
	c := u.ProviderCost
	if p, ok := e.cfg.Pricing[model]; ok && c == 0 {
		c = p.Cost(u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens)
	}
	e.spentCost.Add(int64(c * nanos))
}
