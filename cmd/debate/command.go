package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/configs"
)

// command is one command of debate, in the one shape every command has: its
// options (flags and arguments) are parsed on their own, then run, and the
// error run returns is turned into a message and an exit code by e.exit
// alone. A command with subcommands ("debate docs create") has subs and no
// options.
type command struct {
	name    string // as typed after "debate": "run", "docs create"
	summary string // one line for the list of commands
	help    help
	// agent marks the commands that answer in JSON, failures included.
	agent bool
	// options returns the command's options, zero; nil for a group of
	// subcommands.
	options func() options
	// subs are the subcommands of a group; noun names one in errors
	// ("benchmark").
	subs []*command
	noun string
}

// options are a command's flags and arguments and what it does with them.
type options interface {
	// flags binds the command's flags to the options.
	flags(fs *pflag.FlagSet)
	// args takes what parsing leaves (positional arguments, which flags
	// were given) and checks the command line before anything runs.
	args(fs *pflag.FlagSet) error
	// run carries the command out.
	run(e *env) error
}

// noArgs is the args of a command that takes flags only.
type noArgs struct{}

func (noArgs) args(fs *pflag.FlagSet) error { return onlyFlags(fs) }

// onlyFlags refuses positional arguments.
func onlyFlags(fs *pflag.FlagSet) error {
	switch {
	case fs.NArg() > 0 && fs.Lookup("config") != nil:
		return usagef("unexpected argument %q (flags only; did you mean --config %s?)", fs.Arg(0), fs.Arg(0))
	case fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// flagSet returns the command's flag set, quiet: errors and help are the
// caller's to print.
func (c *command) flagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.Usage = func() {}
	return fs
}

// plainBool shows a boolean flag in help as "--dry-run", as a switch is
// written: pflag v1.1.0 prints every boolean as "--dry-run[=true|false]".
// Hiding IsBoolFlag keeps its parsing: NoOptDefVal "true" still lets the
// flag stand alone, and --dry-run=false still works.
func plainBool(f *pflag.Flag) {
	if f.Value.Type() == "bool" && f.NoOptDefVal == "true" {
		f.Value = switchValue{f.Value}
	}
}

// switchValue is a boolean flag's value without IsBoolFlag.
type switchValue struct{ pflag.Value }

// parse fills fresh options of c from args without running anything. It
// returns pflag.ErrHelp for -h and --help, and a usageError for a bad
// command line.
func (c *command) parse(args []string) (options, *pflag.FlagSet, error) {
	o := c.options()
	fs := c.flagSet()
	o.flags(fs)
	fs.VisitAll(plainBool)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return o, fs, err
		}
		return o, fs, usageError{fmt.Errorf("%w%s", err, flagHint(fs, err))}
	}
	return o, fs, o.args(fs)
}

// execute parses args into c's options and runs them, and returns the exit
// code.
func (e *env) execute(c *command, args []string) int {
	if c.subs != nil {
		return e.executeGroup(c, args)
	}
	o, fs, err := c.parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(e.stdout, c.helpText(fs))
		return exitOK
	}
	if err == nil {
		err = o.run(e)
	}
	return e.exit(c, err)
}

// executeGroup runs the subcommand of c that args name. Without one it
// shows c's help: as an answer on stdout for a group of agent commands,
// whose callers read stdout; as a usage error like "debate" alone for the
// others.
func (e *env) executeGroup(c *command, args []string) int {
	if len(args) == 0 && !c.agent {
		fmt.Fprint(e.stderr, c.helpText(nil))
		return exitUsage
	}
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprint(e.stdout, c.helpText(nil))
		return exitOK
	}
	if sub := find(c.subs, c.name+" "+args[0]); sub != nil {
		return e.execute(sub, args[1:])
	}
	return e.unknown(c, args[0])
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

// find returns the command of cmds called name, or nil.
func find(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.name == name {
			return c
		}
	}
	return nil
}

// nearest returns the command of cmds, all named prefix + one word, whose
// last word is nearest to a misspelt name, or nil when none is near.
func nearest(cmds []*command, prefix, name string) *command {
	near, ok := configs.Closest(name, names(cmds))
	if !ok {
		return nil
	}
	return find(cmds, prefix+near)
}

// names returns the last words of the commands' names.
func names(cmds []*command) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.name[strings.LastIndex(c.name, " ")+1:])
	}
	return out
}
