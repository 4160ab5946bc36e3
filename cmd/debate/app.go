package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
)

// Exit codes of every command. They are part of the interface CI jobs rely on.
const (
	exitOK          = 0   // every topic finished, converged or forced
	exitFailed      = 1   // at least one topic or node failed, or the run could not complete
	exitUsage       = 2   // bad flags or a bad config
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
}

// usageError marks an error caused by the command line: it is printed with a
// pointer to the command's help and exits with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// Command groups, in the order the top help lists them.
const (
	groupBatch  = "Batch debates"
	groupServer = "Server, web UI and role guides"
	groupAgents = "Agent commands (they print JSON; exit codes below)"
	groupOther  = "Other"
)

// commandGroups lists every command under its heading; help stays last.
func commandGroups() []struct {
	title string
	cmds  []command
} {
	return []struct {
		title string
		cmds  []command
	}{
		{groupBatch, []command{
			{"run", "run the debates of a config and write their reports", runCmd},
			{"merge", "combine the folders of a sharded run into one run", mergeCmd},
			{"validate", "check a config and print every problem in it", validateCmd},
			{"check", "try every endpoint and model of a config with one tiny call", checkCmd},
		}},
		{groupServer, []command{
			{"serve", "serve the protocol to agents and a human arbitrator", serveCmd},
			{"open", "open the web UI (a debate's page) in a browser", openCmd},
			{"guide", "print or install the role guides agents follow", guideCmd},
		}},
		{groupAgents, []command{
			{"generate-id", "print a fresh id for a debate or a request", generateIDCmd},
			{"create", "open a debate with its MOTION (proposer)", createCmd},
			{"get-context", "show a debate, its arguments and what each role may do", getContextCmd},
			{"submit", "submit a CLAIM (proposer or opponent)", submitCmd},
			{"appeal", "ask the arbitrator for a ruling (proposer)", appealCmd},
			{"request-completion", "ask to finish; the debate closes at once (proposer)", requestCompletionCmd},
			{"ruling", "rule, --close to end the debate (arbitrator)", rulingCmd},
			{"intervention", "stop the floor until your ruling (arbitrator)", interventionCmd},
			{"wait", "wait for the next argument and what to do about it", waitCmd},
			{"list", "list debates", listCmd},
			{"docs", "create, version and read shared documents", docsCmd},
		}},
		{groupOther, []command{
			{"bench", "measure the engine and the server on this machine (tree, serve)", benchCmd},
			{"version", "print the version", versionCmd},
			{"help", "show help for a command", helpCmd},
		}},
	}
}

func commands() []command {
	var all []command
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

func (e *env) main(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, showHelp(topHelp()))
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		fmt.Fprint(e.stdout, showHelp(topHelp()))
		return exitOK
	case "-v", "--version":
		return versionCmd(e, nil)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	near, ok := configs.Closest(args[0], names)
	switch {
	case ok && isAgentCommand(near):
		return e.unknownAgentCommand(args[0], "debate "+near)
	case ok:
		fmt.Fprintf(e.stderr, "debate: unknown command %q: did you mean %q?\nRun \"debate help\" for every command.\n", args[0], near)
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "debate: unknown command %q\n\n%s", args[0], showHelp(topHelp()))
	return exitUsage
}

// isAgentCommand reports whether name is one of the agent commands, whose
// every answer is JSON.
func isAgentCommand(name string) bool {
	for _, g := range commandGroups() {
		if g.title == groupAgents {
			return slices.ContainsFunc(g.cmds, func(c command) bool { return c.name == name })
		}
	}
	return false
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
	b.WriteString(`debate makes several language models argue a question until they agree or a judge decides.

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

func helpCmd(e *env, args []string) int {
	if len(args) == 0 || slices.Contains([]string{"help", "-h", "--help"}, args[0]) {
		fmt.Fprint(e.stdout, showHelp(topHelp()))
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run(e, []string{"--help"})
		}
	}
	fmt.Fprintf(e.stderr, "debate help: unknown command %q\n", args[0])
	return exitUsage
}

// flagSet returns a quiet pflag set: parse reports its errors and help.
func flagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.Usage = func() {}
	return fs
}

// parse parses args and handles --help. It returns done=true with the exit
// code when the command should stop.
func parse(e *env, fs *pflag.FlagSet, args []string, help func() string) (done bool, code int) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(e.stdout, showHelp(help()))
		return true, exitOK
	case err != nil:
		fmt.Fprintf(e.stderr, "debate %s: %v%s\nRun \"debate help %s\" for usage.\n", fs.Name(), err, flagHint(fs, err), fs.Name())
		return true, exitUsage
	}
	return false, 0
}

// helpText lays a command's help out as USAGE / FLAGS / EXAMPLES / EXIT CODES.
func helpText(fs *pflag.FlagSet, usage, about, examples, exits string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nUSAGE\n  %s\n\nFLAGS\n%s", about, usage, fs.FlagUsagesWrapped(helpWidth))
	if examples != "" {
		fmt.Fprintf(&b, "\nEXAMPLES\n%s", examples)
	}
	if exits != "" {
		fmt.Fprintf(&b, "\nEXIT CODES\n%s", exits)
	}
	return b.String()
}
