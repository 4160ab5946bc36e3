package providers

import (
	"encoding/json"
	"fmt"
)

// maxBreaks is the number of cache breakpoints Anthropic allows in one
// request.
const maxBreaks = 4

// cacheBreaks returns the cache breakpoints of msgs by message index, the
// last maxBreaks of them: the later a breakpoint, the longer the prefix it
// caches.
func cacheBreaks(msgs []Message) map[int][]int {
	out := map[int][]int{}
	left := maxBreaks
	for i := len(msgs) - 1; i >= 0 && left > 0; i-- {
		b := msgs[i].Breaks
		if n := len(b); n > left {
			b = b[n-left:]
		}
		if len(b) > 0 {
			out[i] = b
			left -= len(b)
		}
	}
	return out
}

// textPart is one text part of a message's content, with an Anthropic-style
// cache breakpoint after it when CacheControl is set.
type textPart struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// withBreaks rewrites the content of the messages in breaks as text parts
// cut at its offsets, each part that ends at an offset marked
// cache_control {"type":"ephemeral"}.
func withBreaks(raw json.RawMessage, breaks map[int][]int) (json.RawMessage, error) {
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}
	for i, offsets := range breaks {
		if i >= len(msgs) {
			continue
		}
		var content string
		if err := json.Unmarshal(msgs[i]["content"], &content); err != nil {
			return nil, fmt.Errorf("messages[%d].content: %w", i, err)
		}
		var parts []textPart
		start := 0
		for _, o := range offsets {
			if o <= start || o > len(content) {
				continue
			}
			parts = append(parts, textPart{Type: "text", Text: content[start:o], CacheControl: &cacheControl{Type: "ephemeral"}})
			start = o
		}
		if start < len(content) {
			parts = append(parts, textPart{Type: "text", Text: content[start:]})
		}
		b, err := json.Marshal(parts)
		if err != nil {
			return nil, err
		}
		msgs[i]["content"] = b
	}
	return json.Marshal(msgs)
}
