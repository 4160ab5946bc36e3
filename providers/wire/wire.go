// Package wire is the OpenAI chat-completions format as providers really
// send it: the request, the answer (one body or a stream of chunks), usage,
// error bodies and the server-sent events of a stream. The client in
// package providers and the test fake in providers/scripted both speak it,
// so each answer is decoded once, by these types.
//
// go-openai's types are used where they carry what is sent or read:
// ChatCompletionResponseFormat and StreamOptions in the request, and
// ContentFilterResults in a choice. The rest are ours, because go-openai's
// cannot read what providers send: content as an array of parts (Mistral's
// thinking parts), a "reasoning" delta beside "reasoning_content"
// (OpenRouter, Ollama, vLLM), finish reasons that are numbers or absent,
// usage with total_tokens, cache hits and a provider cost, counts written
// as strings or floats, and error bodies whose reason sits in nested
// provider detail (OpenRouter's error.metadata). Its request type cannot
// send an explicit temperature of 0, content parts with cache breakpoints
// or an endpoint's extra fields without patching the JSON it wrote.
package wire

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Request is the body of a chat-completion request.
type Request struct {
	Model               string                               `json:"model"`
	Messages            []Message                            `json:"messages"`
	MaxTokens           int                                  `json:"max_tokens,omitempty"`
	MaxCompletionTokens int                                  `json:"max_completion_tokens,omitempty"`
	Temperature         *float64                             `json:"temperature,omitempty"`
	ResponseFormat      *openai.ChatCompletionResponseFormat `json:"response_format,omitempty"`
	Stream              bool                                 `json:"stream,omitempty"`
	StreamOptions       *openai.StreamOptions                `json:"stream_options,omitempty"`
	// Extra are more fields of the body (an endpoint's extraBody). One
	// named like a field above replaces it, but model, messages and stream
	// are the program's own and are never replaced.
	Extra map[string]json.RawMessage `json:"-"`
}

// ownFields are the fields Extra never replaces.
var ownFields = []string{"model", "messages", "stream"}

// Encode returns the request as JSON, Extra merged in, keys in a stable
// order.
func (r *Request) Encode() ([]byte, error) {
	// The messages go as plain values: encoding/json compacts again what
	// a MarshalJSON method returns, a second pass over every prompt.
	type plain Request
	type message struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	var msgs []message
	for _, m := range r.Messages {
		msgs = append(msgs, message{Role: m.Role, Content: m.Content.value()})
	}
	b, err := json.Marshal(struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
		*plain
	}{r.Model, msgs, (*plain)(r)})
	if err != nil || len(r.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range r.Extra {
		if !slices.Contains(ownFields, k) {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// Message is one chat message.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message's content: a string, or an array of parts.
// Decoded, text parts are the text and thinking parts the reasoning;
// other part types (images, tool results) are ignored. Encoded, it is Parts
// when there are any, else Text.
type Content struct {
	Text      string
	Reasoning string
	Parts     []Part
}

// Part is one part of a content array.
type Part struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// Thinking is a thinking part's reasoning: Mistral's array of text
	// parts (or a string).
	Thinking     json.RawMessage `json:"thinking,omitempty"`
	CacheControl *CacheControl   `json:"cache_control,omitempty"`
}

// CacheControl marks a cache breakpoint after a part (Anthropic's form).
type CacheControl struct {
	Type string `json:"type"`
}

// Ephemeral is the one cache_control type providers take.
var Ephemeral = &CacheControl{Type: "ephemeral"}

// MarshalJSON encodes the content as its parts, or its text.
func (c Content) MarshalJSON() ([]byte, error) { return json.Marshal(c.value()) }

// value is what the content encodes as: its parts, or its text.
func (c Content) value() any {
	if len(c.Parts) > 0 {
		return c.Parts
	}
	return c.Text
}

// UnmarshalJSON reads a string, null, or an array of parts.
func (c *Content) UnmarshalJSON(b []byte) error {
	*c = Content{}
	switch b = bytes.TrimSpace(b); {
	case len(b) == 0 || b[0] == 'n':
		return nil
	case b[0] == '"':
		return unquote(b, &c.Text)
	case b[0] != '[':
		// A number or an object is no content a model wrote.
		return nil
	}
	var parts []Part
	if err := json.Unmarshal(b, &parts); err != nil {
		return nil
	}
	var text, reasoning strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text", "output_text", "":
			text.WriteString(p.Text)
		case "thinking", "reasoning":
			reasoning.WriteString(thinking(p))
		}
	}
	c.Text, c.Reasoning = text.String(), reasoning.String()
	return nil
}

