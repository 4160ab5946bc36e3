package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Usage is the usage object as providers send it.
type Usage struct {
	PromptTokens            int                `json:"prompt_tokens"`
	CompletionTokens        int                `json:"completion_tokens"`
	TotalTokens             int                `json:"total_tokens,omitempty"`
	PromptTokensDetails     *PromptDetails     `json:"prompt_tokens_details,omitempty"`
	CompletionTokensDetails *CompletionDetails `json:"completion_tokens_details,omitempty"`
	// PromptCacheHitTokens is DeepSeek's count of cached prompt tokens.
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens,omitempty"`
	// Cost is what the provider says the call cost (OpenRouter).
	Cost *float64 `json:"cost,omitempty"`
	// Unusable is set when a count or the cost was no such figure: a
	// fraction of a token, negative, past the bounds of one call
	// (MaxCallTokens, MaxCallCost), not finite, or text that is no number.
	// The usage is then not to be trusted; the answer itself is
	// unaffected.
	Unusable bool `json:"-"`
}

// PromptDetails are the details of the prompt tokens.
type PromptDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// CompletionDetails are the details of the completion tokens.
type CompletionDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

// Bounds of one call's usage: a figure past them (or negative, or not a
// finite number) is not what any provider charges for one call. The run
// applies them to what a provider reports and to what a journal or a call
// cache gives back.
const (
	// MaxCallTokens is more tokens than any model reads or writes in one
	// call.
	MaxCallTokens = 1 << 24
	// MaxCallCost is more than any one call costs, in any currency.
	MaxCallCost = 1e4
)

// Implausible says what is wrong with a call's token counts and cost, ""
// when they are within the bounds of one call.
func Implausible(cost float64, counts ...int) string {
	for _, n := range counts {
		if n < 0 || n > MaxCallTokens {
			return fmt.Sprintf("a token count of %d (outside 0 to %d)", n, MaxCallTokens)
		}
	}
	if !(cost >= 0 && cost <= MaxCallCost) { // NaN fails both
		return fmt.Sprintf("a cost of %g (outside 0 to %g)", cost, float64(MaxCallCost))
	}
	return ""
}

// number reads a count or a cost as sent: a number, possibly written 12.0
// or "12"; ok is false when it is none (text, not finite, negative, past
// limit) and, for a count, when it is a fraction. Absent or null is 0.
func number(raw json.RawMessage, fraction bool, limit float64) (float64, bool) {
	s := string(bytes.Trim(bytes.TrimSpace(raw), `"`))
	if s == "null" || s == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f <= limit) || !fraction && f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

// UnmarshalJSON reads usage leniently: it never fails, and marks counts it
// cannot read as Unusable; details that are no object are left out.
func (u *Usage) UnmarshalJSON(b []byte) error {
	*u = Usage{}
	var m, pd, cd map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		u.Unusable = true
		return nil
	}
	get := func(m map[string]json.RawMessage, k string) int {
		f, ok := number(m[k], false, MaxCallTokens)
		u.Unusable = u.Unusable || !ok
		return int(f)
	}
	u.PromptTokens, u.CompletionTokens, u.TotalTokens = get(m, "prompt_tokens"), get(m, "completion_tokens"), get(m, "total_tokens")
	u.PromptCacheHitTokens = get(m, "prompt_cache_hit_tokens")
	if json.Unmarshal(m["prompt_tokens_details"], &pd) == nil && pd != nil {
		u.PromptTokensDetails = &PromptDetails{CachedTokens: get(pd, "cached_tokens")}
	}
	if json.Unmarshal(m["completion_tokens_details"], &cd) == nil && cd != nil {
		u.CompletionTokensDetails = &CompletionDetails{ReasoningTokens: get(cd, "reasoning_tokens")}
	}
	switch f, ok := number(m["cost"], true, MaxCallCost); {
	case !ok:
		u.Unusable = true
	case m["cost"] != nil && string(m["cost"]) != "null":
		u.Cost = &f
	}
	return nil
}

// Reported reports whether the usage says anything: a count above zero.
func (u *Usage) Reported() bool {
	return u != nil && !u.Unusable && (u.PromptTokens > 0 || u.CompletionTokens > 0 || u.TotalTokens > 0)
}

// Billed returns the output tokens billed: the completion tokens, and the
// part of total_tokens beyond prompt and completion, which is reasoning
// billed outside completion_tokens (as xAI and Gemini report it).
func (u *Usage) Billed() int {
	if extra := u.TotalTokens - u.PromptTokens - u.CompletionTokens; extra > 0 {
		return u.CompletionTokens + extra
	}
	return u.CompletionTokens
}
