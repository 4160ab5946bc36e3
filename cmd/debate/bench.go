package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/bench"
)

// benchTreeOptions are the flags of "debate bench tree".
type benchTreeOptions struct {
	noArgs
	bench.TreeOptions
	json bool
	// cpuprofile, mutexprofile and blockprofile, when set, receive the
	// run's CPU, lock contention and blocking profiles.
	mutexprofile, blockprofile, cpuprofile string
}

// benchServeOptions are the flags of "debate bench serve".
type benchServeOptions struct {
	noArgs
	bench.ServeOptions
	json, inProcess bool
	cpuprofile      string // of the server process
}

func benchCommand() *command {
	return &command{
		name: "bench", summary: "measure the engine, the server and answer quality",
		noun: "benchmark",
		help: help{
			about: `Measure debate on this machine: the batch engine against a fake model API
(tree), the protocol server under agents' load (serve), and whether debating
beats asking one model or a vote on your own models and questions (quality).
Each prints figures a person reads, or with --json one object for CI. Figures
depend on the machine and on what else runs on it: compare ratios, measured in
one run.`,
			usage:    "  debate bench <tree|serve|quality> [flags]\n",
			examples: "  debate bench tree --faults 0.2\n  debate bench serve --duration 3s --json\n",
			exits:    "  see \"debate bench <tree|serve|quality> --help\"\n",
		},
		subs: []*command{benchTreeCommand(), benchServeCommand(), benchQualityCommand()},
	}
}

func benchTreeCommand() *command {
	return &command{
		name: "bench tree", summary: `run generated topics through the real "debate run" path`,
		help: help{
			about: `Run generated topics through the real "debate run" path against a fake
OpenAI-compatible API served on loopback, and print: calls, wall time, the
critical-path bound and the ratio of the two, the peak of calls in flight, CPU
per call and peak memory, the prompt tokens with the share that is
cache-eligible and the effective prompt cost; with --faults, the faults
injected, retries, fallbacks and failed nodes. The bound is levels × 3
dependent calls (positions, rebuttals, judge) × latency, raised when the cap on
calls in flight, not the chain of calls, is what limits the run.`,
			usage: `  debate bench tree [--topics N] [--debaters N] [--fanout N] [--depth N]
                    [--latency D] [--concurrency N] [--faults P]
                    [--context-tokens N] [--json]
`,
			examples: `  debate bench tree --topics 20 --debaters 3 --fanout 2 --depth 3 \
      --latency 100ms --concurrency 64
  debate bench tree --faults 0.2
  debate bench tree --topics 200 --json
`,
			exits: `  0  the run finished and every topic was reported
  1  the run failed, or a topic has no report
  2  bad flags
`,
		},
		options: func() options { return &benchTreeOptions{} },
	}
}

func (o *benchTreeOptions) flags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Topics, "topics", 20, "topics run at once")
	fs.IntVar(&o.Debaters, "debaters", 3, "debaters per topic")
	fs.IntVar(&o.Fanout, "fanout", 2, "divergences the judge finds at every node above the last level")
	fs.IntVar(&o.Depth, "depth", 3, "levels of every topic's tree (params.maxRounds)")
	fs.DurationVar(&o.Latency, "latency", 100*time.Millisecond, "time the fake API takes to answer each call")
	fs.IntVar(&o.Concurrency, "concurrency", 64, "cap on model calls in flight (the run's --concurrency)")
	fs.IntVar(&o.ContextTokens, "context-tokens", 0, "size in tokens of a shared context every topic carries (sharedContext.inline)")
	fs.Float64Var(&o.Faults, "faults", 0, "share of calls that fail: 5xx, 429, timeouts, cut connections, judge answers without JSON (e.g. 0.2)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of text")
	fs.StringVar(&o.mutexprofile, "mutexprofile", "", "write a profile of the run's lock contention to this file")
	fs.StringVar(&o.blockprofile, "blockprofile", "", "write a profile of where the run's goroutines waited to this file")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run (the fake API included) to this file")
	_ = fs.MarkHidden("mutexprofile")
	_ = fs.MarkHidden("blockprofile")
	_ = fs.MarkHidden("cpuprofile")
}

