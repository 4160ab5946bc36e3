package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// Statuses of a wait.
const (
	waitNew     = "new_argument"  // an argument after --argument-id arrived
	waitClosed  = "debate_closed" // the debate is closed
	waitTimeout = "timeout"       // nothing new before the deadline
)

const (
	defaultDeadline = 120 * time.Second
)

// waitOut is the answer of wait.
type waitOut struct {
	head
	// Status is new_argument, debate_closed or timeout.
	Status         string `json:"status"`
	HasNewArgument bool   `json:"has_new_argument"`
	// Action is what the waiting role should do: respond, wait_for_ruling,
	// align_to_ruling, wait_for_proposer, wait_for_opponent or debate_closed.
	Action      string `json:"action,omitempty"`
	DebateID    string `json:"debate_id"`
	Role        string `json:"role"`
	DebateState string `json:"debate_state"`
	LastSeenSeq int    `json:"last_seen_seq"`
	// ArgumentID is the id of Argument: the --target-id of an answer and the
	// --argument-id of the next wait.
	ArgumentID string        `json:"argument_id,omitempty"`
	Argument   *api.Argument `json:"argument,omitempty"`
	// Arguments are every argument after --argument-id, oldest first, so
	// that a CLAIM followed by an INTERVENTION and a RULING is not missed.
	Arguments        []api.Argument `json:"arguments"`
	AvailableActions []string       `json:"available_actions"`
	Message          string         `json:"message,omitempty"`
	// RetryCommand, on a timeout, is the command that keeps waiting.
	RetryCommand string `json:"retry_command,omitempty"`
}

// waitOptions are the flags of wait.
type waitOptions struct {
	agent
	debateID, role, after string
	deadline              time.Duration
	deadlineSet           bool
}

func waitCommand() *command {
	return agentCommand("wait", "wait for the next argument and what to do about it",
		`  debate wait --debate-id <id> --role <proposer|opponent|arbitrator>
              [--argument-id <arg>] [--deadline 120s]
`,
		`Wait for the next argument after --argument-id (usually the one you just
submitted) and print it with action, what your role should do now: respond
(answer it with --target-id argument_id), wait_for_ruling, align_to_ruling,
wait_for_proposer, wait_for_opponent or debate_closed (stop). arguments lists
every argument after --argument-id, oldest first: a CLAIM that an INTERVENTION
and a RULING followed is among them. available_actions lists what your role may
submit now.

The server holds each request until an argument is committed (up to 60 s;
requests repeat until --deadline), so the answer comes within milliseconds. At
the deadline wait prints {"status":"timeout", …, "retry_command":"debate wait
…"} and exits 0: a timeout is normal in a long debate; run retry_command to keep
waiting. A server that restarts meanwhile (connection refused, 502, 503) is
waited for until the deadline. Ctrl-C stops it (exit 130).`,
		`  debate wait --debate-id "$id" --role opponent --argument-id "$arg"
  debate wait --debate-id "$id" --role proposer --argument-id "$arg" \
      --deadline 10m
`, true,
		func() options { return &waitOptions{agent: agent{name: "wait", remote: true, longPoll: true}} })
}

func (o *waitOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.debateID, "debate-id", "", "id of the debate")
	fs.StringVar(&o.role, "role", "", "your role: proposer, opponent or arbitrator")
	fs.StringVar(&o.after, "argument-id", "", "wait for an argument after this one (default: answer with the newest)")
	fs.DurationVar(&o.deadline, "deadline", defaultDeadline, "give up after this long and print status \"timeout\" with retry_command")
	o.agent.flags(fs)
}

func (o *waitOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	o.deadlineSet = fs.Changed("deadline")
	if err := require("debate-id", o.debateID, ""); err != nil {
		return err
	}
	if err := require("role", o.role, "proposer, opponent or arbitrator"); err != nil {
		return err
	}
	if _, err := protocol.ParseRole(o.role); err != nil {
		return usagef("--role %q: want proposer, opponent or arbitrator", o.role)
	}
	if o.deadline <= 0 {
		return usagef("--deadline must be positive (got %s)", o.deadline)
	}
	return nil
}

func (o *waitOptions) run(e *env) error {
	return o.call(e, o.answer)
}

// answer waits and tells what came.
func (o *waitOptions) answer(ctx context.Context, s conn) (any, error) {
	flags := []string{"--debate-id", o.debateID, "--role", o.role, "--argument-id", o.after}
	if o.deadlineSet {
		flags = append(flags, "--deadline", o.deadline.String())
	}
	retry := s.command("wait", flags...)
	res, err := o.wait(ctx, s.client, o.srv.timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, interruptedError{err, retry}
		}
		return nil, err
	}
	out := waitOut{head: success, HasNewArgument: res.HasNewArgument, Action: res.Action, DebateID: o.debateID,
		Role: o.role, DebateState: res.DebateState, LastSeenSeq: res.LastSeenSeq, Argument: res.Argument,
		Arguments: res.Arguments, AvailableActions: res.AvailableActions}
	if out.Arguments == nil {
		out.Arguments = []api.Argument{}
	}
	if out.AvailableActions == nil {
		out.AvailableActions = api.Actions(protocol.State(res.DebateState), protocol.Role(o.role))
	}
	if res.Argument != nil {
		out.ArgumentID = res.Argument.ID
	}
	switch {
	case res.Action == string(protocol.DebateClosed):
		out.Status = waitClosed
	case res.HasNewArgument:
		out.Status = waitNew
	default:
		out.Status = waitTimeout
		out.Message = fmt.Sprintf("nothing new within %s; this is normal, run retry_command to keep waiting", o.deadline)
		out.RetryCommand = retry
	}
	return out, nil
}

// wait polls until an answer with something to act on, or until the
// deadline; the client rides out a server that restarts meanwhile. timeout
// bounds one request beyond the time the server holds it.
func (o *waitOptions) wait(ctx context.Context, c *client.Client, timeout time.Duration) (api.PollResult, error) {
	return c.Wait(ctx, o.debateID, o.role, o.after, client.WaitOptions{
		Deadline: time.Now().Add(o.deadline), MaxHold: server.MaxWait, Slack: timeout})
}
