package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/bench/quality"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
)

// benchQualityOptions are the flags of "debate bench quality".
type benchQualityOptions struct {
	noArgs
	config, task string
	problems     int
	seed         uint64
	concurrency  int
	json, demo   bool
	dir          string
	resume       bool
	quality.DemoOptions
}

// The defaults of --problems with a generated task, and of --concurrency
// with --demo.
const (
	defaultArithmetic = 100
	demoConcurrency   = 16
)

// benchQualityAbout is what the help of bench quality says it does.
const benchQualityAbout = `Put each problem of a task to the config's own models four ways (five with
passages) and print how often each way is right:
  single       the first debater answers alone (one call)
  vote         every debater answers once; the most common answer wins
               (a tie is drawn from the seed)
  debate       the full debate of the config on the problem; its answer is
               what the run concluded (the judge's consensus or verdict)
  debate-vote  the most common of the debaters' last answers in that debate
  judge-alone  the judge answers alone, without the passage (only when a
               problem has one)
Answers are read from a final "Answer: <value>" line (答案： in Chinese),
which the prompts ask for; an answer without one is wrong and counted as
unreadable. Each arm gets its accuracy with a 95% Wilson interval, tokens and
cost per problem and per correct answer; "debate − vote" and "debate − single"
are the paired differences on the same problems with a 95% paired bootstrap
interval and the exact McNemar p-value. An interval that holds 0 means the
problems measured cannot tell the two apart; the report's last line says how
to read it. An arm with more than a tenth of its answers unreadable is named
in a warning, with one of those answers, and the command exits 1.

--task arithmetic generates Du et al.'s a+b*c+d-e*f (integers 0–29) from the
seed; --task passage generates reading problems (a depot's ledger, and a
count only the ledger gives); --task FILE.jsonl reads one
{"id","question","answer"} object a line, with an optional "passage": a text
the debaters see as a document of the topic, and may quote, and the judge
does not. With passages the report adds, per arm, the share of the quotes the
engine verified.
Every arm is a run of the config, with its retries, fallback and pricing;
single and vote are runs that stop after the position step. budget.maxTokens
stops the run between chunks of problems, with what it measured. With --dir
each run of each chunk keeps its reports and journal there (single-00001,
vote-00001, debate-00001, ...): the same command with --resume goes on without
paying again for any completed call.

--demo needs no config and no key: scripted agents right with probability
--agent-accuracy, which adopt the majority they are shown in a rebuttal with
probability --conformity, and a judge that takes the majority; the expected
accuracy of single and vote is printed beside the measured one. With
--task passage the agents quote the ledger word for word with probability
--quote-accuracy (else reworded to fit their answer), and the judge trusts
the count a verified quote states over the majority.`

func benchQualityCommand() *command {
	return &command{
		name: "bench quality", summary: "whether debating beats one answer or a vote",
		help: help{
			about: benchQualityAbout,
			usage: `  debate bench quality --config FILE [--task arithmetic|passage|FILE.jsonl]
                       [--problems N] [--seed S] [--concurrency N]
                       [--dir DIR [--resume]] [--json]
  debate bench quality --demo [--agent-accuracy P] [--conformity C] [--agents N]
                       [--task arithmetic|passage] [--quote-accuracy Q]
                       [--problems N] [--seed S] [--json]
`,
			examples: `  debate bench quality --demo --agent-accuracy 0.6 --conformity 0.5 \
      --problems 400 --seed 1
  debate bench quality --demo --task passage --quote-accuracy 0.8 --problems 200
  debate bench quality --config debate.jsonc --problems 50 --dir q
  debate bench quality --config debate.jsonc --problems 50 --dir q --resume
  debate bench quality --config debate.jsonc --task questions.jsonl --json
`,
			exits: `  0    every problem was measured
  1    the run failed, was stopped by the budget before the last problem, or
       more than a tenth of an arm's answers had no answer line
  2    bad flags, a bad config or a bad task file (the error names the line)
  130  interrupted by Ctrl-C: what was measured is printed
`,
		},
		options: func() options { return &benchQualityOptions{} },
	}
}

