package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/debatehq/debate/guide"
)

// guideOptions are the flags of guide and guide install.
type guideOptions struct {
	typ, lang string
	tool, dir string
}

func guideHelp(fs interface{ FlagUsagesWrapped(int) string }) string {
	return `Print the guide of a role: how an AI agent (or a person) takes part in a debate through these
commands: starting or resuming, the wait loop and what each action means, appeals with numbered
options, aligning to a ruling, finishing, documents, the rules of each debate type, and what to
do on each exit code. "guide install" writes the three guides where a coding agent looks for
custom commands: /debate-proposer, /debate-opponent and /debate-arbitrator.

USAGE
  debate guide <proposer|opponent|arbitrator> [--type general_debate|coding_plan_debate] [--lang ` + strings.Join(guide.Langs, "|") + `]
  debate guide install --for <claude|codex|gemini> [--dir <folder>] [--lang ` + strings.Join(guide.Langs, "|") + `]

FLAGS
` + fs.FlagUsagesWrapped(helpWidth) + `
INSTALLED FILES
  claude  <dir>/.claude/commands/debate-<role>.md   (dir: the current folder, the project)
  codex   <dir>/.codex/prompts/debate-<role>.md     (dir: your home folder)
  gemini  <dir>/.gemini/commands/debate-<role>.toml (dir: the current folder, the project)
  Installing again replaces them.

EXAMPLES
  debate guide opponent --type coding_plan_debate
  debate guide install --for claude
  debate guide install --for codex --lang zh

EXIT CODES
  0  printed or installed
  1  a file could not be written
  2  bad arguments or flags
`
}

func guideCmd(e *env, args []string) int {
	var o guideOptions
	fs := flagSet("guide")
	fs.StringVar(&o.typ, "type", "", "state only this debate type's rules: general_debate or coding_plan_debate (default: both)")
	fs.StringVar(&o.lang, "lang", guide.Langs[0], "language of the guide: "+strings.Join(guide.Langs, " or "))
	fs.StringVar(&o.tool, "for", "", "install: the coding agent, claude, codex or gemini")
	fs.StringVar(&o.dir, "dir", "", "install: the folder to install into (default: the project for claude and gemini, home for codex)")
	if done, code := parse(e, fs, args, func() string { return guideHelp(fs) }); done {
		return code
	}
	switch {
	case fs.NArg() == 0:
		return e.fail("guide", usagef("missing the role: give proposer, opponent or arbitrator, or install"))
	case fs.NArg() > 1:
		return e.fail("guide", usagef("unexpected argument %q", fs.Arg(1)))
	case fs.Arg(0) == "install":
		if fs.Changed("type") {
			return e.fail("guide", usagef("--type: install writes guides with the rules of every debate type; drop --type"))
		}
		return o.install(e)
	}
	if fs.Changed("for") || fs.Changed("dir") {
		return e.fail("guide", usagef("--for and --dir belong to debate guide install"))
	}
	text, err := guide.Render(guide.Options{Role: fs.Arg(0), Type: o.typ, Lang: o.lang})
	if err != nil {
		return e.fail("guide", usageError{err})
	}
	fmt.Fprint(e.stdout, text)
	return exitOK
}

// install writes the guides as the custom commands of o.tool.
func (o *guideOptions) install(e *env) int {
	if o.tool == "" {
		return e.fail("guide", usagef("--for is required: claude, codex or gemini"))
	}
	files, err := guide.Files(o.tool, o.lang)
	if err != nil {
		return e.fail("guide", usageError{fmt.Errorf("--for/--lang: %w", err)})
	}
	dir := o.dir
	if dir == "" {
		if dir, err = o.defaultDir(e); err != nil {
			return e.fail("guide", err)
		}
	}
	written, err := guide.Install(dir, files)
	for _, p := range written {
		fmt.Fprintf(e.stdout, "wrote %s\n", p)
	}
	if err != nil {
		return e.fail("guide", err)
	}
	return exitOK
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
