package main

import (
	"fmt"

	"github.com/debatehq/debate/configs"
)

func validateCmd(e *env, args []string) int {
	fs := flagSet("validate")
	path := fs.StringP("config", "c", "", "config file (JSONC) to check (required)")
	help := func() string {
		return helpText(fs, "debate validate --config <file.jsonc>",
			"Check a config: parse it, expand ${ENV} variables, apply defaults and report every problem at once,\neach as file:line:col: field: message.",
			"  debate validate --config debate.jsonc\n",
			"  0  the config is valid\n  2  the config has problems (all are printed) or the flags are wrong\n")
	}
	if done, code := parse(e, fs, args, help); done {
		return code
	}
	if *path == "" {
		fmt.Fprintln(e.stderr, "debate validate: --config is required\nRun \"debate help validate\" for usage.")
		return exitUsage
	}
	cfg, err := configs.Load(*path, configs.Options{Getenv: e.getenv})
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	fmt.Fprintf(e.stdout, "%s: ok (%s, %s)\n", *path, plural(len(cfg.Debaters), "debater", "debaters"), plural(len(cfg.Topics), "topic", "topics"))
	return exitOK
}
