package main

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// runOptions are the flags of "debate run".
type runOptions struct {
	config      string
	topics      []string
	maxRounds   int
	dryRun      bool
	output      string
	concurrency int
	formats     []string
	resume      bool
	verbose     bool
	demo        bool
	shard       string
	seed        uint64
	// failOn is --fail-on as given; strictBudget refuses a run whose
	// worst case exceeds budget.maxCost.
	failOn       string
	strictBudget bool
	// maxCost is --max-cost, set when maxCostSet.
	maxCost    float64
	maxCostSet bool
	cache      string
	noCache    bool

	// maxRoundsSet and concurrencySet tell the flags given from their
	// defaults; slice is what --shard names.
	maxRoundsSet, concurrencySet, seedSet, failOnSet bool
	slice                                            *tree.Shard
	// given records the flags of the command line, for the resume command.
	given []givenFlag
	// failOnOutcomes is --fail-on as read.
	failOnOutcomes []tree.Outcome
}

var knownFormats = []string{"markdown", "json", "html", "junit"}

func runCommand() *command {
	return &command{
		name: "run", summary: "run the debates of a config and write their reports",
		help: runHelp, options: func() options { return &runOptions{} },
	}
}

// runHelp is the help text of "debate run".
var runHelp = help{
	about: `Run the debates of a config: for every topic, the debaters state positions and
rebut each other, a judge separates consensus from divergences, and each
divergence becomes a child debate until nothing is disputed or the round limit
forces verdicts. Reports go to the output folder; progress goes to stderr;
stdout lists the files written.

A config's motions are protocol debates: a proposer, an opponent and an
arbitrator argue through the debate database of "debate serve" (protocol.db,
else $DEBATE_DB, else the shared default), so they can be watched there; with
"arbitrator": "human" the run waits for the rulings a person makes there.
--resume continues the same debates.`,
	usage: `  debate run --config <file.jsonc> [--topic <id>]... [--max-rounds <n>]
             [--dry-run | --demo] [--output <dir>] [--concurrency <n>]
             [--format markdown|json|html|junit]... [--resume] [--seed <n>]
             [--shard <i/n>] [--fail-on <decisions>] [--max-cost <amount>]
             [--strict-budget] [--cache <dir> | --no-cache] [--verbose]
`,
	examples: `  # Real reports in seconds from a built-in scripted model: no key, no network.
  debate run --config debate.jsonc --demo --output demo-output

  # See every round-1 prompt and the call plan; calls no model, needs no key.
  debate run --config debate.jsonc --dry-run

  # Run two topics with at most 2 rounds, writing Markdown and HTML reports.
  DEBATE_API_KEY=sk-... debate run -c debate.jsonc \
      --topic topic-6 --topic topic-7 --max-rounds 2 \
      --format markdown,html --output out/

  # After a crash or Ctrl-C: finish the run without repeating a completed call.
  debate run -c debate.jsonc --resume

  # Split the run over two machines, then combine their folders into one run.
  debate run -c debate.jsonc --shard 1/2 --output shard-1   # on one machine
  debate run -c debate.jsonc --shard 2/2 --output shard-2   # on another
  debate merge shard-1 shard-2 --output out/

  # In CI: fail the job (exit 8) when a topic is split or undecided, after
  # every report is written; junit.xml holds a test case per topic.
  debate run -c debate.jsonc --fail-on split,undecided --format markdown,junit

  # Print the run as JSON on stdout instead of writing a folder.
  debate run -c debate.jsonc --output - > run.json
`,
	exits: `  0    every topic finished: converged, or verdicts forced at the round limit;
       every motion closed (by a resolution or a ruling)
  1    at least one topic, node or motion failed (its reports still record what
       was reached)
  2    bad flags, a missing config file or a bad config (every problem is
       printed)
  8    a topic's decision is in --fail-on (params.failOn), e.g. split or
       undecided; every report was written. It wins over 1
  130  interrupted by Ctrl-C: reports were written as they stood, unfinished
       nodes marked "interrupted"; a second Ctrl-C quits at once without writing
`,
	environ: `  NO_COLOR   turn off colours in the progress display
  CI         when set, progress is plain log lines even on a terminal
  DEBATE_DB  the debate database of motions when the config sets no protocol.db
  GITHUB_STEP_SUMMARY, GITHUB_OUTPUT
             on GitHub Actions: a summary of the decisions is appended to the
             first, the outputs decision-counts and failed-topics to the
             second; GITHUB_ACTIONS=true prints ::warning/::error lines for
             split and undecided topics
  ${NAME}    any variable a config string names ("apiKey": "${DEBATE_API_KEY}")
`,
}

