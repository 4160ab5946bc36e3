package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// mergeOptions are the flags and arguments of "debate merge".
type mergeOptions struct {
	dirs    []string
	output  string
	formats []string
	// failOn is --fail-on as given, decisions as parsed; failOnSet
	// whether it was given.
	failOn    string
	decisions []tree.Outcome
	failOnSet bool
}

func mergeCommand() *command {
	return &command{
		name: "merge", summary: "combine the folders of a sharded run into one run",
		help: help{
			about: `Combine the folders of a sharded run ("debate run --shard i/n", one per
machine or CI job) into one run folder, as if one machine had played it all:
one run.json with topics and motions in config order and usage summed,
summary.md, every topic's and motion's report, and HTML pages when the shards
wrote them. The reports are rendered afresh from the shards' run.json files.

merge refuses folders without run.json, shards of different configs or --topic
selections, a shard given twice and a missing one, and a run.json or raw/ file
that is a symbolic link, a device or a pipe, and then writes nothing.
The output folder is written all at once; an earlier run folder there is
replaced.`,
			usage: "  debate merge <shard-folder>... --output <dir> [--format <formats>]\n               [--fail-on <decisions>]\n",
			examples: `  # Two CI jobs ran "debate run -c debate.jsonc --shard 1/2 -o shard-1" and 2/2.
  debate merge shard-1 shard-2 --output report/

  # The folders of an actions/download-artifact step, merged with HTML pages.
  debate merge shards/* --output report/ --format markdown,html

  # Fail the CI job when a merged topic ended split or undecided.
  debate merge shards/* --output report/ --fail-on split,undecided
`,
			exits: `  0    every merged topic and motion finished (converged, or verdicts forced)
  1    a merged topic or motion failed or was interrupted, or writing failed
  2    bad flags, a missing folder, or folders that cannot be merged (every
       reason is printed)
  8    a merged topic's decision is in --fail-on (else in the params.failOn
       the shards were run with); the reports are written first
`,
		},
		options: func() options { return &mergeOptions{} },
	}
}

func (o *mergeOptions) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.output, "output", "o", "", "folder of the merged run (required); an earlier run folder there is replaced")
	fs.StringSliceVar(&o.formats, "format", nil, "report formats: markdown, json, html, junit (default: those the shards wrote; run.json is always written)")
	fs.StringVar(&o.failOn, "fail-on", "", "exit 8 once every report is written when a merged topic's decision is one of `decisions` (comma-separated: agreed, decided, split, undecided; default: the shards' params.failOn)")
}

func (o *mergeOptions) args(fs *pflag.FlagSet) error {
	o.dirs = fs.Args()
	o.failOnSet = fs.Changed("fail-on")
	return o.check()
}

// run merges the shard folders and writes the merged run.
func (o *mergeOptions) run(e *env) error {
	opt := batch.MergeOptions{Formats: o.formats, FailOn: o.decisions, FailOnSet: o.failOnSet}
	m, err := batch.Merge(o.dirs, o.output, opt)
	if refused := (*batch.RefusedError)(nil); errors.As(err, &refused) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	for _, f := range m.Files {
		fmt.Fprintln(e.stdout, f)
	}
	fmt.Fprintf(e.stderr, "merged %d shards: %d topics, %d motions, %d calls\n", m.Shards, len(m.Run.Topics), len(m.Run.Motions), m.Run.Usage.Calls)
	if err := e.gh.Report(m.Run, m.Files, m.FailOn, true); err != nil {
		fmt.Fprintf(e.stderr, "warning: could not tell GitHub Actions the decisions (%v)\n", err)
	}
	gate := m.Run.Gated(m.FailOn)
	for _, t := range gate {
		fmt.Fprintf(e.stderr, "warning: decision in --fail-on (topic=%s decision=%q)\n", t.ID, t.DecisionText())
	}
	switch {
	case len(gate) > 0:
		return exitStatus(exitDecision)
	case !m.Run.Finished():
		return exitStatus(exitFailed)
	}
	return nil
}

// check validates the command line before any folder is read.
func (o *mergeOptions) check() error {
	if len(o.dirs) == 0 {
		return usagef("name the shard folders to merge: debate merge <shard-folder>... --output <dir>")
	}
	if o.output == "" || o.output == "-" {
		return usagef("--output <dir> is required: the folder the merged run is written to")
	}
	for _, f := range o.formats {
		if !slices.Contains(knownFormats, f) {
			return usagef("--format %q: want one of %s", f, strings.Join(knownFormats, ", "))
		}
	}
	if o.failOnSet {
		var err error
		if o.decisions, err = tree.ParseOutcomes(o.failOn); err != nil {
			return usagef("--fail-on: %w", err)
		}
	}
	out, err := filepath.Abs(o.output)
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	for _, d := range o.dirs {
		if abs, err := filepath.Abs(d); err == nil && abs == out {
			return usagef("--output %s is also a shard folder to merge: write the merged run to another folder", o.output)
		}
	}
	if _, err := output.Replaceable(o.output); errors.Is(err, output.ErrNotReplaceable) {
		return usagef("--output %s is %v", o.output, output.ErrNotReplaceable)
	} else if err != nil {
		return err
	}
	return nil
}
