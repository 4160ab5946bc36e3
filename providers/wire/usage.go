package wire

import (
	"bytes"
	"encoding/json"
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
	// Unusable is set when a count was no count: a fraction, negative,
	// absurdly large, or text that is no number. The counts are then not
	// to be trusted; the answer itself is unaffected.
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

// maxCount is the largest token count taken as meant: far beyond any
// call, far below an overflow when counts are summed.
const maxCount = 1 << 40

// number reads a count or a cost as sent: a number, possibly written 12.0
// or "12"; ok is false when it is none (text, negative, absurdly large)
// and, for a count, when it is a fraction. Absent or null is 0.
func number(raw json.RawMessage, fraction bool) (float64, bool) {
	s := string(bytes.Trim(bytes.TrimSpace(raw), `"`))
	if s == "null" || s == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > maxCount || !fraction && f != math.Trunc(f) {
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
		f, ok := number(m[k], false)
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
	if f, ok := number(m["cost"], true); ok && m["cost"] != nil && string(m["cost"]) != "null" {
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
