package main

import (
	"context"
	"fmt"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
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
	// fallbackInterval paces polls against a server that answers at once
	// instead of holding the request (the seed's interval polling).
	fallbackInterval = 2 * time.Second
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
	ArgumentID       string        `json:"argument_id,omitempty"`
	Argument         *api.Argument `json:"argument,omitempty"`
	AvailableActions []string      `json:"available_actions"`
	Message          string        `json:"message,omitempty"`
	// RetryCommand, on a timeout, is the command that keeps waiting.
	RetryCommand string `json:"retry_command,omitempty"`
}

func waitCmd(e *env, args []string) int {
	a := newAgent(e, "wait")
	a.withServer()
	a.longPoll = true
	debateID := a.fs.String("debate-id", "", "id of the debate")
	role := a.fs.String("role", "", "your role: proposer, opponent or arbitrator")
	after := a.fs.String("argument-id", "", "wait for an argument after this one (default: answer with the newest)")
	deadline := a.fs.Duration("deadline", defaultDeadline, "give up after this long and print status \"timeout\" with retry_command")
	help := a.help("debate wait --debate-id <id> --role <proposer|opponent|arbitrator> [--argument-id <arg>] [--deadline 120s]",
		`Wait for the next argument after --argument-id (usually the one you just submitted) and print it
with action, what your role should do now: respond (answer it with --target-id argument_id),
wait_for_ruling, align_to_ruling, wait_for_proposer, wait_for_opponent or debate_closed (stop).
available_actions lists what your role may submit now.

The server holds each request until an argument is committed (up to 60 s; requests repeat until
--deadline), so the answer comes within milliseconds. At the deadline wait prints
{"status":"timeout", …, "retry_command":"debate wait …"} and exits 0: a timeout is normal in a
long debate; run retry_command to keep waiting. Ctrl-C stops it (exit 130).`,
		"  debate wait --debate-id \"$id\" --role opponent --argument-id \"$arg\"\n  debate wait --debate-id \"$id\" --role proposer --argument-id \"$arg\" --deadline 10m\n")
	return a.run(args, help, nil, func(ctx context.Context, c *client.Client, _ []string) (any, error) {
		if err := a.require("debate-id", *debateID, ""); err != nil {
			return nil, err
		}
		if err := a.require("role", *role, "proposer, opponent or arbitrator"); err != nil {
			return nil, err
		}
		if _, err := protocol.ParseRole(*role); err != nil {
			return nil, usagef("--role %q: want proposer, opponent or arbitrator", *role)
		}
		if *deadline <= 0 {
			return nil, usagef("--deadline must be positive (got %s)", *deadline)
		}
		flags := []string{"--debate-id", *debateID, "--role", *role, "--argument-id", *after}
		if a.fs.Changed("deadline") {
			flags = append(flags, "--deadline", deadline.String())
		}
		retry := a.command("wait", flags...)
		res, err := a.wait(ctx, c, *debateID, *role, *after, *deadline)
		if err != nil {
			if ctx.Err() != nil {
				return nil, interruptedError{err, retry}
			}
			return nil, err
		}
		out := waitOut{head: success, HasNewArgument: res.HasNewArgument, Action: res.Action, DebateID: *debateID,
			Role: *role, DebateState: res.DebateState, LastSeenSeq: res.LastSeenSeq, Argument: res.Argument,
			AvailableActions: res.AvailableActions}
		if out.AvailableActions == nil {
			out.AvailableActions = api.Actions(protocol.State(res.DebateState), protocol.Role(*role))
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
			out.Message = fmt.Sprintf("nothing new within %s; this is normal, run retry_command to keep waiting", *deadline)
			out.RetryCommand = retry
		}
		return out, nil
	})
}

// wait polls until an answer with something to act on, or until deadline;
// then it returns the last answer, which has nothing new.
func (a *agent) wait(ctx context.Context, c *client.Client, debateID, role, after string, deadline time.Duration) (api.PollResult, error) {
	end := time.Now().Add(deadline)
	for {
		remaining := time.Until(end)
		w := min(max(remaining, 0), server.MaxWait)
		// The request may take the wait plus the usual answer time.
		rctx, cancel := context.WithTimeout(ctx, w+a.timeout)
		start := time.Now()
		res, err := c.Poll(rctx, debateID, role, after, w)
		cancel()
		if err != nil {
			return res, err
		}
		if res.HasNewArgument || res.Action == string(protocol.DebateClosed) {
			return res, nil
		}
		if remaining = time.Until(end); remaining <= 0 {
			return res, nil
		}
		if time.Since(start) < w/2 {
			// The server did not hold the request: poll at an interval.
			if err := ctxwait.Sleep(ctx, min(fallbackInterval, remaining)); err != nil {
				return res, err
			}
		}
	}
}
