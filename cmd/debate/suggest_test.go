package main

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// suggested returns the first command in backquotes in a refusal's
// suggestion that runs sub, without its content placeholder, split into words.
func suggested(t *testing.T, a answer, sub string) []string {
	t.Helper()
	s := a.str("error", "suggestion")
	_, cmd, ok := strings.Cut(s, "`debate "+sub+" ")
	cmd, _, _ = strings.Cut(cmd, "`")
	cmd = sub + " " + cmd
	if !ok {
		t.Fatalf("suggestion %q shows no command", s)
	}
	words, err := shellWords(strings.TrimSuffix(cmd, " "+protocol.Content))
	if err != nil {
		t.Fatalf("suggested command %q: %v", cmd, err)
	}
	return words
}

// TestRefusalsLeadOn plays, through the agent commands, the debate that
// branched when an agent followed a refusal: after RULING #4 and the
// proposer's aligned CLAIM #5 the opponent answers the MOTION. The refusal
// names #5, the command it shows is accepted as #6 answering #5, and no
// argument is answered twice. An opponent that runs debate appeal is told what
// it, the opponent, must do.
func TestRefusalsLeadOn(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	id := c.run(t, "generate-id").mustOK(t).str("id")
	motion := c.run(t, "create", "--debate-id", id, "--title", "Cache", "--type", "general_debate", "--content", "Add a cache.").mustOK(t).str("argument_id")
	prev := motion
	for _, args := range [][]string{
		{"submit", "--role", "opponent", "--content", "Too complex."},
		{"appeal", "--content", "Cache or not?"},
		{"ruling", "--content", "Cache, with a TTL."},
		{"submit", "--role", "proposer", "--content", "Aligned: TTL added."},
	} {
		args = append(args, "--debate-id", id)
		if args[0] != "ruling" {
			args = append(args, "--target-id", prev)
		}
		prev = c.run(t, args...).mustOK(t).str("argument_id")
	}

	appeal := c.run(t, "appeal", "--debate-id", id, "--target-id", prev, "--content", "Please decide.")
	appeal.wantError(t, exitNotAllowed, "ACTION_NOT_ALLOWED")
	if msg := appeal.str("error", "message"); !strings.Contains(msg, "an opponent never submits APPEAL") {
		t.Errorf("an opponent's appeal is refused with %q, which does not speak to the opponent", msg)
	}
	if got := suggested(t, appeal, "submit"); !strings.Contains(strings.Join(got, " "), "submit --debate-id "+id+" --role opponent --target-id "+prev) {
		t.Errorf("an opponent's appeal is told to run %q, want the opponent's answer to #5", got)
	}

	late := c.run(t, "submit", "--debate-id", id, "--role", "opponent", "--target-id", motion, "--content", "Late answer.")
	late.wantError(t, exitNotAllowed, "ACTION_NOT_ALLOWED")
	if s := late.str("error", "suggestion"); !strings.Contains(s, "#5") {
		t.Fatalf("suggestion %q does not name #5", s)
	}
	follow := append(suggested(t, late, "submit"), "--content", "Late answer.")
	got := c.run(t, follow...).mustOK(t)
	if got.get("seq") != float64(6) || got.str("argument", "parent_id") != prev {
		t.Fatalf("following %q: %s, want #6 answering #5", follow, got.stdout)
	}

	ctx := c.run(t, "get-context", "--debate-id", id).mustOK(t)
	answered := map[string]int{}
	for _, a := range ctx.get("arguments").([]any) {
		answered[a.(map[string]any)["parent_id"].(string)]++
	}
	for parent, n := range answered {
		if n > 1 {
			t.Errorf("argument %s is answered %d times: the debate branches\n%s", parent, n, ctx.stdout)
		}
	}
}
