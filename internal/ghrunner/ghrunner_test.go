package ghrunner

import (
	"fmt"
	"testing"
)

// TestCommands: the checker reads a log as the runner does.
func TestCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, log string
		want      []string // name:data of each command, in order
	}{
		{"plain text", "hello\n:: not a command\n##[ no name]\n", nil},
		{"at a line's start", "::error::x\n", []string{"error:x"}},
		{"after white space", " \t\u00a0::warning::x\n", []string{"warning:x"}},
		{"not after other text", "a ::error::x\n", nil},
		{"any case", "::ERROR::x\n", []string{"ERROR:x"}},
		{"unknown name", "::nope::x\n", nil},
		{"legacy anywhere", "text ##[add-mask]secret\n", []string{"add-mask:secret"}},
		{"lines split at CR", "a\r::error::x", []string{"error:x"}},
		{"data unescaped", "::error::a%0Ab%25c\n", []string{"error:a\nb%c"}},
		{"stopped until the token", "::stop-commands::tok\n::error::hidden\n##[warning]hidden\n::tok::\n::error::shown\n",
			[]string{"stop-commands:tok", "tok:", "error:shown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, c := range Commands(tt.log) {
				got = append(got, c.Name+":"+c.Data)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Commands(%q) = %q, want %q", tt.log, got, tt.want)
			}
		})
	}
}

// TestCommandProperties: properties are split at commas and unescaped.
func TestCommandProperties(t *testing.T) {
	t.Parallel()
	c := Commands("::error file=a%2Cb.go,line=3,title=x%3A y::m\n")
	if len(c) != 1 || c[0].Properties["file"] != "a,b.go" || c[0].Properties["line"] != "3" || c[0].Properties["title"] != "x: y" {
		t.Errorf("got %+v", c)
	}
}

// TestOutputs: name=value lines and name<<delimiter blocks; the last value
// of a name wins.
func TestOutputs(t *testing.T) {
	t.Parallel()
	got := Outputs("a=1\nb<<EOF\nx=2\ny\nEOF\na=3\n")
	if len(got) != 2 || got["a"] != "3" || got["b"] != "x=2\ny" {
		t.Errorf("got %q", got)
	}
}
