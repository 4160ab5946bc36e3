package scripted

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/providers/wire"
)

// StatusGatewayTimeout is Cloudflare's 524: the origin did not start its
// response in time.
const StatusGatewayTimeout = 524

// WithGateway puts a gateway in front of the fake that answers 524 ("error
// code: 524", as Cloudflare does) to any response not started within d. A
// streamed answer starts at once (its headers), so only answers in one
// piece that take d or longer are cut.
func WithGateway(d time.Duration) Option { return func(s *Server) { s.gateway = d } }

// A Refusal answers a call the way a server refuses a parameter it does not
// support, or reports false when the call does not use it.
type Refusal func(Call) (Reply, bool)

// Refuse makes the fake refuse, for model, calls that use what refusals
// name, before any queued reply or rule; the first refusal that applies
// answers.
func (s *Server) Refuse(model string, refusals ...Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals[model] = append(s.refusals[model], refusals...)
}

// badParam is OpenAI's 400 for a parameter or value a model does not take.
func badParam(param, code, msg string) Reply {
	body, _ := json.Marshal(map[string]wire.ErrorDetail{"error": {Message: msg, Type: "invalid_request_error", Param: param, Code: code}})
	return Raw(http.StatusBadRequest, string(body))
}

// RefuseMaxTokens refuses max_tokens as OpenAI does for its reasoning
// models, under any name a deployment gives them.
func RefuseMaxTokens() Refusal {
	return func(c Call) (Reply, bool) {
		return badParam("max_tokens", "unsupported_parameter",
			"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."), c.MaxTokens > 0
	}
}

// RefuseTemperature refuses a temperature other than 1 as OpenAI does for
// its reasoning models.
func RefuseTemperature() Refusal {
	return func(c Call) (Reply, bool) {
		if c.Temperature == nil || *c.Temperature == 1 {
			return Reply{}, false
		}
		return badParam("temperature", "unsupported_value", fmt.Sprintf(
			"Unsupported value: 'temperature' does not support %g with this model. Only the default (1) value is supported.", *c.Temperature)), true
	}
}

// RefuseJSONObject refuses response_format "json_object" as LM Studio does.
func RefuseJSONObject() Refusal {
	return func(c Call) (Reply, bool) {
		return Raw(http.StatusBadRequest, `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`), c.ResponseFormat == "json_object"
	}
}

// RefuseStream refuses streaming as OpenAI does for an organization that is
// not verified for the model.
func RefuseStream() Refusal {
	return func(c Call) (Reply, bool) {
		return badParam("stream", "unsupported_value",
			"Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization."), c.Stream
	}
}

// RefuseKey answers 401 as OpenAI does for a wrong key.
func RefuseKey() Reply {
	return Reply{Status: http.StatusUnauthorized, Code: "invalid_api_key",
		Text: "Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys."}
}

// UnknownModel answers 404 as OpenAI does for a model that does not exist.
func UnknownModel(model string) Reply {
	return Reply{Status: http.StatusNotFound, Code: "model_not_found",
		Text: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)}
}

// writeStream answers a streamed request with server-sent events in
// OpenAI's shape: headers at once, keep-alive comments, then after delay a
// role chunk, reasoning and content deltas, a finish chunk, a usage chunk
// with no choices when stream_options.include_usage asked for it, and
// "data: [DONE]". It stops when the client goes away; leave is called
// before the last write.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, c Call, reply Reply, delay time.Duration, leave func()) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	st := &streamer{w: w, r: r, reply: reply}
	st.flush()
	if reply.Endless {
		writeEndless(w, reply, true)
		return
	}
	for range reply.KeepAlives {
		if !st.write([]byte(": OPENROUTER PROCESSING\n\n")) || ctxwait.Sleep(r.Context(), cmp.Or(reply.ChunkDelay, time.Millisecond)) != nil {
			return
		}
	}
	if ctxwait.Sleep(r.Context(), delay) != nil {
		return
	}
	st.base = wire.Chunk{ID: fmt.Sprintf("chatcmpl-%d", c.Seq), Object: "chat.completion.chunk", Created: time.Now().Unix(), Model: cmp.Or(reply.Model, c.Model)}
	if !st.delta(wire.Delta{Role: "assistant"}, wire.FinishReason{}) || !st.parts() || !st.tools() || !st.finish() {
		return
	}
	if u := usage(c, reply); u != nil && c.IncludeUsage {
		ch := st.base
		ch.Choices, ch.Usage = []wire.Choice{}, u
		if !st.send(ch) {
			return
		}
	}
	leave()
	io.WriteString(w, "data: [DONE]\n\n")
	st.flush()
}

// streamer writes the events of one streamed answer; each method reports
// false when the client went away.
type streamer struct {
	w     http.ResponseWriter
	r     *http.Request
	reply Reply
	base  wire.Chunk // the fields every chunk repeats
	buf   []byte
}

func (st *streamer) flush() {
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
}

