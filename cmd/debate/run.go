package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/store"
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

	// sharded holds what --shard made of the run: the slice, and the whole
	// config that the run records.
	sharded *sharded
}

// journalFile is where a run journals its completed calls, in the output folder.
const journalFile = ".debate-journal.db"

var knownFormats = []string{"markdown", "json", "html"}

func runHelp(fs interface{ FlagUsagesWrapped(int) string }) string {
	return `Run the debates of a config: for every topic, the debaters state positions and rebut each
other, a judge separates consensus from divergences, and each divergence becomes a child
debate until nothing is disputed or the round limit forces verdicts. Reports go to the
output folder; progress goes to stderr; stdout lists the files written.

A config's motions are protocol debates: a proposer, an opponent and an arbitrator argue
through the debate database of "debate serve" (protocol.db, else $DEBATE_DB, else the shared
default), so they can be watched there; with "arbitrator": "human" the run waits for the
rulings a person makes there. --resume continues the same debates.

USAGE
  debate run --config <file.jsonc> [--topic <id>]... [--max-rounds <n>]
             [--dry-run | --demo] [--output <dir>] [--concurrency <n>]
             [--format markdown|json|html]... [--resume] [--shard <i/n>]
             [--verbose]

FLAGS
` + fs.FlagUsagesWrapped(helpWidth) + `
EXAMPLES
  # Real reports in seconds from a built-in scripted model: no key, no network.
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

  # Print the run as JSON on stdout instead of writing a folder.
  debate run -c debate.jsonc --output - > run.json

EXIT CODES
  0    every topic finished: converged, or verdicts forced at the round limit; every
       motion closed (by a resolution or a ruling)
  1    at least one topic, node or motion failed (its reports still record what was reached)
  2    bad flags or a bad config (every problem is printed)
  130  interrupted by Ctrl-C: reports were written as they stood, unfinished nodes marked
       "interrupted"; a second Ctrl-C quits at once without writing

ENVIRONMENT
  NO_COLOR   turn off colours in the progress display
  DEBATE_DB  the debate database of motions when the config sets no protocol.db
  ${NAME}    any variable a config string names ("apiKey": "${DEBATE_API_KEY}")
`
}

func runCmd(e *env, args []string) int {
	var o runOptions
	fs := flagSet("run")
	fs.StringVarP(&o.config, "config", "c", "", "config file (JSONC) (required)")
	fs.StringSliceVarP(&o.topics, "topic", "t", nil, "run only this topic or motion id (repeat or comma-separate for several)")
	fs.IntVar(&o.maxRounds, "max-rounds", 0, fmt.Sprintf("override params.maxRounds: the deepest round a debate may reach (1 to %d)", configs.MaxRounds))
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the round-1 prompts and the call plan; call no model")
	fs.StringVarP(&o.output, "output", "o", "", "output folder, overriding output.dir; \"-\" prints run JSON to stdout")
	fs.IntVar(&o.concurrency, "concurrency", 0, fmt.Sprintf("cap on model calls in flight for the whole run, 1 to %d (default params.concurrency, %d)", configs.MaxConcurrency, configs.DefaultConcurrency))
	fs.StringSliceVar(&o.formats, "format", nil, "report formats: markdown, json, html (repeat or comma-separate; run.json is always written)")
	fs.BoolVar(&o.resume, "resume", false, "reuse every call an earlier, interrupted run of this config completed; call models only for the rest")
	fs.BoolVar(&o.demo, "demo", false, "play the config against a built-in scripted model: real reports in seconds, no API key, no network")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "on a terminal, print every log line (failed attempts, fallbacks…) above the live lines too")
	fs.StringVar(&o.shard, "shard", "", "run only slice `i/n` of the selected topics and motions, the i-th of n (e.g. 2/4); \"debate merge\" combines the slices' folders")
	if done, code := parse(e, fs, args, func() string { return runHelp(fs) }); done {
		return code
	}
	if fs.NArg() > 0 {
		return e.fail("run", usagef("unexpected argument %q (flags only; did you mean --config %s?)", fs.Arg(0), fs.Arg(0)))
	}
	var sh *tree.Shard
	if fs.Changed("shard") {
		s, err := parseShard(o.shard)
		if err != nil {
			return e.fail("run", err)
		}
		sh = &s
	}
	cfg, err := o.load(e, fs.Changed("max-rounds"), fs.Changed("concurrency"))
	if err == nil && sh != nil {
		cfg, err = o.applyShard(e, cfg, *sh)
	}
	if err != nil {
		return e.fail("run", err)
	}
	if o.dryRun {
		sel := selectIDs(cfg, o.topics)
		if sel.runsTopics(cfg) {
			if err := dryRun(e, cfg, sel.topics); err != nil {
				return e.fail("run", err)
			}
		}
		if sel.runsMotions(cfg) {
			if err := dryRunMotions(e, cfg, sel); err != nil {
				return e.fail("run", err)
			}
		}
		return exitOK
	}
	return o.run(e, cfg)
}

