package main

import (
	"context"

	"github.com/google/uuid"
	"github.com/spf13/pflag"

	"github.com/debatehq/debate/ops"
	"github.com/debatehq/debate/server/client"
)

// idOut is the answer of generate-id.
type idOut struct {
	head
	ID string `json:"id"`
}

// idOptions are the (no) flags of generate-id.
type idOptions struct{ agent }

func generateIDCommand() *command {
	return agentCommand("generate-id", "print a fresh id for a debate or a request",
		"  debate generate-id\n",
		`Print a fresh random id (a UUID) to use as a debate id or a client request id.
Needs no server.`,
		"  debate generate-id\n  id=$(debate generate-id | jq -r .id)\n", false,
		func() options { return &idOptions{agent{name: "generate-id"}} })
}

func (o *idOptions) flags(*pflag.FlagSet) {}

func (o *idOptions) args(fs *pflag.FlagSet) error {
	_, err := o.agent.args(fs)
	return err
}

func (o *idOptions) run(e *env) error {
	return o.call(e, func(context.Context, conn) (any, error) {
		return idOut{success, uuid.NewString()}, nil
	})
}

// writeOut is the answer of every argument write: the operation's answer
// and the command that waits for the answer to it.
type writeOut struct {
	head
	ops.Written
	// WaitCommand waits for the next argument after this one, as its role;
	// absent once the debate is closed.
	WaitCommand string `json:"wait_command,omitempty"`
}

func writeOutput(s conn, w ops.Written) writeOut {
	out := writeOut{head: success, Written: w}
	if n := w.Next; n != nil {
		out.WaitCommand = s.command("wait", "--debate-id", n.DebateID, "--role", n.Role, "--argument-id", n.After)
	}
	return out
}

// createOptions are the flags of create.
type createOptions struct {
	agent
	debateID, title, typ string
}

func createCommand() *command {
	return agentCommand("create", "open a debate with its MOTION (proposer)",
		`  debate create --debate-id <id> --title <t>
                --type <general_debate|coding_plan_debate>
                {--content <s> | --file <f> | --stdin} [--client-request-id <k>]
`,
		`Open a debate with its MOTION, as the proposer. The debate then awaits the
opponent; wait for its answer with the printed wait_command. Resending the same
command (same --client-request-id) returns the debate already created.`,
		`  id=$(debate generate-id | jq -r .id)
  debate create --debate-id "$id" --title 'Cache layer' \
      --type coding_plan_debate --file plan.md
`, true,
		func() options {
			return &createOptions{agent: agent{name: "create", remote: true, what: "the MOTION", idempotent: true}}
		})
}

func (o *createOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.debateID, "debate-id", "", "id of the new debate (make one with debate generate-id)")
	fs.StringVar(&o.title, "title", "", "title of the debate")
	fs.StringVar(&o.typ, "type", "", "debate type: general_debate or coding_plan_debate")
	o.agent.flags(fs)
}

func (o *createOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	if err := require("debate-id", o.debateID, "make one with debate generate-id"); err != nil {
		return err
	}
	return flagError(o.create("").Check())
}

// create is the operation the flags describe, with content.
func (o *createOptions) create(content string) ops.Create {
	return ops.Create{DebateID: o.debateID, Title: o.title, Type: o.typ, Content: content, ClientRequestID: o.requestID}
}

func (o *createOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		content, _, err := o.readContent(e)
		if err != nil {
			return nil, err
		}
		w, err := ops.Open(ctx, s.client, o.create(content))
		if err != nil {
			return nil, err
		}
		return writeOutput(s, w), nil
	})
}

// writeSpec describes one argument-writing command besides create.
type writeSpec struct {
	name, summary, usage, about, examples string
	what                                  string // the content, for flag help
	role                                  bool   // --role proposer|opponent (submit)
	target                                bool   // --target-id is required
	close                                 bool   // --close (ruling)
	optional                              bool   // the content may be omitted (intervention)
	kind                                  ops.Kind
}

// writeOptions are the flags of an argument-writing command.
type writeOptions struct {
	agent
	spec writeSpec
	w    ops.Write
}

