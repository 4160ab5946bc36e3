package main

import (
	"context"

	"github.com/google/uuid"
	"github.com/spf13/pflag"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
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

// writeOut is the answer of every argument write: the ids and the state an
// agent needs first, the command to wait for the answer, and then the
// server's data as it sent it.
type writeOut struct {
	head
	DebateID         string              `json:"debate_id"`
	ArgumentID       string              `json:"argument_id"`
	Seq              int                 `json:"seq"`
	Type             string              `json:"type"`
	Role             string              `json:"role"`
	State            string              `json:"state"`
	Replay           bool                `json:"replay"`
	ClientRequestID  string              `json:"client_request_id"`
	AvailableActions map[string][]string `json:"available_actions"`
	// WaitCommand waits for the next argument after this one, as its role;
	// absent once the debate is closed.
	WaitCommand string        `json:"wait_command,omitempty"`
	Debate      api.Debate    `json:"debate"`
	Argument    api.Argument  `json:"argument"`
	AutoRuling  *api.Argument `json:"auto_ruling,omitempty"`
}

func writeOutput(s conn, r api.WriteResult) writeOut {
	out := writeOut{head: success, DebateID: r.Debate.ID, ArgumentID: r.Argument.ID, Seq: r.Argument.Seq,
		Type: r.Argument.Type, Role: r.Argument.Role, State: r.Debate.State, Replay: r.Replay,
		ClientRequestID: r.Argument.ClientRequestID, AvailableActions: api.AllActions(protocol.State(r.Debate.State)),
		Debate: r.Debate, Argument: r.Argument, AutoRuling: r.AutoRuling}
	if r.Debate.State != string(protocol.Closed) {
		out.WaitCommand = s.command("wait", "--debate-id", r.Debate.ID, "--role", r.Argument.Role, "--argument-id", r.Argument.ID)
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
	if err := require("title", o.title, ""); err != nil {
		return err
	}
	if err := require("type", o.typ, "general_debate or coding_plan_debate"); err != nil {
		return err
	}
	if _, err := protocol.ParseDebateType(o.typ); err != nil {
		return usagef("--type %q: want general_debate or coding_plan_debate", o.typ)
	}
	return nil
}

func (o *createOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		content, _, err := o.readContent(e)
		if err != nil {
			return nil, err
		}
		r, err := s.client.CreateDebate(ctx, api.CreateDebateRequest{DebateID: o.debateID, Title: o.title, DebateType: o.typ,
			MotionContent: content, ClientRequestID: o.requestID})
		if err != nil {
			return nil, err
		}
		return writeOutput(s, r), nil
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
	send                                  func(ctx context.Context, c *client.Client, debateID string, w write) (api.WriteResult, error)
}

// write is what the command line gave a writing command.
type write struct {
	role, target, content, requestID string
	close                            bool
}

// writeOptions are the flags of an argument-writing command.
type writeOptions struct {
	agent
	spec     writeSpec
	debateID string
	w        write
}

// writeCommand returns the argument-writing command s describes.
func writeCommand(s writeSpec) *command {
	return agentCommand(s.name, s.summary, s.usage, s.about, s.examples, true, func() options {
		return &writeOptions{spec: s, agent: agent{name: s.name, remote: true, what: s.what,
			contentOptional: s.optional, idempotent: true}}
	})
}

func (o *writeOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.debateID, "debate-id", "", "id of the debate")
	if o.spec.role {
		fs.StringVar(&o.w.role, "role", "", "your role: proposer or opponent")
	}
	if o.spec.target {
		fs.StringVar(&o.w.target, "target-id", "", "id of the argument you answer (argument_id of the wait or write before)")
	}
	if o.spec.close {
		fs.BoolVar(&o.w.close, "close", false, "close the debate with this ruling")
	}
	o.agent.flags(fs)
}

func (o *writeOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	if err := require("debate-id", o.debateID, ""); err != nil {
		return err
	}
	if o.spec.role {
		if err := require("role", o.w.role, "proposer or opponent"); err != nil {
			return err
		}
		if o.w.role != string(protocol.Proposer) && o.w.role != string(protocol.Opponent) {
			return usagef("--role %q: want proposer or opponent (the arbitrator uses ruling and intervention)", o.w.role)
		}
	}
	if o.spec.target {
		return require("target-id", o.w.target, "the argument_id you answer")
	}
	return nil
}

func (o *writeOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, c conn) (any, error) {
		var err error
		if o.w.content, _, err = o.readContent(e); err != nil {
			return nil, err
		}
		o.w.requestID = o.requestID
		r, err := o.spec.send(ctx, c.client, o.debateID, o.w)
		if err != nil {
			return nil, err
		}
		return writeOutput(c, r), nil
	})
}

