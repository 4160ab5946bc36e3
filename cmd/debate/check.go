package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
)

// checkReport is what "debate check --json" prints.
type checkReport struct {
	Version int                  `json:"version"`
	OK      bool                 `json:"ok"`
	Results []providers.CheckRow `json:"results"`
}

func checkCmd(e *env, args []string) int {
	fs := flagSet("check")
	path := fs.StringP("config", "c", "", "config file (JSONC) whose endpoints and models to try (required)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	help := func() string {
		return helpText(fs, "debate check --config <file.jsonc> [--json]",
			"Make one tiny streamed call per distinct endpoint and model of a config (primaries and fallbacks),\n"+
				"all in parallel, and print per participant and model: the endpoint's host, the result (ok,\n"+
				"key refused, model not found, parameter adapted, no streaming, timeout, ...) and the latency.\n"+
				"No key is printed.",
			"  debate check --config debate.jsonc\n  debate check --config debate.jsonc --json\n",
			"  0  every participant has a usable model (its primary or its fallback)\n"+
				"  1  at least one participant has none\n  2  the config has problems or the flags are wrong\n")
	}
	if done, code := parse(e, fs, args, help); done {
		return code
	}
	if *path == "" {
		fmt.Fprintln(e.stderr, "debate check: --config is required\nRun \"debate help check\" for usage.")
		return exitUsage
	}
	cfg, err := configs.Load(*path, configs.Options{Getenv: e.getenv})
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	rows, err := providers.Check(ctx, cfg, providers.CheckOptions{})
	if ctx.Err() != nil {
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "debate check:", err)
		return exitCode(err)
	}
	ok := providers.Usable(rows)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(checkReport{Version: 1, OK: ok, Results: rows})
	} else {
		printCheck(e, rows)
	}
	if !ok {
		return exitFailed
	}
	return exitOK
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\n", r.Participant, model, r.Host, r.Result, r.Latency.Round(time.Millisecond))
	}
	tw.Flush()
	for _, r := range rows {
		if r.Detail != "" {
			fmt.Fprintf(e.stdout, "\n%s, %s: %s", r.Participant, r.Model, r.Detail)
		}
	}
	fmt.Fprintln(e.stdout)
}
