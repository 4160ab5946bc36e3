package orchestrator

import (
	"context"
	"errors"
	"fmt"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
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
		return pe.Kind == providers.KindCut
	}
	return err == nil && resp.Cut()
}

// judgeCall makes a judge's call c. An answer cut at the token limit is
// asked again once from the same model with a larger limit; when that call
// fails, the cut answer, if any, is what there is.
func (t *topicRun) judgeCall(ctx context.Context, c call) (providers.Response, string, error) {
	resp, model, err := t.call(ctx, c)
	if !cutOff(resp, err) || ctx.Err() != nil {
		return resp, model, err
	}
	limit := c.maxTokens
	if limit <= 0 {
		limit = t.e.cfg.Params.MaxTokensPerResponse
	}
	if limit <= 0 {
		limit = configs.DefaultMaxTokensPerResponse
	}
	if limit >= maxReaskTokens {
		return resp, model, err
	}
	c.maxTokens, c.model = reaskTokens(limit), model
	t.e.log.Info("judge answer cut at the token limit: asking again with a larger limit",
		"topic", t.topic.ID, "node", c.node, "model", model, "limit", limit, "new limit", c.maxTokens)
	again, _, err2 := t.call(ctx, c)
	if err2 != nil && err == nil {
		return resp, model, nil
	}
	return again, model, err2
}

// cutWarning is the warning of a debater's answer kept although the token
// limit cut it.
func (t *topicRun) cutWarning() string {
	return fmt.Sprintf("cut at the token limit (params.maxTokensPerResponse: %d): the answer is incomplete", t.e.cfg.Params.MaxTokensPerResponse)
}