func (o *benchQualityOptions) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.config, "config", "c", "", "the config whose debaters and judge are measured")
	fs.StringVar(&o.task, "task", "arithmetic", `the problems: "arithmetic", "passage" or a JSONL file of {"id","question","answer"} lines`)
	fs.IntVar(&o.problems, "problems", 0, "how many problems: of arithmetic or passage, 100 unless given; of a file, the first N, or all")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated problems, the tie draws, the bootstrap and the debates' aliases")
	fs.IntVar(&o.concurrency, "concurrency", 0, "cap on model calls in flight (default: the config's params.concurrency; with --demo 16)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of text")
	fs.StringVar(&o.dir, "dir", "", "work folder: each chunk's debate reports, and the journals that let --resume go on")
	fs.BoolVar(&o.resume, "resume", false, "with --dir: reuse every call the folder's journals hold, from a stopped run of the same command")
	fs.BoolVar(&o.demo, "demo", false, "measure scripted agents instead of the config's models (no key, nothing leaves the machine)")
	fs.Float64Var(&o.AgentAccuracy, "agent-accuracy", 0.6, "with --demo: the chance that an agent's own answer is right")
	fs.Float64Var(&o.Conformity, "conformity", 0.5, "with --demo: the chance that an agent adopts the majority answer it is shown")
	fs.IntVar(&o.Agents, "agents", 3, "with --demo: how many scripted agents debate")
	fs.Float64Var(&o.QuoteAccuracy, "quote-accuracy", 0.8, "with --demo and passages: the chance that an agent quotes the passage word for word")
}

// check reports the first flag out of range.
func (o *benchQualityOptions) check() error {
	switch {
	case o.problems < 0 || o.problems > 100000:
		return usagef("--problems must be from 1 to 100000 (got %d)", o.problems)
	case o.concurrency < 0:
		return usagef("--concurrency must be at least 1 (got %d)", o.concurrency)
	case o.demo && o.config != "":
		return usagef("--demo measures scripted agents: drop --config, or drop --demo to measure the config's models")
	case o.resume && o.dir == "":
		return usagef("--resume goes on from a work folder: add the --dir of the stopped run")
	case !o.demo && o.config == "":
		return usagef("--config is required (or --demo for scripted agents)")
	}
	if o.demo {
		if err := o.DemoOptions.Check(); err != nil {
			return usageError{err}
		}
	}
	return nil
}

func (o *benchQualityOptions) run(e *env) error {
	if err := o.check(); err != nil {
		return err
	}
	n := o.problems
	if n == 0 && (o.task == "arithmetic" || o.task == "passage") {
		n = defaultArithmetic
	}
	problems, err := quality.LoadProblems(o.task, n, o.seed)
	if err != nil {
		return usageError{err}
	}
	var cfg *configs.Config
	if !o.demo {
		if cfg, err = e.loadConfig(o.config, configs.Options{Getenv: e.getenv}); err != nil {
			return err
		}
	}
	concurrency := o.concurrency
	if concurrency == 0 {
		concurrency = demoConcurrency
		if cfg != nil {
			concurrency = cfg.Params.Concurrency
		}
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	logs := io.Writer(e.stderr)
	opt := quality.Options{Task: o.task, Seed: o.seed, Concurrency: concurrency, Dir: o.dir, Resume: o.resume}
	if t := e.terminalOf(e.stderr); t.ok {
		defer t.stop()
		line := output.NewLine(e.stderr, t.width)
		defer line.Clear()
		opt.Progress = func(p quality.Progress) { line.Show(progressText(p)) }
		logs = line
	}
	opt.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var r *quality.Report
	if o.demo {
		r, err = quality.RunDemo(ctx, problems, o.DemoOptions, opt)
	} else {
		r, err = quality.Run(ctx, cfg, problems, opt)
	}
	if line, ok := logs.(*output.Line); ok {
		line.Clear() // before the report, which may share the terminal
	}
	var rep report
	if r != nil {
		rep = sizedReport{r, e.reportWidth()}
	}
	return e.benchOutcome(ctx, o.json, rep, err, func() string {
		switch {
		case r.Measured < r.Problems:
			return fmt.Sprintf("%d of %d problems measured: %s", r.Measured, r.Problems, r.Stopped)
		case len(r.Warnings) > 0:
			return "too many answers lack an answer line; see the warnings"
		}
		return ""
	})
}

// sizedReport is a quality report printed for a terminal's width.
type sizedReport struct {
	*quality.Report
	width int
}

func (s sizedReport) Text() string { return s.Format(s.width) }

// reportWidth is the width of the terminal stdout is, 0 when it is none.
func (e *env) reportWidth() int {
	t := e.terminalOf(e.stdout)
	if !t.ok {
		return 0
	}
	defer t.stop()
	return t.width()
}

// progressText is a quality run's progress as its live line shows it.
func progressText(p quality.Progress) string {
	s := output.Bar(p.Measured, p.Problems, 20, "problems")
	if p.Arm != "" {
		s += fmt.Sprintf(" · %s %d/%d", p.Arm, p.Played, p.Chunk)
	}
	return s
}
