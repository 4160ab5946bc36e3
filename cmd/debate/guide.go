package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/guide"
)

// guideOptions are the flags and arguments of guide and guide install.
type guideOptions struct {
	typ, lang string
	tool, dir string
	// role is the role whose guide is printed; empty for install.
	role string
}

func guideCommand() *command {
	langs := strings.Join(guide.Langs, "|")
	return &command{
		name: "guide", summary: "print or install the role guides agents follow",
		help: help{
			about: `Print the guide of a role: how an AI agent (or a person) takes part in a debate
through these commands: starting or resuming, the wait loop and what each action
means, appeals with numbered options, aligning to a ruling, finishing,
documents, the rules of each debate type, and what to do on each exit code.
"guide install" writes the three guides where a coding agent looks for custom
commands: /debate-proposer, /debate-opponent and /debate-arbitrator.`,
			usage: `  debate guide <proposer|opponent|arbitrator>
               [--type general_debate|coding_plan_debate] [--lang ` + langs + `]
  debate guide install --for <claude|codex|gemini> [--dir <folder>]
               [--lang ` + langs + `]
`,
			sections: []section{{"INSTALLED FILES", `  claude  <dir>/.claude/commands/debate-<role>.md   (dir: the current folder)
  codex   <dir>/.codex/prompts/debate-<role>.md     (dir: your home folder)
  gemini  <dir>/.gemini/commands/debate-<role>.toml (dir: the current folder)
  Installing again replaces them.
`}},
			examples: `  debate guide opponent --type coding_plan_debate
  debate guide install --for claude
  debate guide install --for codex --lang zh
`,
			exits: "  0  printed or installed\n  1  a file could not be written\n  2  bad arguments or flags\n",
		},
		options: func() options { return &guideOptions{} },
	}
}

func (o *guideOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.typ, "type", "", "state only this debate type's rules: general_debate or coding_plan_debate (default: both)")
	fs.StringVar(&o.lang, "lang", guide.Langs[0], "language of the guide: "+strings.Join(guide.Langs, " or "))
	fs.StringVar(&o.tool, "for", "", "install: the coding agent, claude, codex or gemini")
	fs.StringVar(&o.dir, "dir", "", "install: the folder to install into (default: the project for claude and gemini, home for codex)")
}

func (o *guideOptions) args(fs *pflag.FlagSet) error {
	switch {
	case fs.NArg() == 0:
		return usagef("missing the role: give proposer, opponent or arbitrator, or install")
	case fs.NArg() > 1:
		return usagef("unexpected argument %q", fs.Arg(1))
	case fs.Arg(0) == "install" && fs.Changed("type"):
		return usagef("--type: install writes guides with the rules of every debate type; drop --type")
	case fs.Arg(0) == "install" && o.tool == "":
		return usagef("--for is required: claude, codex or gemini")
	case fs.Arg(0) == "install" && !slices.Contains(guide.Tools, o.tool):
		return usagef("--for %q: want %s", o.tool, strings.Join(guide.Tools, ", "))
	case fs.Arg(0) == "install":
		return nil
	case fs.Changed("for") || fs.Changed("dir"):
		return usagef("--for and --dir belong to debate guide install")
	case !slices.Contains(guide.Roles, fs.Arg(0)):
		hint := ""
		if near, ok := configs.Closest(fs.Arg(0), append(slices.Clone(guide.Roles), "install")); ok {
			hint = fmt.Sprintf(": did you mean %q?", "debate guide "+near)
		}
		return usagef("unknown role %q%s (give proposer, opponent or arbitrator, or install)", fs.Arg(0), hint)
	}
	o.role = fs.Arg(0)
	return nil
}

func (o *guideOptions) run(e *env) error {
	if o.role == "" {
		return o.install(e)
	}
	text, err := guide.Render(guide.Options{Role: o.role, Type: o.typ, Lang: o.lang})
	if err != nil {
		return usageError{err}
	}
	_, err = fmt.Fprint(e.stdout, text)
	return err
}

// install writes the guides as the custom commands of o.tool.
func (o *guideOptions) install(e *env) error {
	files, err := guide.Files(o.tool, o.lang)
	if err != nil {
		return usageError{fmt.Errorf("--lang: %w", err)}
	}
	dir := o.dir
	if dir == "" {
		if dir, err = o.defaultDir(e); err != nil {
			return err
		}
	}
	written, err := guide.Install(dir, files)
	for _, p := range written {
		fmt.Fprintf(e.stdout, "wrote %s\n", p)
	}
	return err
}

// defaultDir is where o.tool looks for custom commands: the home folder for
// Codex, the current project for the others.
func (o *guideOptions) defaultDir(e *env) (string, error) {
	if o.tool == "codex" {
		if home, ok := e.getenv("HOME"); ok && home != "" {
			return home, nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the home folder for codex: %w (give --dir)", err)
		}
		return home, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the current folder: %w (give --dir)", err)
	}
	return dir, nil
}