// write sends b. Keep-alives, before the first chunk, go out at once.
// Chunks with a pause between them go out one by one, as a provider sends
// tokens as it makes them; without a pause they share writes, as a busy
// connection coalesces them, so that the fake spends no write call per
// chunk of the processor it shares with the program it serves.
func (st *streamer) write(b []byte) bool {
	if _, err := st.w.Write(b); err != nil {
		return false
	}
	if st.reply.ChunkDelay > 0 || st.base.ID == "" {
		st.flush()
	}
	return true
}

func (st *streamer) send(ch wire.Chunk) bool {
	b, _ := json.Marshal(ch)
	st.buf = append(append(append(st.buf[:0], "data: "...), b...), "\n\n"...)
	return st.write(st.buf)
}

func (st *streamer) delta(d wire.Delta, finish wire.FinishReason) bool {
	ch := st.base
	ch.Choices = []wire.Choice{{Delta: &d, FinishReason: finish}}
	return st.send(ch)
}

// parts sends the reasoning, the refusal and the text in pieces of
// ChunkBytes.
func (st *streamer) parts() bool {
	size := cmp.Or(st.reply.ChunkBytes, 16)
	for _, part := range []struct {
		text string
		set  func(*wire.Delta, string)
	}{
		{st.reply.ReasoningContent, func(d *wire.Delta, s string) { d.ReasoningContent = s }},
		{st.reply.Reasoning, func(d *wire.Delta, s string) { d.Reasoning = s }},
		{st.reply.Refusal, func(d *wire.Delta, s string) { d.Refusal = s }},
		{st.reply.Text, func(d *wire.Delta, s string) { d.Content.Text = s }},
	} {
		if part.text == "" {
			continue
		}
		// Every chunk of a part is the same but for its piece of text: the
		// JSON around the piece is encoded once, from a chunk whose piece
		// is a marker, and only the piece is encoded per chunk.
		var d wire.Delta
		part.set(&d, marker)
		ch := st.base
		ch.Choices = []wire.Choice{{Delta: &d}}
		tmpl, _ := json.Marshal(ch)
		at := bytes.LastIndex(tmpl, []byte(markerJSON))
		head, tail := tmpl[:at], tmpl[at+len(markerJSON):]
		for piece := range pieces(part.text, size) {
			st.buf = append(appendString(append(append(st.buf[:0], "data: "...), head...), piece), tail...)
			st.buf = append(st.buf, "\n\n"...)
			if !st.write(st.buf) || ctxwait.Sleep(st.r.Context(), st.reply.ChunkDelay) != nil {
				return false
			}
		}
	}
	return true
}

// tools sends the reply's tool call, if any, in a chunk of its own.
func (st *streamer) tools() bool {
	if st.reply.ToolCall == "" {
		return true
	}
	return st.delta(wire.Delta{ToolCalls: toolCalls(st.reply.ToolCall)}, wire.FinishReason{})
}

// finish sends the finish chunk: with the reply's reason (none with
// NoFinish), or OpenRouter's error chunk when StreamError is set.
func (st *streamer) finish() bool {
	finish := wire.Finished(cmp.Or(st.reply.FinishReason, "stop"))
	if st.reply.NoFinish {
		finish = wire.FinishReason{}
	}
	if st.reply.StreamError == "" {
		return st.delta(wire.Delta{}, finish)
	}
	ch := st.base
	ch.Error = &wire.ErrorDetail{Code: "502", Message: st.reply.StreamError}
	if st.reply.FinishReason == "" {
		finish = wire.Finished(wire.FinishError)
	}
	ch.Choices = []wire.Choice{{Delta: &wire.Delta{}, FinishReason: finish}}
	return st.send(ch)
}

// pieces yields s in runs of about n bytes, never split inside a UTF-8
// sequence.
func pieces(s string, n int) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			i := min(n, len(s))
			for i < len(s) && !utf8.RuneStart(s[i]) {
				i++
			}
			if !yield(s[:i]) {
				return
			}
			s = s[i:]
		}
	}
}

// appendString appends s as a JSON string: as it stands when nothing in it
// needs an escape, as most pieces of text are, else as encoding/json
// writes it.
func appendString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) {
		q, _ := json.Marshal(s)
		return append(dst, q...)
	}
	return append(append(append(dst, '"'), s...), '"')
}

// marker stands for a piece of text in a chunk encoded once per part;
// markerJSON is how it reads in the JSON.
const (
	marker     = "\x00"
	markerJSON = `"\u0000"`
)

// writeEndless writes a body that never ends until the client goes away:
// a streamed answer, an answer in one piece, or an error body.
func writeEndless(w http.ResponseWriter, reply Reply, streamed bool) {
	status := cmp.Or(reply.Status, http.StatusOK)
	var head, unit string
	switch {
	case streamed:
		unit = `data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 4000) + `"},"finish_reason":null}]}` + "\n\n"
	case status >= 400:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		head, unit = `{"error":{"message":"`, strings.Repeat("x", 32<<10)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		head, unit = `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`, strings.Repeat("x", 32<<10)
	}
	if _, err := io.WriteString(w, head); err != nil {
		return
	}
	b := []byte(unit)
	for {
		if _, err := w.Write(b); err != nil {
			return
		}
	}
}
