// Package think splits what a model wrote into its answer and its
// reasoning: the reasoning blocks (<think> and its variants) that models
// served without a reasoning parser write at the start of their text, and
// the reasoning a server gave in fields of its own.
package think

import (
	"strings"

	"github.com/debatehq/debate/internal/fold"
)

// reasoningTags are the tags that models wrap their reasoning in when a
// server returns it inside content: <think>…</think> and its variants.
var reasoningTags = [...]string{"think", "thinking", "reasoning"}

// Split splits what a model returned into its answer and its reasoning.
// content is the message's content; fields are the reasoning a server gave
// apart from it (reasoning_content, reasoning), in that order.
//
// Reasoning blocks at the start of content (<think>, <thinking>,
// <reasoning>, any case, one after the other) are taken out of the answer; a
// block that is never closed holds the rest of content, as when the token
// limit cut the model while it was still thinking. A closing tag with no
// opening one before it ends reasoning whose opening tag the chat template
// wrote into the prompt (DeepSeek-R1 distills served without a reasoning
// parser). The answer is the remaining text, trimmed when a block was taken
// out and byte for byte as sent otherwise; it is never rewritten. The
// reasoning parts, trimmed, are joined by blank lines.
func Split(content string, fields ...string) (answer, reasoning string) {
	var parts []string
	for _, f := range fields {
		if f = strings.TrimSpace(f); f != "" {
			parts = append(parts, f)
		}
	}
	blocks, rest, found := splitReasoning(content)
	answer = content
	if found {
		answer = strings.TrimSpace(rest)
	}
	for _, b := range blocks {
		if b = strings.TrimSpace(b); b != "" {
			parts = append(parts, b)
		}
	}
	return answer, strings.Join(parts, "\n\n")
}

// splitReasoning returns the reasoning blocks that start content and what
// follows them; found is false when content holds no reasoning block.
func splitReasoning(content string) (blocks []string, rest string, found bool) {
	rest = content
	for {
		t := strings.TrimLeft(rest, " \t\r\n")
		tag, n := openingTag(t)
		if tag == "" {
			break
		}
		found = true
		body := t[n:]
		closing := "</" + tag + ">"
		end := fold.Index(body, closing)
		if end < 0 {
			return append(blocks, body), "", true
		}
		blocks = append(blocks, body[:end])
		rest = body[end+len(closing):]
	}
	if found {
		return blocks, rest, true
	}
	// A closing tag alone on its line, the first of its kind: everything
	// before it was reasoning. One inside a line is prose about the tag.
	at, width := -1, 0
	for _, tag := range reasoningTags {
		i := fold.Index(content, "</"+tag+">")
		if i < 0 || fold.Index(content[:i], "<"+tag+">") >= 0 || !ownLine(content, i, i+len(tag)+3) {
			continue
		}
		if at < 0 || i < at {
			at, width = i, len(tag)+3
		}
	}
	if at < 0 {
		return nil, content, false
	}
	return []string{content[:at]}, content[at+width:], true
}

// ownLine reports whether s[i:j] stands alone on its line, blanks aside.
func ownLine(s string, i, j int) bool {
	before := s[:i]
	if k := strings.LastIndexByte(before, '\n'); k >= 0 {
		before = before[k+1:]
	}
	after, _, _ := strings.Cut(s[j:], "\n")
	return strings.TrimSpace(before) == "" && strings.TrimSpace(after) == ""
}

// openingTag returns the reasoning tag that s starts with and the length of
// its opening tag, or "" and 0.
func openingTag(s string) (string, int) {
	if len(s) == 0 || s[0] != '<' {
		return "", 0
	}
	for _, tag := range reasoningTags {
		n := len(tag) + 2
		if len(s) >= n && strings.EqualFold(s[1:n-1], tag) && s[n-1] == '>' {
			return tag, n
		}
	}
	return "", 0
}
