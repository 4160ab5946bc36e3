package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/agents"
)

// checkOptions are the flags of "debate check".
type checkOptions struct {
	noArgs
	config string
	json   bool
}

// checkReport is what "debate check --json" prints.
type checkReport struct {
	Version int                  `json:"version"`
	OK      bool                 `json:"ok"`
	Results []providers.CheckRow `json:"results"`
}

func checkCommand() *command {
	return &command{
		name: "check", summary: "try each endpoint and model of a config once",
		help: help{
			about: `Make one tiny call per participant and model of a config (primaries and
fallbacks), all in parallel, shaped as the run's calls are: the
participant's temperature and token limit, the endpoint's headers and
extra body, and a judge's response_format. Participants whose calls are
the same share one. A failure a run would retry is tried once more. An
answer is judged as a run judges it: tool calls alone, or reasoning cut at
the token limit, is no answer. Print per participant and model: the
endpoint's host, the result (ok, parameter adapted, no streaming, or the
failure's class: key refused, model not found or not allowed, quota
exhausted, rate limited, timeout, cut at the token limit, ...) and the
latency; below, each failure, adaptation and retry. No key is printed.

A coding agent (claude-code, codex, gemini-cli, command) is checked as a
user would: is its program found, what version does it report, does it
answer one tiny prompt in its read-only mode. Its row names the program
and version; a failure says the install or login command that fixes it.`,
			usage:    "  debate check --config <file.jsonc> [--json]\n",
			examples: "  debate check --config debate.jsonc\n  debate check --config debate.jsonc --json\n",
			exits: `  0  every participant has a usable model (its primary or its fallback)
  1  at least one participant has none
  2  the config has problems, the file is missing, or the flags are wrong
`,
		},
		options: func() options { return &checkOptions{} },
	}
}

func (o *checkOptions) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.config, "config", "c", "", "config file (JSONC) whose endpoints and models to try (required)")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON")
}

func (o *checkOptions) run(e *env) error {
	cfg, err := e.loadConfig(o.config, configs.Options{Getenv: e.getenv})
	if err != nil {
		return err
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	var rows, agentRows []providers.CheckRow
	var wg conc.WaitGroup
	wg.Go(func() { agentRows = agents.Check(ctx, cfg, agents.CheckOptions{}) })
	rows, err = providers.Check(ctx, cfg, providers.CheckOptions{})
	wg.Wait()
	rows = inParticipantOrder(cfg, append(rows, agentRows...))
	if ctx.Err() != nil {
		return interruptedError{err: ctx.Err()}
	}
	if err != nil {
		return err
	}
	ok := providers.Usable(rows)
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(checkReport{Version: 1, OK: ok, Results: rows}); err != nil {
			return err
		}
	} else {
		printCheck(e, rows)
	}
	if !ok {
		return exitStatus(exitFailed)
	}
	return nil
}

// inParticipantOrder sorts rows by participant, each primary before its
// fallback, as the config lists them.
func inParticipantOrder(cfg *configs.Config, rows []providers.CheckRow) []providers.CheckRow {
	order := map[string]int{}
	for i, p := range cfg.Participants() {
		if _, ok := order[p.ID]; !ok {
			order[p.ID] = i
		}
	}
	slices.SortStableFunc(rows, func(a, b providers.CheckRow) int {
		if c := cmp.Compare(order[a.Participant], order[b.Participant]); c != 0 {
			return c
		}
		return cmp.Compare(b2i(a.Fallback), b2i(b.Fallback))
	})
	return rows
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// printCheck writes the results as a table, failures' details below it.
func printCheck(e *env, rows []providers.CheckRow) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PARTICIPANT\tMODEL\tENDPOINT\tRESULT\tLATENCY")
	for _, r := range rows {
		model := r.Model
		if r.Fallback {
			model += " (fallback)"
		}
		result := r.Result
		switch {
		case r.Retried && r.Usable:
			result += " after a retry"
		case r.Retried:
			result = "failed twice: " + result
		case !r.Usable:
			result = "failed: " + result
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\n", r.Participant, model, r.Host, result, r.Latency.Round(time.Millisecond))
	}
	tw.Flush()
	for _, r := range rows {
		// A first attempt that failed as the retry did is said once, by
		// the detail.
		if r.FirstFailure != "" && !strings.HasSuffix(r.FirstFailure, ": "+r.Detail) {
			fmt.Fprintf(e.stdout, "\n%s, %s: the first attempt failed, retried: %s", r.Participant, r.Model, r.FirstFailure)
		}
		if r.Detail != "" {
			fmt.Fprintf(e.stdout, "\n%s, %s: %s", r.Participant, r.Model, r.Detail)
		}
	}
	fmt.Fprintln(e.stdout)
}