func (o *runOptions) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.config, "config", "c", "", "config file (JSONC) (required)")
	fs.StringSliceVarP(&o.topics, "topic", "t", nil, "run only this topic or motion id (repeat or comma-separate for several)")
	fs.IntVar(&o.maxRounds, "max-rounds", 0, fmt.Sprintf("override params.maxRounds: the deepest round a debate may reach (1 to %d)", configs.MaxRounds))
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the round-1 prompts and the call plan; call no model")
	fs.StringVarP(&o.output, "output", "o", "", "output folder, overriding output.dir; \"-\" prints run JSON to stdout")
	fs.IntVar(&o.concurrency, "concurrency", 0, fmt.Sprintf("cap on model calls in flight for the whole run, 1 to %d (default params.concurrency, %d)", configs.MaxConcurrency, configs.DefaultConcurrency))
	fs.StringSliceVar(&o.formats, "format", nil, "report formats: markdown, json, html, junit (repeat or comma-separate; run.json is always written)")
	fs.BoolVar(&o.resume, "resume", false, "reuse every call an earlier, interrupted run of this config completed; call models only for the rest")
	fs.BoolVar(&o.demo, "demo", false, "play the config against a built-in scripted model: real reports in seconds, no API key, no network")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "on a terminal, print log lines above the live lines, every one (failed attempts, fallbacks…), instead of sentences")
	fs.Uint64Var(&o.seed, "seed", 0, "draw the debaters' aliases and the order they are shown in from `n`: the same seed sends the same prompts (default params.seed, else a seed derived from each topic, so that an unchanged topic sends the same prompts and the cache answers them; run.json records each topic's)")
	fs.StringVar(&o.cache, "cache", "", "take the answer of every call an earlier run with this cache folder made, and keep new ones there (sets cache.dir)")
	fs.BoolVar(&o.noCache, "no-cache", false, "use no call cache, whatever cache.dir says: every call is made afresh")
	fs.StringVar(&o.shard, "shard", "", "run only slice `i/n` of the selected topics and motions, the i-th of n (e.g. 2/4); \"debate merge\" combines the slices' folders")
	fs.StringVar(&o.failOn, "fail-on", "", "exit 8 once every report is written when a topic's decision is one of `decisions` (comma-separated: agreed, decided, split, undecided; replaces params.failOn)")
	fs.Float64Var(&o.maxCost, "max-cost", 0, "override budget.maxCost: stop the run once its actual spend passes `amount`, in the currency of pricing (0: no cap)")
	fs.BoolVar(&o.strictBudget, "strict-budget", false, "refuse to start when the dry run's worst-case cost exceeds budget.maxCost")
}

// args checks the command line before anything is read: each flag's value
// and the flags that exclude each other.
func (o *runOptions) args(fs *pflag.FlagSet) error {
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (flags only; did you mean --config %s?)", fs.Arg(0), fs.Arg(0))
	}
	o.maxRoundsSet, o.concurrencySet, o.seedSet = fs.Changed("max-rounds"), fs.Changed("concurrency"), fs.Changed("seed")
	o.given = recordFlags(fs, notResumed)
	o.failOnSet = fs.Changed("fail-on")
	o.maxCostSet = fs.Changed("max-cost")
	if fs.Changed("shard") {
		s, err := parseShard(o.shard)
		if err != nil {
			return err
		}
		o.slice = &s
	}
	if err := o.values(); err != nil {
		return err
	}
	return o.conflicts()
}

