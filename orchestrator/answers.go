package orchestrator

import (
	"context"
	"errors"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// maxReaskTokens bounds the token limit a judge's cut answer is asked again
// with.
const maxReaskTokens = 32000

// reaskTokens is the limit a cut answer is asked again with: twice the one
// it was cut at, and never less than 1024 more, up to maxReaskTokens.
func reaskTokens(limit int) int {
	return min(max(2*limit, limit+1024), maxReaskTokens)
}

// cutOff reports whether a call's outcome is an answer stopped by the token
// limit: kept text, or a failure because nothing but reasoning came back.
func cutOff(resp providers.Response, err error) bool {
	var pe *providers.Error
	if errors.As(err, &pe) {
		return pe.Class == providers.ClassCut
	}
	return err == nil && resp.Cut()
}

// reask makes call c, whose reaskCut is set: an answer cut at the token
// limit is asked again once, with a larger limit; when that call fails, the
// cut answer, if any, is what there is.
func (r *roster) reask(ctx context.Context, c call) (providers.Response, string, error) {
	c.reaskCut = false
	resp, model, err := r.call(ctx, c)
	if !cutOff(resp, err) || ctx.Err() != nil {
		return resp, model, err
	}
	limit := c.maxTokens
	if limit <= 0 {
		limit = r.s.cfg.Params.MaxTokensPerResponse
	}
	if limit <= 0 {
		limit = configs.DefaultMaxTokensPerResponse
	}
	if limit >= maxReaskTokens {
		return resp, model, err
	}
	c.maxTokens = reaskTokens(limit)
	r.s.log.Info("answer cut at the token limit: asking again with a larger limit",
		"topic", r.scope, "node", c.node, "participant", c.who.p.ID, "model", model, "limit", limit, "new limit", c.maxTokens)
	again, model2, err2 := r.call(ctx, c)
	if err2 != nil && err == nil {
		return resp, model, nil
	}
	return again, model2, err2
}

// cutWarning is the warning of a debater's answer kept although the token
// limit cut it.
func (t *topicRun) cutWarning() tree.Reason {
	return tree.Because(tree.CutIncomplete, t.e.cfg.Params.MaxTokensPerResponse)
}
