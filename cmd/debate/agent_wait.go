package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/ops"
)

const (
	defaultDeadline = 120 * time.Second
)

// waitOut is the answer of wait: the operation's answer and, on a
// timeout, the command that keeps waiting.
type waitOut struct {
	head
	ops.Waited
	RetryCommand string `json:"retry_command,omitempty"`
}

// waitOptions are the flags of wait.
type waitOptions struct {
	agent
	w           ops.Wait
	deadline    time.Duration
	deadlineSet bool
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
	fs.StringVar(&o.w.DebateID, "debate-id", "", "id of the debate")
	fs.StringVar(&o.w.Role, "role", "", "your role: proposer, opponent or arbitrator")
	fs.StringVar(&o.w.After, "argument-id", "", "wait for an argument after this one (default: answer with the newest)")
	fs.DurationVar(&o.deadline, "deadline", defaultDeadline, "give up after this long and print status \"timeout\" with retry_command")
	o.agent.flags(fs)
}

func (o *waitOptions) args(fs *pflag.FlagSet) error {
	if _, err := o.agent.args(fs); err != nil {
		return err
	}
	o.deadlineSet = fs.Changed("deadline")
	if err := o.w.Check(); err != nil {
		return flagError(err)
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
	flags := []string{"--debate-id", o.w.DebateID, "--role", o.w.Role, "--argument-id", o.w.After}
	if o.deadlineSet {
		flags = append(flags, "--deadline", o.deadline.String())
	}
	retry := s.command("wait", flags...)
	res, err := ops.Await(ctx, s.client, o.w, o.deadline, o.srv.timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, interruptedError{err, retry}
		}
		return nil, err
	}
	out := waitOut{head: success, Waited: res}
	if res.Status == ops.WaitTimeout {
		out.Message = fmt.Sprintf("nothing new within %s; this is normal, run retry_command to keep waiting", o.deadline)
		out.RetryCommand = retry
	}
	return out, nil
}