func (o *benchTreeOptions) run(e *env) error {
	if err := o.Check(); err != nil {
		return usageError{err}
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	writeProfiles, err := profile(o.cpuprofile, o.mutexprofile, o.blockprofile)
	if err != nil {
		return err
	}
	r, err := bench.Tree(ctx, o.TreeOptions)
	if perr := writeProfiles(); perr != nil && err == nil {
		err = perr
	}
	var rep report
	if r != nil {
		rep = r
	}
	return e.benchOutcome(ctx, o.json, rep, err, func() string {
		if r.TopicsReported != r.Options.Topics {
			return fmt.Sprintf("%d of %d topics have a report", r.TopicsReported, r.Options.Topics)
		}
		return ""
	})
}

func benchServeCommand() *command {
	return &command{
		name: "bench serve", summary: `drive "debate serve" on a temp database as agents do`,
		help: help{
			about: `Start "debate serve" on a temporary database on a free loopback port, as a
process of its own, and drive it over HTTP as agents do: each writer
plays claim, claim, claim, appeal, ruling, claim on its own debate; each poller
polls a writer's debate without waiting. Print writes/s, polls/s, p50 and p99 of
each, and the wake latency from a submit to a long-poll already waiting for it,
during the load and once it is over. The load generator shares the machine with
the server: read the load average printed beside the figures. CPU per request is
split between the server's process and the load generator's; the server is
stopped at the end, also on Ctrl-C or an error.`,
			usage: `  debate bench serve [--writers N] [--pollers N] [--duration D] [--in-process]
                     [--json]
`,
			examples: `  debate bench serve --writers 32 --pollers 32 --duration 10s
  debate bench serve --duration 3s --json
`,
			exits: `  0  the load ran without a failed request and every debate's seq is contiguous
  1  a request failed or seq has a gap
  2  bad flags
`,
		},
		options: func() options { return &benchServeOptions{} },
	}
}

func (o *benchServeOptions) flags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Writers, "writers", 32, "writer agents, each on a debate of its own")
	fs.IntVar(&o.Pollers, "pollers", 32, "polling agents (polls without waiting, as agents of the original server did)")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "how long the load runs")
	fs.BoolVar(&o.inProcess, "in-process", false, "run the server in the load generator's process instead of its own")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the server process to this file")
	_ = fs.MarkHidden("cpuprofile")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of text")
}

func (o *benchServeOptions) run(e *env) error {
	if err := o.Check(); err != nil {
		return usageError{err}
	}
	if o.inProcess && o.cpuprofile != "" {
		return usagef("--cpuprofile profiles the server process: drop --in-process")
	}
	if !o.inProcess {
		serve := []string{"serve"}
		if o.cpuprofile != "" {
			serve = append(serve, "--cpuprofile", o.cpuprofile)
		}
		o.Server = func(args []string) (*exec.Cmd, error) { return e.self(slices.Concat(serve, args)) }
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	// The load generator collects as the server does: with the server in
	// this process, as debate serve would; beside it, to take no more of
	// the machine than it must.
	defer tuneGC(e.getenv)()
	r, err := bench.Serve(ctx, o.ServeOptions)
	var rep report
	if r != nil {
		rep = r
	}
	return e.benchOutcome(ctx, o.json, rep, err, func() string {
		if r.Errors > 0 || !r.SeqChecked {
			return fmt.Sprintf("%d failed requests (first: %s), seq contiguous: %v", r.Errors, r.FirstError, r.SeqChecked)
		}
		return ""
	})
}

// report is a benchmark's report.
type report interface{ Text() string }

// benchOutcome prints the report of a benchmark (nil when it did not run),
// as JSON or text, and returns what ended it: an interruption, err, or
// problem when the run went through but its result is wrong.
func (e *env) benchOutcome(ctx context.Context, asJSON bool, r report, err error, problem func() string) error {
	if r != nil {
		if perr := printReport(e.stdout, asJSON, r); perr != nil {
			return perr
		}
	}
	switch {
	case ctx.Err() != nil:
		return interruptedError{err: ctx.Err()}
	case err != nil:
		return err
	}
	if p := problem(); p != "" {
		return errors.New(p)
	}
	return nil
}

// printReport writes r as indented JSON, or as text.
func printReport(w io.Writer, asJSON bool, r report) error {
	if !asJSON {
		_, err := io.WriteString(w, r.Text())
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// blockRate is the block profile's sampling: about one wait in each
// blockRate nanoseconds of waiting is recorded.
const blockRate = 10_000

// profile starts the profiles whose files are set: the CPU, lock
// contention and blocking; it returns how to stop them and write each to
// its file.
func profile(cpu, mutex, block string) (func() error, error) {
	stopCPU := func() {}
	if cpu != "" {
		var err error
		if stopCPU, err = startCPUProfile(cpu); err != nil {
			return nil, err
		}
	}
	if mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if block != "" {
		runtime.SetBlockProfileRate(blockRate)
	}
	return func() error {
		stopCPU()
		runtime.SetMutexProfileFraction(0)
		runtime.SetBlockProfileRate(0)
		var errs []error
		for name, path := range map[string]string{"mutex": mutex, "block": block} {
			if path == "" {
				continue
			}
			f, err := os.Create(path)
			if err == nil {
				err = errors.Join(pprof.Lookup(name).WriteTo(f, 0), f.Close())
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("write the %s profile: %w", name, err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