// values checks each flag's value on its own.
func (o *runOptions) values() error {
	if o.config == "" {
		return usagef("--config is required")
	}
	if o.maxRoundsSet {
		if err := flagInRange("max-rounds", o.maxRounds, configs.MaxRounds, "levels of debate", "params.maxRounds"); err != nil {
			return err
		}
	}
	if o.maxCostSet && !(o.maxCost >= 0 && o.maxCost <= math.MaxFloat64) {
		return usagef("--max-cost must be 0 (no cap) or more, got %g: give the most the run may spend, in the currency of pricing", o.maxCost)
	}
	if o.concurrencySet {
		if err := flagInRange("concurrency", o.concurrency, configs.MaxConcurrency, "calls in flight", "params.concurrency"); err != nil {
			return err
		}
	}
	for _, f := range o.formats {
		if !slices.Contains(knownFormats, f) {
			return usagef("--format %q: want one of %s", f, strings.Join(knownFormats, ", "))
		}
	}
	if o.failOnSet {
		var err error
		if o.failOnOutcomes, err = tree.ParseOutcomes(o.failOn); err != nil {
			return usagef("--fail-on: %w", err)
		}
	}
	return nil
}

// conflicts checks the flags that exclude each other.
func (o *runOptions) conflicts() error {
	switch {
	case o.demo && o.dryRun:
		return usagef("--demo and --dry-run: pick one (--dry-run shows the prompts, --demo plays a scripted debate)")
	case o.noCache && o.cache != "":
		return usagef("--cache and --no-cache: pick one")
	case o.output == "-" && o.resume:
		return usagef("--resume needs an output folder: its journal of completed calls lives there")
	case o.output == "-" && len(o.formats) > 0 && slices.ContainsFunc(o.formats, func(f string) bool { return f != "json" }):
		return usagef("--output - prints run JSON to stdout; drop --format or use --format json")
	}
	return nil
}

// run loads the config, applies the command line over it and runs it, or
// only shows it with --dry-run.
func (o *runOptions) run(e *env) error {
	cfg, err := o.load(e)
	if err != nil {
		return err
	}
	sel, err := o.selection(e, cfg, o.slice)
	if err != nil {
		return err
	}
	if o.dryRun {
		return dryRunAll(e, cfg, sel)
	}
	if o.strictBudget {
		if err := checkBudget(cfg, sel); err != nil {
			return err
		}
	}
	return o.runConfig(e, cfg, sel)
}

// flagInRange checks the number a flag overriding the config field field
// sets: from 1 to max, the bound Validate applies to that field.
func flagInRange(name string, got, max int, meaning, field string) error {
	if got < 1 || got > max {
		return usagef("--%s must be from 1 to %d (%s), got %d: give a number in that range, or leave the flag out to use %s",
			name, max, meaning, got, field)
	}
	return nil
}

// load reads the config and applies the command line over it.
func (o *runOptions) load(e *env) (*configs.Config, error) {
	getenv := e.getenv
	if o.demo {
		getenv = demoGetenv(getenv)
	}
	cfg, err := e.loadConfig(o.config, configs.Options{DryRun: o.dryRun, Getenv: getenv})
	if err != nil {
		return nil, err
	}
	o.override(cfg)
	return cfg, nil
}

// override sets the config's fields that flags given replace.
func (o *runOptions) override(cfg *configs.Config) {
	if o.maxRoundsSet {
		cfg.Params.MaxRounds = o.maxRounds
	}
	if o.concurrencySet {
		cfg.Params.Concurrency = o.concurrency
	}
	if o.seedSet {
		cfg.Params.Seed = &o.seed
	}
	if o.maxCostSet {
		cfg.Budget.MaxCost = o.maxCost
	}
	if o.output != "" && o.output != "-" {
		cfg.Output.Dir = o.output
	}
	if len(o.formats) > 0 {
		cfg.Output.Format = o.formats
	}
	if o.failOnSet {
		cfg.Params.FailOn = nil
		for _, d := range o.failOnOutcomes {
			cfg.Params.FailOn = append(cfg.Params.FailOn, string(d))
		}
	}
	if o.cache != "" {
		cfg.Cache.Dir = o.cache
	}
	if o.noCache {
		cfg.Cache.Dir = ""
	}
}