// unquote reads a JSON string, which its caller's decoder found valid, into
// s, in one pass: encoding/json would check it again first. One without
// escapes, as most streamed pieces are, is taken as it stands.
func unquote(b []byte, s *string) error {
	in := b[1 : len(b)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		*s = string(in)
		return nil
	}
	var out strings.Builder // one allocation, which String keeps
	out.Grow(len(in))
	for {
		i := bytes.IndexByte(in, '\\')
		if i < 0 {
			out.Write(in)
			break
		}
		out.Write(in[:i])
		c := in[i+1]
		in = in[i+2:]
		switch {
		case c == 'u':
			r := hex4(in)
			in = in[4:]
			if utf16.IsSurrogate(r) && len(in) >= 6 && in[0] == '\\' && in[1] == 'u' {
				if pair := utf16.DecodeRune(r, hex4(in[2:])); pair != utf8.RuneError {
					r, in = pair, in[6:]
				}
			}
			out.WriteRune(r)
		case strings.IndexByte("bfnrt", c) >= 0:
			out.WriteByte("\b\f\n\r\t"[strings.IndexByte("bfnrt", c)])
		default: // " \ /
			out.WriteByte(c)
		}
	}
	if !utf8.ValidString(out.String()) {
		// encoding/json makes each invalid byte U+FFFD.
		return json.Unmarshal(b, s)
	}
	*s = out.String()
	return nil
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(n)
}

// thinking returns the text of a thinking part: its "thinking" as a string
// or as text parts, else its "text".
func thinking(p Part) string {
	if len(p.Thinking) == 0 {
		return p.Text
	}
	var s string
	if json.Unmarshal(p.Thinking, &s) == nil {
		return s
	}
	var inner []Part
	if json.Unmarshal(p.Thinking, &inner) != nil {
		return ""
	}
	var b strings.Builder
	for _, q := range inner {
		b.WriteString(q.Text)
	}
	return b.String()
}

// FinishReason is a choice's finish_reason as sent: a string, a number
// (kept as its text) or null. Set tells null or absent from "".
type FinishReason struct {
	Reason string
	Set    bool
}

// UnmarshalJSON reads a string, a number or null.
func (f *FinishReason) UnmarshalJSON(b []byte) error {
	*f = FinishReason{}
	switch b = bytes.TrimSpace(b); {
	case len(b) == 0 || b[0] == 'n':
		return nil
	case b[0] == '"':
		f.Set = true
		return unquote(b, &f.Reason)
	}
	f.Reason, f.Set = string(b), true
	return nil
}

// MarshalJSON writes the reason, or null.
func (f FinishReason) MarshalJSON() ([]byte, error) {
	if !f.Set {
		return []byte("null"), nil
	}
	return json.Marshal(f.Reason)
}

// Finished returns a set finish reason.
func Finished(reason string) FinishReason { return FinishReason{Reason: reason, Set: true} }

// The finish reasons that say more than that an answer finished.
const (
	FinishLength = string(openai.FinishReasonLength)
	FinishFilter = string(openai.FinishReasonContentFilter)
	FinishError  = "error"
)

// Completion is an answer, in one body or as one chunk of a stream: a
// chunk's choices carry Delta, a body's Message.
type Completion struct {
	ID      string   `json:"id,omitempty"`
	Object  string   `json:"object,omitempty"`
	Created int64    `json:"created,omitempty"`
	Model   string   `json:"model,omitempty"`
	Choices []Choice `json:"choices"`
	Usage   *Usage   `json:"usage,omitempty"`
	// XGroq carries Groq's usage of a stream that was not asked for it.
	XGroq *struct {
		Usage *Usage `json:"usage,omitempty"`
	} `json:"x_groq,omitempty"`
	// Error is an error reported in a 200: an error chunk of a stream
	// (OpenRouter), or a gateway's body.
	Error *ErrorDetail `json:"error,omitempty"`
}

// Reported returns the usage the answer reports: its own, else Groq's.
func (c *Completion) Reported() *Usage {
	if c.Usage == nil && c.XGroq != nil {
		return c.XGroq.Usage
	}
	return c.Usage
}

// Chunk is one event of a stream.
type Chunk = Completion

// Choice is one choice of an answer.
type Choice struct {
	Index                int                          `json:"index"`
	Message              *Delta                       `json:"message,omitempty"`
	Delta                *Delta                       `json:"delta,omitempty"`
	FinishReason         FinishReason                 `json:"finish_reason"`
	ContentFilterResults *openai.ContentFilterResults `json:"content_filter_results,omitempty"`
}

// Delta is what a choice says: a whole message, or a chunk's part of it.
type Delta struct {
	Role             string  `json:"role,omitempty"`
	Content          Content `json:"content"`
	ReasoningContent string  `json:"reasoning_content,omitempty"`
	Reasoning        string  `json:"reasoning,omitempty"`
	Refusal          string  `json:"refusal,omitempty"`
	// ToolCalls are the tools the model called instead of answering, kept
	// as sent: the program calls none, so an answer of tool calls alone is
	// no answer.
	ToolCalls []json.RawMessage `json:"tool_calls,omitempty"`
}