// writeCommand returns the argument-writing command s describes.
func writeCommand(s writeSpec) *command {
	return agentCommand(s.name, s.summary, s.usage, s.about, s.examples, true, func() options {
		return &writeOptions{spec: s, agent: agent{name: s.name, remote: true, what: s.what,
			contentOptional: s.optional, idempotent: true}, w: ops.Write{Kind: s.kind}}
	})
}

func (o *writeOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.w.DebateID, "debate-id", "", "id of the debate")
	if o.spec.role {
		fs.StringVar(&o.w.Role, "role", "", "your role: proposer or opponent")
	}
	if o.spec.target {
		fs.StringVar(&o.w.TargetID, "target-id", "", "id of the argument you answer (argument_id of the wait or write before)")
	}
	if o.spec.close {
		fs.BoolVar(&o.w.Close, "close", false, "close the debate with this ruling")
	}
	o.agent.flags(fs)
}

func (o *writeOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	return flagError(o.w.Check())
}

func (o *writeOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, c conn) (any, error) {
		var err error
		if o.w.Content, _, err = o.readContent(e); err != nil {
			return nil, err
		}
		o.w.ClientRequestID = o.requestID
		w, err := ops.Send(ctx, c.client, o.w)
		if err != nil {
			return nil, err
		}
		return writeOutput(c, w), nil
	})
}

func submitCommand() *command {
	return writeCommand(writeSpec{
		name: "submit", summary: "submit a CLAIM (proposer or opponent)",
		usage: `  debate submit --debate-id <id> --role <proposer|opponent> --target-id <arg>
                {--content <s> | --file <f> | --stdin} [--client-request-id <k>]
`,
		about: `Submit a CLAIM: the opponent answers the MOTION or the proposer's last CLAIM;
the proposer answers the opponent's CLAIM or aligns to a RULING. Keep it short
and reference long material by doc_id (debate docs create). Then wait for the
other side with the printed wait_command.`,
		what:   "the CLAIM",
		role:   true,
		target: true,
		examples: `  debate submit --debate-id "$id" --role opponent --target-id "$arg" \
      --file review.md
  echo 'Agreed; see doc 0191…' | debate submit --debate-id "$id" \
      --role proposer --target-id "$arg" --stdin
`,
		kind: ops.Claim,
	})
}

func appealCommand() *command {
	return writeCommand(writeSpec{
		name: "appeal", summary: "ask the arbitrator for a ruling (proposer)",
		usage: `  debate appeal --debate-id <id> --target-id <arg>
                {--content <s> | --file <f> | --stdin} [--client-request-id <k>]
`,
		about: `Ask the arbitrator for a RULING, as the proposer, on the argument --target-id.
Give the context and the options, the last being "something else". Both sides
then wait for the ruling.`,
		what:   "the APPEAL",
		target: true,
		examples: `  debate appeal --debate-id "$id" --target-id "$arg" \
      --content 'Option A: … Option B: … Option C: something else'
`,
		kind: ops.Appeal,
	})
}

func requestCompletionCommand() *command {
	return writeCommand(writeSpec{
		name: "request-completion", summary: "ask to finish; the debate closes at once (proposer)",
		usage: `  debate request-completion --debate-id <id> --target-id <arg>
                            {--content <s> | --file <f> | --stdin}
                            [--client-request-id <k>]
`,
		about: `Ask to finish the debate, as the proposer (a RESOLUTION). The server approves it
at once with an automatic closing RULING (auto_ruling in the answer), and the
debate is CLOSED.`,
		what:   "the RESOLUTION",
		target: true,
		examples: `  debate request-completion --debate-id "$id" --target-id "$arg" \
      --content 'All issues resolved; final plan in doc 0191…'
`,
		kind: ops.Resolution,
	})
}

func rulingCommand() *command {
	return writeCommand(writeSpec{
		name: "ruling", summary: "rule, --close to end the debate (arbitrator)",
		usage: `  debate ruling --debate-id <id> {--content <s> | --file <f> | --stdin}
                [--close] [--client-request-id <k>]
`,
		about: `Rule, as the arbitrator, on an APPEAL, a RESOLUTION or your INTERVENTION.
Without --close the floor returns to the proposer; with --close the debate is
CLOSED.`,
		what:  "the RULING",
		close: true,
		examples: `  debate ruling --debate-id "$id" --content 'Take option B.'
  debate ruling --debate-id "$id" --content 'Done.' --close
`,
		kind: ops.Ruling,
	})
}

