package client

import (
	"context"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// FallbackInterval paces the polls of Wait against a server that answers at
// once instead of holding the request (vjcspy/aweave's interval polling).
const FallbackInterval = 2 * time.Second

// WaitOptions bound a Wait.
type WaitOptions struct {
	// Deadline is when Wait gives up and returns the last answer, which
	// has nothing new.
	Deadline time.Time
	// MaxHold is the longest the server holds one request.
	MaxHold time.Duration
	// Slack bounds one request beyond the time the server holds it.
	Slack time.Duration
}

// Wait polls debateID for role until an answer with something to act on
// (an argument after afterArgumentID, or the debate closed) or until the
// deadline. A server that cannot be reached, or a gateway that answers 502,
// 503 or 504 for it, is retried by the client's one retry policy until the
// deadline; only then is its error returned.
func (c *Client) Wait(ctx context.Context, debateID, role, afterArgumentID string, o WaitOptions) (api.PollResult, error) {
	for {
		remaining := max(time.Until(o.Deadline), 0)
		hold := min(remaining, o.MaxHold)
		start := time.Now()
		res, err := c.poll(ctx, debateID, role, afterArgumentID, hold, remaining, hold+o.Slack)
		remaining = time.Until(o.Deadline)
		switch {
		case err != nil:
			return res, err
		case res.HasNewArgument || res.Action == string(protocol.DebateClosed) || remaining <= 0:
			return res, nil
		}
		if time.Since(start) < hold/2 {
			// The server did not hold the request: poll at an interval.
			if err := ctxwait.Sleep(ctx, min(FallbackInterval, remaining)); err != nil {
				return res, err
			}
		}
	}
}