// selection returns what the run plays: the topics and motions of --topic,
// or all, and of those the slice of --shard, which it names on stderr.
func (o *runOptions) selection(e *env, cfg *configs.Config, sh *tree.Shard) (tree.Selection, error) {
	sel, err := batch.Select(cfg, o.topics, nil)
	var unknown *batch.UnknownIDError
	if errors.As(err, &unknown) {
		return sel, usagef("--topic %q: no such topic or motion in %s; known ids: %s", unknown.ID, o.config, strings.Join(unknown.Known, ", "))
	}
	if err != nil || sh == nil {
		return sel, err
	}
	total := len(sel.IDs())
	if sel, err = batch.Select(cfg, o.topics, sh); err != nil {
		return sel, err
	}
	mine := sel.IDs()
	list := strings.Join(mine, ", ")
	if len(mine) == 0 {
		list = "none"
	}
	fmt.Fprintf(e.stderr, "shard %s: %d of the %d selected topics and motions: %s\n", sel.Shard, len(mine), total, list)
	return sel, nil
}

// runConfig performs a real run and writes its reports.
func (o *runOptions) runConfig(e *env, cfg *configs.Config, sel tree.Selection) error {
	term := e.terminalOf(e.stderr)
	defer term.stop()
	progress := o.progress(e, term, cfg, sel)
	defer progress.Close()
	logger := progress.Logger()
	if o.demo && !progress.Sentences() {
		logger.Info("demo run: a built-in scripted model plays every part; no model is called")
	}
	ctx, stop := e.interruptible(func() { o.sayInterrupted(progress, logger) })
	defer stop()
	res, err := batch.Run(ctx, cfg, o.batchOptions(e, sel, progress, logger))
	progress.Close()
	if res != nil {
		for _, f := range res.Files {
			fmt.Fprintln(e.stdout, f)
		}
	}
	if err != nil {
		return err
	}
	o.finished(progress, logger, res, ctx.Err() != nil)
	gated := o.report(e, cfg, res, logger)
	switch {
	case ctx.Err() != nil:
		return interruptedError{err: errors.New("interrupted")}
	case res.Err != nil:
		return res.Err
	case gated:
		return exitStatus(exitDecision)
	case !res.Run.Finished():
		return exitStatus(exitFailed)
	}
	return nil
}

// progress returns the display of the run's progress on stderr: live lines
// on a terminal, except in CI, whose log keeps plain log lines even on a
// pseudo-terminal.
func (o *runOptions) progress(e *env, term terminal, cfg *configs.Config, sel tree.Selection) *output.Progress {
	live := term.ok && !e.has("CI")
	return output.NewProgress(e.stderr, output.ProgressOptions{
		Terminal: live,
		Color:    live && !e.has("NO_COLOR"),
		Verbose:  o.verbose,
		Demo:     o.demo,
		Width:    term.width,
		Resize:   term.resize,
		Topics:   progressTopics(cfg, sel),
	})
}

// batchOptions returns the options of the batch run: the selection, the
// progress, where the JSON goes and the environment the motions' database
// is found in.
func (o *runOptions) batchOptions(e *env, sel tree.Selection, progress *output.Progress, logger *slog.Logger) batch.Options {
	opt := batch.Options{Selection: &sel, Resume: o.resume, Demo: o.demo, Events: progress.Handle, Logger: logger, Getenv: e.getenv}
	if o.output == "-" {
		opt.JSON = e.stdout
	}
	return opt
}