func interventionCommand() *command {
	return writeCommand(writeSpec{
		name: "intervention", summary: "stop the floor until your ruling (arbitrator)",
		usage: `  debate intervention --debate-id <id> [{--content <s> | --file <f> | --stdin}]
                      [--client-request-id <k>]
`,
		about: `Stop the floor, as the arbitrator, while the proposer or the opponent is
awaited. Both sides then wait for your RULING. The content is optional.`,
		what:     "the INTERVENTION",
		optional: true,
		examples: `  debate intervention --debate-id "$id"
  debate intervention --debate-id "$id" \
      --content 'Stop: the plan ignores the migration.'
`,
		kind: ops.Intervention,
	})
}

// contextOut is the answer of get-context.
type contextOut struct {
	head
	ops.Context
}

// contextOptions are the flags of get-context.
type contextOptions struct {
	agent
	debateID string
	// limit is how many arguments to show; negative shows every one.
	limit int
}

func getContextCommand() *command {
	return agentCommand("get-context", "show a debate, its arguments and what each role may do",
		"  debate get-context --debate-id <id> [--limit <n>]\n",
		`Show a debate: its state, its MOTION, its arguments oldest first (each with seq,
role, type and parent_id), and available_actions: what each role (proposer,
opponent, arbitrator) may submit now. Use it to pick a debate up again.`,
		`  debate get-context --debate-id "$id"
  debate get-context --debate-id "$id" --limit 5 | jq '.arguments[-1]'
`, true,
		func() options { return &contextOptions{agent: agent{name: "get-context", remote: true}} })
}

func (o *contextOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.debateID, "debate-id", "", "id of the debate")
	fs.IntVar(&o.limit, "limit", 0, "show only the last n arguments after the MOTION (default: all)")
	o.agent.flags(fs)
}

func (o *contextOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	if !fs.Changed("limit") {
		o.limit = -1
	} else if o.limit < 0 {
		return usagef("--limit must be 0 or more (got %d)", o.limit)
	}
	return require("debate-id", o.debateID, "")
}

// run shows the debate.
func (o *contextOptions) run(e *env) error {
	return o.call(e, o.show)
}

func (o *contextOptions) show(ctx context.Context, s conn) (any, error) {
	c, err := ops.Read(ctx, s.client, o.debateID, o.limit)
	if err != nil {
		return nil, err
	}
	return contextOut{success, c}, nil
}

// listOut is the answer of list.
type listOut struct {
	head
	ops.Listing
}

// listOptions are the flags of list.
type listOptions struct {
	agent
	client.ListOptions
}

func listCommand() *command {
	return agentCommand("list", "list debates",
		"  debate list [--state <s>] [--pending-first-opponent] [--limit n] [--offset n]\n",
		"List debates, last updated first, with the total that match.",
		`  debate list --state AWAITING_ARBITRATOR
  debate list --pending-first-opponent --limit 1 | jq -r '.debates[0].id'
`, true,
		func() options { return &listOptions{agent: agent{name: "list", remote: true}} })
}

func (o *listOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.State, "state", "", "only debates in this state (AWAITING_OPPONENT, AWAITING_PROPOSER, AWAITING_ARBITRATOR, INTERVENTION_PENDING, CLOSED)")
	fs.BoolVar(&o.PendingFirstOpponent, "pending-first-opponent", false, "only debates whose MOTION the opponent has not answered yet")
	fs.IntVar(&o.Limit, "limit", 0, "at most n debates (default: the server's)")
	fs.IntVar(&o.Offset, "offset", 0, "skip the first n debates")
	o.agent.flags(fs)
}

func (o *listOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	return flagError(ops.CheckList(o.ListOptions))
}

func (o *listOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		l, err := ops.List(ctx, s.client, o.ListOptions)
		if err != nil {
			return nil, err
		}
		return listOut{success, l}, nil
	})
}
