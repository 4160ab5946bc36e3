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

// count is a token count as sent: a number, possibly written 12.0 or
// "12"; bad when it is none.
type count struct {
	n   int
	bad bool
}

func (c *count) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(bytes.TrimSpace(b), `"`))
	if s == "null" || s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > maxCount || f != math.Trunc(f) {
		c.bad = true
		return nil
	}
	c.n = int(f)
	return nil
}

// money is a cost as sent: a number or a number in a string; anything else
// is no cost.
type money struct{ v *float64 }

func (m *money) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(bytes.TrimSpace(b), `"`))
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
		m.v = &f
	}
	return nil
}

// UnmarshalJSON reads usage leniently: it never fails, and marks counts it
// cannot read as Unusable.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var w struct {
		Prompt     count `json:"prompt_tokens"`
		Completion count `json:"completion_tokens"`
		Total      count `json:"total_tokens"`
		PromptD    *struct {
			Cached count `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionD *struct {
			Reasoning count `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		CacheHit count `json:"prompt_cache_hit_tokens"`
		Cost     money `json:"cost"`
	}
	*u = Usage{}
	if err := json.Unmarshal(b, &w); err != nil {
		u.Unusable = true
		return nil
	}
	counts := []*count{&w.Prompt, &w.Completion, &w.Total, &w.CacheHit}
	u.PromptTokens, u.CompletionTokens, u.TotalTokens = w.Prompt.n, w.Completion.n, w.Total.n
	u.PromptCacheHitTokens, u.Cost = w.CacheHit.n, w.Cost.v
	if d := w.PromptD; d != nil {
		u.PromptTokensDetails = &PromptDetails{CachedTokens: d.Cached.n}
		counts = append(counts, &d.Cached)
	}
	if d := w.CompletionD; d != nil {
		u.CompletionTokensDetails = &CompletionDetails{ReasoningTokens: d.Reasoning.n}
		counts = append(counts, &d.Reasoning)
	}
	for _, c := range counts {
		u.Unusable = u.Unusable || c.bad
	}
	return nil
}

// Reported reports whether the usage says anything: a count above zero.
func (u *Usage) Reported() bool {
	return u != nil && !u.Unusable && (u.PromptTokens > 0 || u.CompletionTokens > 0 || u.TotalTokens > 0)
}

// Cached returns the prompt tokens served from the provider's cache.
func (u *Usage) Cached() int {
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
		return d.CachedTokens
	}
	return u.PromptCacheHitTokens
}

// Reasoning returns the completion tokens spent on reasoning.
func (u *Usage) Reasoning() int {
	if d := u.CompletionTokensDetails; d != nil {
		return d.ReasoningTokens
	}
	return 0
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
