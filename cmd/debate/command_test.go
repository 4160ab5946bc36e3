package main

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestParseFillsOptions: a command line is parsed into the command's
// options without running anything, and a bad one is refused as a usage
// error before it runs.
func TestParseFillsOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args  []string
		check func(o options) bool
		usage bool
	}{
		{args: []string{"run", "-c", "x.jsonc", "--topic", "a,b", "--max-rounds", "2", "--shard", "2/3"}, check: func(o options) bool {
			r := o.(*runOptions)
			return r.config == "x.jsonc" && slices.Equal(r.topics, []string{"a", "b"}) && r.maxRoundsSet && !r.concurrencySet &&
				r.slice != nil && r.slice.Index == 2 && r.slice.Count == 3
		}},
		{args: []string{"run", "--shard", "4/3"}, usage: true},
		{args: []string{"run", "stray.jsonc"}, usage: true},
		{args: []string{"merge", "a", "b", "--output", "/nonexistent/out"}, check: func(o options) bool {
			m := o.(*mergeOptions)
			return slices.Equal(m.dirs, []string{"a", "b"}) && m.output == "/nonexistent/out"
		}},
		{args: []string{"wait", "--debate-id", "d", "--role", "opponent", "--deadline", "5s"}, check: func(o options) bool {
			w := o.(*waitOptions)
			return w.w.DebateID == "d" && w.w.Role == "opponent" && w.deadline == 5*time.Second && w.deadlineSet
		}},
		{args: []string{"wait", "--debate-id", "d", "--role", "judge"}, usage: true},
		{args: []string{"submit", "--debate-id", "d", "--role", "proposer", "--target-id", "a", "--stdin"}, check: func(o options) bool {
			w := o.(*writeOptions)
			return w.w.DebateID == "d" && w.w.Role == "proposer" && w.w.TargetID == "a" && slices.Equal(w.given, []string{"--stdin"})
		}},
		{args: []string{"docs", "get", "doc-1", "--version", "2"}, check: func(o options) bool {
			d := o.(*docsGetOptions)
			return d.docID == "doc-1" && d.version == 2
		}},
		{args: []string{"serve", "--detach", "--stop"}, usage: true},
		{args: []string{"guide", "install"}, usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			t.Parallel()
			c, rest := lookup(t, tt.args)
			o, _, err := c.parse(rest)
			switch {
			case tt.usage && !errors.As(err, new(usageError)):
				t.Errorf("parse(%q) = %v, want a usage error", tt.args, err)
			case !tt.usage && err != nil:
				t.Errorf("parse(%q): %v", tt.args, err)
			case !tt.usage && !tt.check(o):
				t.Errorf("parse(%q) = %+v", tt.args, o)
			}
		})
	}
}

// lookup finds the command args name and returns it with the rest of args.
func lookup(t *testing.T, args []string) (*command, []string) {
	t.Helper()
	c := find(commands(), args[0])
	args = args[1:]
	for c != nil && c.subs != nil {
		c, args = find(c.subs, c.name+" "+args[0]), args[1:]
	}
	if c == nil {
		t.Fatalf("no command %q", args)
	}
	return c, args
}

// TestEveryCommandHasTheShape: every command, subcommands included, has a
// summary, a usage and exit codes in its help, and options whose flags bind
// to a fresh flag set.
func TestEveryCommandHasTheShape(t *testing.T) {
	t.Parallel()
	for _, top := range commands() {
		for _, c := range append([]*command{top}, top.subs...) {
			if c.summary == "" || c.help.about == "" || c.help.usage == "" {
				t.Errorf("%s: summary, about or usage missing", c.name)
			}
			if c.subs != nil {
				continue
			}
			if c.help.exits == "" {
				t.Errorf("%s: help has no EXIT CODES", c.name)
			}
			_, fs, err := c.parse([]string{"--help"})
			if !errors.Is(err, pflag.ErrHelp) || fs == nil {
				t.Errorf("%s --help: parse = %v, want pflag.ErrHelp", c.name, err)
			}
		}
	}
}
