package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
)

// validateOptions are the flags of "debate validate".
type validateOptions struct {
	noArgs
	config string
	noEnv  bool
}

func validateCommand() *command {
	return &command{
		name: "validate", summary: "check a config and print every problem in it",
		help: help{
			about: `Check a config: parse it, expand ${ENV} variables, apply defaults and report
every problem at once, each as file:line:col: field: message; on GitHub
Actions each problem is also an error on the config's line and in the job
summary. --no-env checks the shape, files and limits without reading any
environment variable (for a pull request from a fork, where secrets are
absent): every ${VAR} is kept as written and named. A valid config
gets a note for each model taken for a reasoning model by its name, with the
parameters its requests will not carry.`,
			usage:    "  debate validate --config <file.jsonc> [--no-env]\n",
			examples: "  debate validate --config debate.jsonc\n  debate validate --config debate.jsonc --no-env   # no secrets needed\n",
			exits: `  0  the config is valid
  2  the config has problems (all are printed), the file is missing, or the
     flags are wrong
`,
		},
		options: func() options { return &validateOptions{} },
	}
}

func (o *validateOptions) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.config, "config", "c", "", "config file (JSONC) to check (required)")
	fs.BoolVar(&o.noEnv, "no-env", false, "read no environment variable: keep every ${VAR} as written")
}

func (o *validateOptions) run(e *env) error {
	cfg, err := e.loadConfig(o.config, configs.Options{Getenv: e.getenv, NoEnv: o.noEnv})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: ok (%s)\n", o.config, holds(cfg))
	if len(cfg.Unread) > 0 {
		it := "it"
		if len(cfg.Unread) > 1 {
			it = "them"
		}
		fmt.Fprintf(e.stdout, "note: not read (--no-env): %s; a run needs %s set\n", strings.Join(cfg.Unread, ", "), it)
	}
	for _, n := range reasoningNotes(cfg) {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	return nil
}

// checkTemplates checks the template overrides in dir, those of topics and
// those of motions' roles, as a run would load them.
func checkTemplates(language, dir string) error {
	if _, err := prompts.New(language, dir); err != nil {
		return err
	}
	_, err := prompts.NewRoles(language, dir)
	return err
}

// loadConfig reads the config at path for a command, as every command that
// reads one does: a missing --config or file is a usage error, a config
// with problems lists them all, and its warnings go to stderr.
func (e *env) loadConfig(path string, opt configs.Options) (*configs.Config, error) {
	if path == "" {
		return nil, usagef("--config is required")
	}
	opt.Templates = checkTemplates
	cfg, err := configs.Load(path, opt)
	if err != nil {
		return nil, missingInput(err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return cfg, nil
}

// holds counts what cfg plays: its debaters and topics, its motions, or
// both when it holds both.
func holds(cfg *configs.Config) string {
	var parts []string
	if len(cfg.Motions) == 0 || len(cfg.Debaters)+len(cfg.Topics) > 0 {
		parts = append(parts, plural(len(cfg.Debaters), "debater", "debaters"), plural(len(cfg.Topics), "topic", "topics"))
	}
	if len(cfg.Motions) > 0 {
		parts = append(parts, plural(len(cfg.Motions), "motion", "motions"))
	}
	return strings.Join(parts, ", ")
}