// fail prints err and returns its exit code.
func (e *env) fail(cmd string, err error) int {
	var problems configs.Problems
	switch {
	case errors.As(err, &problems):
		fmt.Fprintln(e.stderr, err)
	case errors.As(err, new(usageError)):
		fmt.Fprintf(e.stderr, "debate %s: %v\nRun \"debate help %s\" for usage.\n", cmd, err, cmd)
	default:
		fmt.Fprintf(e.stderr, "debate %s: %v\n", cmd, err)
	}
	return exitCode(err)
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
func (o *runOptions) load(e *env, maxRoundsSet, concurrencySet bool) (*configs.Config, error) {
	if o.config == "" {
		return nil, usagef("--config is required")
	}
	if maxRoundsSet {
		if err := flagInRange("max-rounds", o.maxRounds, configs.MaxRounds, "levels of debate", "params.maxRounds"); err != nil {
			return nil, err
		}
	}
	if concurrencySet {
		if err := flagInRange("concurrency", o.concurrency, configs.MaxConcurrency, "calls in flight", "params.concurrency"); err != nil {
			return nil, err
		}
	}
	for _, f := range o.formats {
		if !slices.Contains(knownFormats, f) {
			return nil, usagef("--format %q: want one of %s", f, strings.Join(knownFormats, ", "))
		}
	}
	if o.demo && o.dryRun {
		return nil, usagef("--demo and --dry-run: pick one (--dry-run shows the prompts, --demo plays a scripted debate)")
	}
	if o.output == "-" && o.resume {
		return nil, usagef("--resume needs an output folder: its journal of completed calls lives there")
	}
	if o.output == "-" && len(o.formats) > 0 && slices.ContainsFunc(o.formats, func(f string) bool { return f != "json" }) {
		return nil, usagef("--output - prints run JSON to stdout; drop --format or use --format json")
	}
	getenv := e.getenv
	if o.demo {
		getenv = demoGetenv(getenv)
	}
	cfg, err := configs.Load(o.config, configs.Options{DryRun: o.dryRun, Getenv: getenv})
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if maxRoundsSet {
		cfg.Params.MaxRounds = o.maxRounds
	}
	if concurrencySet {
		cfg.Params.Concurrency = o.concurrency
	}
	if o.output != "" && o.output != "-" {
		cfg.Output.Dir = o.output
	}
	if len(o.formats) > 0 {
		cfg.Output.Format = o.formats
	}
	for _, id := range o.topics {
		if !hasID(cfg, id) {
			return nil, usagef("--topic %q: no such topic or motion in %s; known ids: %s", id, o.config, strings.Join(knownIDs(cfg), ", "))
		}
	}
	return cfg, nil
}

// run performs a real run and writes its reports.
func (o *runOptions) run(e *env, cfg *configs.Config) int {
	set, err := prompts.New(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return e.fail("run", err)
	}
	term := e.terminalOf(e.stderr)
	defer term.stop()
	progress := output.NewProgress(e.stderr, output.ProgressOptions{
		Terminal: term.ok,
		Color:    term.ok && !e.has("NO_COLOR"),
		Verbose:  o.verbose,
		Width:    term.width,
		Resize:   term.resize,
		Topics:   selectedTopics(cfg, o.topics),
	})
	defer progress.Close()
	logger := progress.Logger()
	ctx, stop := e.interruptible(func() {
		msg := "interrupted: no new call starts; writing the reports as they stand (Ctrl-C again quits at once)"
		if o.output != "-" {
			msg += ". To finish the run later without repeating a completed call: " + o.resumeCommand()
		}
		logger.Warn(msg)
	})
	defer stop()

	var raw rawLog
	popt := providers.Options{Concurrency: cfg.Params.Concurrency, Logger: logger}
	if o.demo {
		fake, err := prepareDemo(e, cfg)
		if err != nil {
			return e.fail("run", err)
		}
		popt.HTTPClient = fake.HTTPClient()
	}
	if cfg.Output.IncludeRawResponses {
		popt.Record = raw.add
	}
	client, err := providers.New(cfg, popt)
	if err != nil {
		return e.fail("run", err)
	}
	var completer orchestrator.Completer = client
	closeJournal := func() {}
	var journaled *orchestrator.Journaled
	var journal orchestrator.Journal
	if o.output != "-" {
		release, err := output.Lock(cfg.Output.Dir)
		if err != nil {
			return e.fail("run", err)
		}
		defer release()
		path := filepath.Join(cfg.Output.Dir, journalFile)
		if !o.resume {
			kept, n, err := keepUnfinishedJournal(ctx, path, filepath.Join(cfg.Output.Dir, "run.json"), time.Now())
			if err != nil {
				return e.fail("run", err)
			}
			if kept != "" {
				logger.Warn(fmt.Sprintf("the output folder holds the journal of an unfinished run (%d completed calls); without --resume this run starts afresh and keeps that journal as %s (to continue that run instead, stop this one, rename the file back to %s and add --resume)",
					n, kept, journalFile))
			}
		}
		j, err := store.OpenJournal(ctx, path, !o.resume)
		if err != nil {
			return e.fail("run", err)
		}
		// Closed before the reports are written, so that a run.json newer
		// than the journal tells a later run that this one got to its end.
		var once sync.Once
		closeJournal = func() { once.Do(func() { j.Close() }) }
		defer closeJournal()
		if o.resume {
			n, err := j.Len(ctx)
			if err != nil {
				return e.fail("run", err)
			}
			logger.Info("resuming", "journal", filepath.Join(cfg.Output.Dir, journalFile), "completed calls", n)
		}
		journaled = orchestrator.NewJournaled(client, j, logger)
		completer = journaled
		journal = j
	}
	sel := selectIDs(cfg, o.topics)
	opt := orchestrator.Options{Topics: sel.topics, Events: progress.Handle, Logger: logger}
	if sel.runsMotions(cfg) {
		motions, err := openMotions(ctx, e, cfg, sel, journal, logger)
		if err != nil {
			return e.fail("run", err)
		}
		defer motions.close()
		opt.Motions = &orchestrator.MotionOptions{Store: motions.st, Roles: motions.roles, RunID: motions.runID, Motions: motions.ids, Journal: journal}
	}
	run, runErr := orchestrator.New(cfg, completer, set, opt).Run(ctx)
	progress.Close()
	closeJournal()
	if run == nil {
		return e.fail("run", runErr)
	}
	recorded := cfg
	if o.sharded != nil {
		recorded = o.sharded.full
		run.Shard = &o.sharded.slice
	}
	if b, err := json.Marshal(recorded.Redacted()); err == nil {
		run.Config = b
	}
	run.Demo = o.demo
	interrupted := ctx.Err() != nil

	if o.output == "-" {
		b, err := output.EncodeRun(run)
		if err != nil {
			return e.fail("run", err)
		}
		if _, err := e.stdout.Write(b); err != nil {
			return e.fail("run", err)
		}
	} else {
		files, err := output.Write(cfg.Output.Dir, run, output.Options{Formats: cfg.Output.Format, Raw: raw.files()})
		for _, f := range files {
			fmt.Fprintln(e.stdout, f)
		}
		if err != nil {
			return e.fail("run", fmt.Errorf("write reports: %w", err))
		}
	}
	args := []any{"elapsed", run.FinishedAt.Sub(run.StartedAt).Round(time.Millisecond),
		"topics", len(run.Topics), "motions", len(run.Motions), "calls", run.Usage.Calls, "tokens", run.Usage.Total()}
	if journaled != nil && o.resume {
		args = append(args, "from journal", journaled.Replayed())
	}
	logger.Info("run finished", args...)
	switch {
	case interrupted:
		return exitInterrupted
	case runErr != nil:
		fmt.Fprintf(e.stderr, "debate run: %v\n", runErr)
		return exitFailed
	}
	if !run.Finished() {
		return exitFailed
	}
	return exitOK
}

// resumeCommand returns the command line that resumes this run.
func (o *runOptions) resumeCommand() string {
	args := []string{"debate", "run", "--config", shellQuote(o.config)}
	for _, t := range o.topics {
		args = append(args, "--topic", shellQuote(t))
	}
	if o.maxRounds > 0 {
		args = append(args, "--max-rounds", fmt.Sprint(o.maxRounds))
	}
	if o.output != "" {
		args = append(args, "--output", shellQuote(o.output))
	}
	if o.demo {
		args = append(args, "--demo")
	}
	return strings.Join(append(args, "--resume"), " ")
}

// keepUnfinishedJournal looks at the journal at path before a run that does
// not resume. When it holds calls of a run that did not finish — no run.json
// written after it, or one with interrupted work — it renames the journal
// (and its SQLite side files) to a name of its own beside it and returns that
// name and how many calls it holds. Otherwise it returns "".
func keepUnfinishedJournal(ctx context.Context, path, runJSON string, now time.Time) (string, int, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, nil
	}
	journalTime := st.ModTime()
	for _, side := range []string{"-wal", "-shm"} {
		if s, err := os.Stat(path + side); err == nil && s.ModTime().After(journalTime) {
			journalTime = s.ModTime()
		}
	}
	if rs, err := os.Stat(runJSON); err == nil && !rs.ModTime().Before(journalTime) {
		if b, err := os.ReadFile(runJSON); err == nil {
			if run, err := output.DecodeRun(b); err == nil && !hasInterrupted(run) {
				return "", 0, nil
			}
		}
	}
	j, err := store.OpenJournal(ctx, path, false)
	if err != nil {
		return "", 0, err
	}
	n, err := j.Len(ctx)
	j.Close()
	if err != nil || n == 0 {
		return "", 0, err
	}
	kept := strings.TrimSuffix(path, ".db") + "." + now.UTC().Format("20060102T150405Z") + ".db"
	for _, side := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(path+side, kept+side); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", 0, fmt.Errorf("keep the unfinished run's journal: %w", err)
		}
	}
	return kept, n, nil
}

// hasInterrupted reports whether any topic or motion of run stopped unfinished.
func hasInterrupted(run *tree.Run) bool {
	for i := range run.Topics {
		t := &run.Topics[i]
		if t.Status == tree.Interrupted || t.Root == nil {
			return true
		}
		found := false
		t.Root.Walk(func(n *tree.Node) { found = found || n.Status == tree.Interrupted || n.Status == tree.Pending })
		if found {
			return true
		}
	}
	for _, m := range run.Motions {
		if m.Status == tree.Interrupted {
			return true
		}
	}
	return false
}

func selectedTopics(cfg *configs.Config, ids []string) []output.ProgressTopic {
	var out []output.ProgressTopic
	for _, t := range cfg.Topics {
		if len(ids) == 0 || slices.Contains(ids, t.ID) {
			out = append(out, output.ProgressTopic{ID: t.ID, Title: t.Title})
		}
	}
	for _, m := range cfg.Motions {
		if len(ids) == 0 || slices.Contains(ids, m.ID) {
			out = append(out, output.ProgressTopic{ID: m.ID, Title: m.Title})
		}
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
