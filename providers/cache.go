package providers

import "github.com/debatehq/debate/providers/wire"

// maxBreaks is the number of cache breakpoints Anthropic allows in one
// request.
const maxBreaks = 4

// messages maps msgs to the messages sent. With cacheControl, the content
// of the messages with the last maxBreaks breakpoints (the later a
// breakpoint, the longer the prefix it caches) is sent as text parts cut
// at them, each part that ends at one marked cache_control ephemeral.
// With noSystem, a system message is sent as a user message.
func messages(msgs []Message, cacheControl, noSystem bool) []wire.Message {
	out := make([]wire.Message, len(msgs))
	left := maxBreaks
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		out[i] = wire.Message{Role: m.Role, Content: wire.Content{Text: m.Content}}
		if noSystem && m.Role == "system" {
			out[i].Role = "user"
		}
		b := m.Breaks
		if !cacheControl || left == 0 || len(b) == 0 {
			continue
		}
		if n := len(b); n > left {
			b = b[n-left:]
		}
		left -= len(b)
		out[i].Content.Parts = parts(m.Content, b)
	}
	return out
}

// parts cuts content at offsets into text parts, each that ends at an
// offset marked as a cache breakpoint.
func parts(content string, offsets []int) []wire.Part {
	var out []wire.Part
	start := 0
	for _, o := range offsets {
		if o <= start || o > len(content) {
			continue
		}
		out = append(out, wire.Part{Type: "text", Text: content[start:o], CacheControl: wire.Ephemeral})
		start = o
	}
	if start < len(content) || len(out) == 0 {
		out = append(out, wire.Part{Type: "text", Text: content[start:]})
	}
	return out
}