// report tells GitHub Actions the decisions, when the run is on a runner,
// logs each decision in --fail-on and reports whether there was one.
func (o *runOptions) report(e *env, cfg *configs.Config, res *batch.Result, logger *slog.Logger) bool {
	failOn := cfg.Params.FailOnDecisions()
	if err := e.gh.Report(res.Run, res.Files, failOn, o.output != "-"); err != nil {
		logger.Warn("could not tell GitHub Actions the decisions", "err", err)
	}
	gate := res.Run.Gated(failOn)
	for _, t := range gate {
		logger.Warn("decision in --fail-on", "topic", t.ID, "decision", t.DecisionText())
	}
	return len(gate) > 0
}

// sayInterrupted tells what the first Ctrl-C does and how to resume: as
// sentences with the command on a line of its own on a terminal, else as a
// log line.
func (o *runOptions) sayInterrupted(progress *output.Progress, logger *slog.Logger) {
	if !progress.Sentences() {
		args := []any{}
		if o.output != "-" {
			args = append(args, "resume", o.resumeCommand())
		}
		logger.Warn("interrupted: no new call starts; writing the reports as they stand (Ctrl-C again quits at once)", args...)
		return
	}
	msg := "Interrupted: no new call starts; the reports are being written as they stand.\nCtrl-C again quits at once, without writing them.\n"
	if o.output != "-" {
		msg += o.resumeHint()
	}
	progress.Say(msg)
}

// resumeHint is the sentence that gives the resume command, on a line of
// its own so that it can be copied as it is.
func (o *runOptions) resumeHint() string {
	return "To finish the run later without repeating a completed call, run:\n" + o.resumeCommand() + "\n"
}

// finished says what the run did: a sentence on a terminal (with the resume
// command again after an interrupt, as the hint given at the Ctrl-C may have
// scrolled away), else a log line.
func (o *runOptions) finished(progress *output.Progress, log *slog.Logger, res *batch.Result, interrupted bool) {
	run := res.Run
	elapsed := run.FinishedAt.Sub(run.StartedAt).Round(time.Millisecond)
	if !progress.Sentences() {
		args := []any{"elapsed", elapsed, "topics", len(run.Topics), "motions", len(run.Motions), "calls", run.Usage.Calls, "tokens", run.Usage.Total()}
		if o.resume {
			args = append(args, "from journal", res.Replayed)
		}
		if s := cacheSummary(run); s != "" {
			args = append(args, "cache", strings.TrimSpace(s))
		}
		log.Info("run finished", args...)
		return
	}
	var b strings.Builder
	what := "The run"
	if o.demo {
		what = "The demo run (a scripted model; nothing was called)"
	}
	verb := "finished"
	if interrupted {
		verb = "was interrupted"
	}
	var parts []string
	if n := len(run.Topics); n > 0 || len(run.Motions) == 0 {
		parts = append(parts, quantity(n, "topic", "topics"))
	}
	if n := len(run.Motions); n > 0 {
		parts = append(parts, quantity(n, "motion", "motions"))
	}
	parts = append(parts, quantity(run.Usage.Calls, "model call", "model calls"), quantity(run.Usage.Total(), "token", "tokens"))
	if elapsed >= time.Second {
		elapsed = elapsed.Round(100 * time.Millisecond)
	}
	fmt.Fprintf(&b, "%s %s after %s: %s.\n", what, verb, elapsed, strings.Join(parts, ", "))
	if o.resume && res.Replayed > 0 {
		fmt.Fprintf(&b, "%s came from the journal of the earlier run.\n", quantity(res.Replayed, "call", "calls"))
	}
	b.WriteString(cacheSummary(run))
	b.WriteString(nextStep(res.Files))
	if interrupted && o.output != "-" {
		b.WriteString(o.resumeHint())
	}
	progress.Say(b.String())
}

