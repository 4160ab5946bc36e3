package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/output"
)

// Exit codes of every command. They are part of the interface CI jobs rely on.
const (
	exitOK          = 0   // every topic finished, converged or forced
	exitFailed      = 1   // at least one topic or node failed, or the run could not complete
	exitUsage       = 2   // bad flags or a bad config
	exitDecision    = 8   // a topic's decision is in --fail-on (params.failOn)
	exitInterrupted = 130 // stopped by Ctrl-C
)

// env is what a command may touch of the outside world; tests replace it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) (string, bool)
	// notify subscribes c to interrupt signals; nil means os/signal.
	notify func(c chan<- os.Signal)
	// term tells whether w is a terminal and its size; nil asks the OS.
	term func(w io.Writer) terminal
	// spawn returns a command running this program with args, for a server
	// started in the background; nil means os.Executable.
	spawn func(args []string) *exec.Cmd
	// gh is what the command tells GitHub Actions; stdout and stderr write
	// through it.
	gh *output.GitHub
}

// group is a heading of the top help and its commands.
type group struct {
	title string
	cmds  []*command
}

// Command groups, in the order the top help lists them.
const (
	groupBatch  = "Batch debates"
	groupServer = "Server, web UI and role guides"
	groupAgents = "Agent commands (they print JSON; exit codes below)"
	groupOther  = "Other"
)

// commandGroups lists every command under its heading; help stays last.
func commandGroups() []group {
	return []group{
		{groupBatch, []*command{runCommand(), mergeCommand(), validateCommand(), checkCommand()}},
		{groupServer, []*command{serveCommand(), mcpCommand(), openCommand(), guideCommand()}},
		{groupAgents, []*command{generateIDCommand(), createCommand(), getContextCommand(),
			submitCommand(), appealCommand(), requestCompletionCommand(), rulingCommand(),
			interventionCommand(), waitCommand(), listCommand(), docsCommand()}},
		{groupOther, []*command{benchCommand(), auditCommand(), versionCommand(), helpCommand()}},
	}
}

// commands returns every command of the top level.
func commands() []*command {
	var all []*command
	for _, g := range commandGroups() {
		all = append(all, g.cmds...)
	}
	return all
}

// Main runs the program with the given arguments and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.LookupEnv}
	return e.main(args)
}

// main runs the program; on a GitHub Actions runner every line it writes
// goes through output.GitHub, which keeps quoted text from reading as a
// workflow command.
func (e *env) main(args []string) int {
	e.gh = output.NewGitHub(e.stdout, e.stderr, e.getenv)
	e.stdout, e.stderr = e.gh.Stdout(), e.gh.Stderr()
	defer e.gh.Close()
	return e.dispatch(args)
}

// dispatch runs the command args name.
func (e *env) dispatch(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, topHelp())
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		fmt.Fprint(e.stdout, topHelp())
		return exitOK
	case "-v", "--version":
		args = []string{"version"}
	}
	if c := find(commands(), args[0]); c != nil {
		return e.execute(c, args[1:])
	}
	return e.unknown(nil, args[0])
}

// unknown answers a command name that parent (nil: the top level) does not
// have: with the name meant when one is near, as JSON when that is an agent
// command.
func (e *env) unknown(parent *command, name string) int {
	cmds, prefix, top := commands(), "", topHelp()
	if parent != nil {
		cmds, prefix, top = parent.subs, parent.name+" ", parent.helpText(nil)
	}
	c := nearest(cmds, prefix, name)
	switch {
	case c != nil && c.agent:
		err := usagef("unknown command %q: did you mean %q?", strings.TrimSpace(prefix+name), "debate "+c.name)
		return e.agentFailure(c.name, err)
	case parent != nil && parent.subs[0].agent:
		return e.agentFailure(parent.name, usagef("unknown %s %q: want %s", parent.noun, name, strings.Join(names(cmds), ", ")))
	case c != nil:
		fmt.Fprintf(e.stderr, "debate: unknown command %q: did you mean %q?\nRun \"debate help\" for every command.\n", prefix+name, c.name)
	case parent != nil:
		fmt.Fprintf(e.stderr, "debate %s: unknown %s %q (want %s)\nRun \"debate help %s\" for usage.\n",
			parent.name, parent.noun, name, strings.Join(names(cmds), " or "), parent.name)
	default:
		fmt.Fprintf(e.stderr, "debate: unknown command %q\n\n%s", name, top)
	}
	return exitUsage
}

