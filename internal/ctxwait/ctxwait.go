// Package ctxwait holds the one context-aware pause that every retry and
// polling loop of the program uses.
package ctxwait

import (
	"context"
	"time"
)

// Sleep waits for d or until ctx ends, whichever comes first. It returns nil
// after a full wait and the context's cause when ctx ended first; a d of zero
// or less only reports whether ctx has already ended.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
