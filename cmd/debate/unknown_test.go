package main

import (
	"strings"
	"testing"
)

// TestUnknownCommand: a mistyped agent command is answered as agent
// commands answer (JSON, exit 3) naming the command meant; any other
// mistyped command gets the same hint on stderr with exit 2.
func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	agents := []struct {
		args []string
		near string
	}{
		{[]string{"sumbit", "--debate-id", "d1"}, "debate submit"},
		{[]string{"wiat"}, "debate wait"},
		{[]string{"get-contxt"}, "debate get-context"},
		{[]string{"request-completon"}, "debate request-completion"},
		{[]string{"docs", "creat", "--content", "x"}, "debate docs create"},
	}
	for _, tt := range agents {
		t.Run(tt.args[0], func(t *testing.T) {
			t.Parallel()
			a := call{}.run(t, tt.args...)
			a.wantError(t, exitInvalid, "INVALID_INPUT")
			if !strings.Contains(a.str("error", "message"), "did you mean \""+tt.near+"\"") ||
				!strings.Contains(a.str("error", "suggestion"), tt.near+" --help") {
				t.Errorf("no hint of %q:\n%s", tt.near, a.stdout)
			}
		})
	}
	others := []struct {
		arg, want string
	}{
		{"serv", `did you mean "serve"?`},
		{"gudie", `did you mean "guide"?`},
		{"frobnicate", "USAGE"},
	}
	for _, tt := range others {
		t.Run(tt.arg, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, tt.arg)
			if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", r.code, r.stdout, r.stderr, exitUsage, tt.want)
			}
		})
	}
}
