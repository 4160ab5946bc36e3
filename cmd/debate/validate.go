package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
)

// validateOptions are the flags of "debate validate".
type validateOptions struct {
	noArgs
	config string
}

func validateCommand() *command {
	return &command{
		name: "validate", summary: "check a config and print every problem in it",
		help: help{
			about: `Check a config: parse it, expand ${ENV} variables, apply defaults and report
every problem at once, each as file:line:col: field: message.`,
			usage:    "  debate validate --config <file.jsonc>\n",
			examples: "  debate validate --config debate.jsonc\n",
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
}

func (o *validateOptions) run(e *env) error {
	cfg, err := e.loadConfig(o.config, configs.Options{Getenv: e.getenv})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: ok (%s, %s)\n", o.config, plural(len(cfg.Debaters), "debater", "debaters"), plural(len(cfg.Topics), "topic", "topics"))
	return nil
}

// loadConfig reads the config at path for a command, as every command that
// reads one does: a missing --config or file is a usage error, a config
// with problems lists them all, and its warnings go to stderr.
func (e *env) loadConfig(path string, opt configs.Options) (*configs.Config, error) {
	if path == "" {
		return nil, usagef("--config is required")
	}
	cfg, err := configs.Load(path, opt)
	if err != nil {
		return nil, missingInput(err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return cfg, nil
}