// flagHint returns " (did you mean --name?)" for a pflag error about an
// unknown long flag that is near one of fs's flags, else "".
func flagHint(fs *pflag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if near, ok := configs.Closest(name, names); ok {
		return fmt.Sprintf(" (did you mean --%s?)", near)
	}
	return ""
}

func topHelp() string {
	var b strings.Builder
	b.WriteString(`debate makes several language models argue a question until they agree or a
judge decides.

USAGE
  debate <command> [flags]

COMMANDS
`)
	for _, g := range commandGroups() {
		fmt.Fprintf(&b, "  %s\n", g.title)
		for _, c := range g.cmds {
			fmt.Fprintf(&b, "    %-19s %s\n", c.name, c.summary)
		}
	}
	b.WriteString(`
EXAMPLES
  debate validate --config debate.jsonc
  debate run --config debate.jsonc --dry-run
  DEBATE_API_KEY=sk-... debate run --config debate.jsonc --topic topic-6
  debate serve --db team.db
  debate wait --debate-id "$id" --role opponent --argument-id "$arg"

AGENT EXIT CODES
  0 ok (wait: also "status":"timeout")   1 internal error   2 not found
  3 invalid input or flags   4 not allowed now   5 auth failed
  6 server unreachable   7 timeout   130 interrupted

Run "debate help <command>" for a command's flags and exit codes.
`)
	return b.String()
}

// helpOptions are the arguments of "debate help".
type helpOptions struct {
	topic []string
}

func helpCommand() *command {
	return &command{
		name: "help", summary: "show help for a command",
		help: help{
			about:    "Show the help of debate, or of a command.",
			usage:    "  debate help [<command> [<subcommand>]]\n",
			examples: "  debate help run\n  debate help docs create\n",
			exits:    "  0  the help was printed\n  2  no such command\n",
		},
		options: func() options { return &helpOptions{} },
	}
}

func (o *helpOptions) flags(*pflag.FlagSet) {}

func (o *helpOptions) args(fs *pflag.FlagSet) error {
	o.topic = fs.Args()
	return nil
}

// didYouMean returns ": did you mean "debate run"?" for a misspelt command
// path such as "rnu" or "docs craete", or "".
func didYouMean(path []string) string {
	cs, prefix := commands(), ""
	for i, name := range path {
		c := nearest(cs, prefix, name)
		if c == nil {
			return ""
		}
		if i == len(path)-1 || c.subs == nil {
			return fmt.Sprintf(": did you mean %q?", "debate "+c.name)
		}
		cs, prefix = c.subs, c.name+" "
	}
	return ""
}

func (o *helpOptions) run(e *env) error {
	if len(o.topic) == 0 || o.topic[0] == "help" {
		fmt.Fprint(e.stdout, topHelp())
		return nil
	}
	c := find(commands(), o.topic[0])
	for _, sub := range o.topic[1:] {
		if c == nil || c.subs == nil {
			break
		}
		c = find(c.subs, c.name+" "+sub)
	}
	if c == nil {
		return usagef("unknown command %q%s", strings.Join(o.topic, " "), didYouMean(o.topic))
	}
	if c.subs != nil {
		fmt.Fprint(e.stdout, c.helpText(nil))
		return nil
	}
	_, fs, _ := c.parse(nil)
	fmt.Fprint(e.stdout, c.helpText(fs))
	return nil
}