// nextStep tells where to read the run: its summary page in a browser, or
// its summary.md; "" when it wrote neither (run.json on stdout).
func nextStep(files []string) string {
	var md string
	for _, f := range files {
		switch filepath.Base(f) {
		case "summary.html":
			return "Next: open " + f + " in a browser.\n"
		case "summary.md":
			md = f
		}
	}
	if md == "" {
		return ""
	}
	return "Next: read " + md + ".\n"
}

// cacheSummary says, for a run with a call cache, how many calls the cache
// answered, what they had cost, and per topic how many calls were fresh;
// that the run made no call and paid nothing when the cache answered them
// all; "" without a cache.
func cacheSummary(run *tree.Run) string {
	c := run.Cache
	if c == nil {
		return ""
	}
	var topics []string
	for _, t := range run.Topics {
		if t.Cache != nil {
			topics = append(topics, fmt.Sprintf("%s %d of %d", t.ID, t.Cache.Fresh, t.Cache.Fresh+t.Cache.Cached))
		}
	}
	cached := c.CachedUsage
	s := fmt.Sprintf("Call cache: %s answered from the cache (%s, cost %s when made, not paid again)",
		quantity(c.Cached, "call", "calls"), quantity(cached.Total(), "token", "tokens"), strconv.FormatFloat(cached.Cost, 'f', 4, 64))
	if c.Fresh == 0 && c.Cached > 0 {
		s = fmt.Sprintf("Call cache: every call (%s, %s) was answered from the cache: this run made no call and paid nothing",
			render.Thousands(c.Cached), quantity(cached.Total(), "token", "tokens"))
	}
	if topics != nil {
		s += "; fresh calls per topic: " + strings.Join(topics, ", ")
	}
	return s + ".\n"
}

// quantity writes n, with thousands separators as the reports print counts,
// and the word for it.
func quantity(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return render.Thousands(n) + " " + other
}

// notResumed are the flags the resume command leaves out: --resume, which
// it adds, and those that change nothing the run plays.
var notResumed = []string{"resume", "dry-run", "verbose"}

// givenFlag is one flag of a command line with the values it was given.
type givenFlag struct {
	name   string
	values []string // none for a boolean flag set to true
}

// recordFlags returns the flags of fs the command line set, but skip:
// --config first, then the others in the order of fs.
func recordFlags(fs *pflag.FlagSet, skip []string) []givenFlag {
	var out []givenFlag
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(skip, f.Name) {
			return
		}
		g := givenFlag{name: f.Name}
		switch v := f.Value.(type) {
		case pflag.SliceValue:
			g.values = v.GetSlice()
		default:
			if f.Value.Type() == "bool" {
				if f.Value.String() != "true" {
					return
				}
				break
			}
			g.values = []string{f.Value.String()}
		}
		if f.Name == "config" {
			out = append([]givenFlag{g}, out...)
			return
		}
		out = append(out, g)
	})
	return out
}

// resumeCommand returns the command line that resumes this run: every flag
// the run was given that changes what it plays, and --resume.
func (o *runOptions) resumeCommand() string {
	args := []string{"debate", "run"}
	for _, g := range o.given {
		if len(g.values) == 0 {
			args = append(args, "--"+g.name)
		}
		for _, v := range g.values {
			args = append(args, "--"+g.name, shellQuote(v))
		}
	}
	return strings.Join(append(args, "--resume"), " ")
}

// progressTopics lists the selected topics and motions for the progress
// display.
func progressTopics(cfg *configs.Config, sel tree.Selection) []output.ProgressTopic {
	var out []output.ProgressTopic
	for _, id := range sel.Topics {
		t, _ := cfg.TopicByID(id)
		out = append(out, output.ProgressTopic{ID: t.ID, Title: t.Title})
	}
	for _, id := range sel.Motions {
		m, _ := cfg.MotionByID(id)
		out = append(out, output.ProgressTopic{ID: m.ID, Title: m.Title, Motion: true})
	}
	return out
}

func (e *env) has(name string) bool {
	v, ok := e.getenv(name)
	return ok && v != ""
}

// isTerminal tells whether w is a character device such as a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
