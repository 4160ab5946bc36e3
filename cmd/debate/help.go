package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// helpWidth is the most columns a line of help may take: the width of most
// terminals. Help texts are written within it; only the flags' lines are
// laid out at run time, by pflag.
const helpWidth = 80

// help is a command's help text. Every command's help has one layout: what
// the command does, then USAGE, FLAGS (or COMMANDS for a group), the
// command's own sections, EXAMPLES, EXIT CODES and ENVIRONMENT, each when the
// command has it. Bodies are indented by two spaces and end with a newline.
type help struct {
	about    string
	usage    string
	sections []section
	examples string
	exits    string
	environ  string
}

// section is a titled part of a help text.
type section struct{ title, body string }

// helpText lays c's help out; fs is its flag set (nil for a group).
func (c *command) helpText(fs *pflag.FlagSet) string {
	h := c.help
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", strings.TrimRight(h.about, "\n"))
	parts := []section{{"USAGE", h.usage}}
	switch {
	case c.subs != nil:
		parts = append(parts, section{"COMMANDS", commandList(c.subs)})
	case fs != nil && fs.HasAvailableFlags():
		parts = append(parts, section{"FLAGS", fs.FlagUsagesWrapped(helpWidth)})
	case fs != nil:
		parts = append(parts, section{"FLAGS", "  none\n"})
	}
	parts = append(parts, h.sections...)
	parts = append(parts, section{"EXAMPLES", h.examples}, section{"EXIT CODES", h.exits}, section{"ENVIRONMENT", h.environ})
	for _, p := range parts {
		if p.body != "" {
			fmt.Fprintf(&b, "\n%s\n%s", p.title, p.body)
		}
	}
	return b.String()
}

// commandList lists the subcommands cmds, one a line under its full name.
func commandList(cmds []*command) string {
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "  debate %-*s  %s\n", width, c.name, c.summary)
	}
	return b.String()
}