func argument(w write) api.ArgumentRequest {
	return api.ArgumentRequest{Role: w.role, TargetID: w.target, Content: w.content, ClientRequestID: w.requestID}
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
		send: func(ctx context.Context, c *client.Client, id string, w write) (api.WriteResult, error) {
			return c.Submit(ctx, id, argument(w))
		},
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
		send: func(ctx context.Context, c *client.Client, id string, w write) (api.WriteResult, error) {
			return c.Appeal(ctx, id, argument(w))
		},
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
		send: func(ctx context.Context, c *client.Client, id string, w write) (api.WriteResult, error) {
			return c.Resolution(ctx, id, argument(w))
		},
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
		send: func(ctx context.Context, c *client.Client, id string, w write) (api.WriteResult, error) {
			return c.Ruling(ctx, id, api.RulingRequest{Content: w.content, Close: w.close, ClientRequestID: w.requestID})
		},
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
		send: func(ctx context.Context, c *client.Client, id string, w write) (api.WriteResult, error) {
			return c.Intervention(ctx, id, api.InterventionRequest{Content: w.content, ClientRequestID: w.requestID})
		},
	})
}

// contextOut is the answer of get-context.
type contextOut struct {
	head
	DebateID string `json:"debate_id"`
	State    string `json:"state"`
	// LastArgumentID is the newest argument shown: what to answer or to
	// wait after.
	LastArgumentID   string              `json:"last_argument_id"`
	AvailableActions map[string][]string `json:"available_actions"`
	Debate           api.Debate          `json:"debate"`
	Motion           *api.Argument       `json:"motion"`
	Arguments        []api.Argument      `json:"arguments"`
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
	r, err := s.client.GetDebate(ctx, o.debateID, o.limit)
	if err != nil {
		return nil, err
	}
	out := contextOut{head: success, DebateID: r.Debate.ID, State: r.Debate.State, AvailableActions: r.AvailableActions,
		Debate: r.Debate, Motion: r.Motion, Arguments: r.Arguments}
	if out.Arguments == nil {
		out.Arguments = []api.Argument{}
	}
	if out.AvailableActions == nil {
		out.AvailableActions = api.AllActions(protocol.State(r.Debate.State))
	}
	switch {
	case len(r.Arguments) > 0:
		out.LastArgumentID = r.Arguments[len(r.Arguments)-1].ID
	case r.Motion != nil:
		out.LastArgumentID = r.Motion.ID
	}
	return out, nil
}

// listOut is the answer of list.
type listOut struct {
	head
	Debates []api.Debate `json:"debates"`
	Total   int          `json:"total"`
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
	if o.State != "" {
		if _, err := protocol.ParseState(o.State); err != nil {
			return usagef("--state %q: want one of AWAITING_OPPONENT, AWAITING_PROPOSER, AWAITING_ARBITRATOR, INTERVENTION_PENDING, CLOSED", o.State)
		}
	}
	if o.Limit < 0 || o.Offset < 0 {
		return usagef("--limit and --offset must be 0 or more (got %d and %d)", o.Limit, o.Offset)
	}
	return nil
}

func (o *listOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		r, err := s.client.ListDebates(ctx, o.ListOptions)
		if err != nil {
			return nil, err
		}
		if r.Debates == nil {
			r.Debates = []api.Debate{}
		}
		return listOut{success, r.Debates, r.Total}, nil
	})
}
