package main

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/textwidth"
)

func TestWrapHelp(t *testing.T) {
	tests := []struct {
		name, in, want string
		width          int
	}{{
		name: "lines that fit stay as they are",
		in:   "ABOUT\n  two  spaces   kept\nEXAMPLES\n  debate run -c x.jsonc",
		want: "ABOUT\n  two  spaces   kept\nEXAMPLES\n  debate run -c x.jsonc",
	}, {
		name: "prose is refilled with the lines that continue it",
		in:   "one two three four five six\nseven eight\n\nnine",
		want: "one two three four five\nsix seven eight\n\nnine",
	}, {
		name: "a definition goes on under its meaning",
		in:   "CODES\n  130  interrupted by Ctrl-C: reports\n       written",
		want: "CODES\n  130  interrupted by\n       Ctrl-C: reports\n       written",
	}, {
		name: "an example breaks before a flag, outside quotes, with a backslash",
		in:   "EXAMPLES\n  debate submit --id \"$id\" --content 'a b c d'",
		want: "EXAMPLES\n  debate submit --id \"$id\" \\\n      --content 'a b c d'", width: 30,
	}, {
		name: "a comment stays a comment",
		in:   "EXAMPLES\n  # one two three four five six",
		want: "EXAMPLES\n  # one two three four\n  # five six",
	}, {
		name: "a synopsis goes on under the command's arguments, outside brackets",
		in:   "USAGE\n  debate run --config <f> [--topic <id>]... [--x | --y]",
		want: "USAGE\n  debate run --config <f>\n             [--topic <id>]...\n             [--x | --y]", width: 30,
	}, {
		name: "a synopsis goes on where its own next line does",
		in:   "USAGE\n  debate bench tree [--topics N] [--depth N]\n        [--json]",
		want: "USAGE\n  debate bench tree [--topics N]\n        [--depth N]\n        [--json]", width: 32,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			width := cmp.Or(tt.width, 24)
			if got := wrapHelp(tt.in, width); got != tt.want {
				t.Errorf("wrapHelp at %d columns:\n%s\nwant:\n%s", width, got, tt.want)
			}
		})
	}
}

// FuzzWrapHelp: wrapping loses no word and leaves no line wider than the
// width unless it holds a single word (or flag and value) too long for it.
func FuzzWrapHelp(f *testing.F) {
	f.Add("Run the debates of a config: for every topic, the debaters argue.\n\nUSAGE\n  debate run --config <file> [--topic <id>]...\n\nEXAMPLES\n  # a comment that is long enough to wrap somewhere\n  debate run -c 'a b c' --topic x --output out/")
	f.Add("CODES\n  0    every topic finished: converged, or verdicts forced\n       at the round limit")
	f.Fuzz(func(t *testing.T, in string) {
		// Quotes keep words together in commands: TestWrapHelp covers them.
		if strings.ContainsAny(in, "\\#\t\r\"'") {
			t.Skip()
		}
		const width = 30
		out := wrapHelp(in, width)
		words := func(s string) string {
			return strings.Join(strings.Fields(strings.NewReplacer("\\\n", " ").Replace(s)), " ")
		}
		if words(out) != words(in) {
			t.Fatalf("words changed:\n%q\n%q", in, out)
		}
		for _, line := range strings.Split(out, "\n") {
			fields := strings.Fields(strings.TrimSuffix(line, " \\"))
			long := slices.ContainsFunc(fields, func(f string) bool { return textwidth.String(f) > width/2 })
			if textwidth.String(line) > width && len(fields) > 3 && !long {
				t.Errorf("line %q wider than %d columns", line, width)
			}
		}
	})
}
