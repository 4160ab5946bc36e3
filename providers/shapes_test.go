package providers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
)

// eventStream is a raw 200 whose body is server-sent events.
func eventStream(events ...string) scripted.Reply {
	return scripted.Reply{RawBody: sse(events...), Headers: http.Header{"Content-Type": {"text/event-stream"}}}
}

// completeOnce makes one streamed call of model "m", which gives reply.
func completeOnce(t *testing.T, reply scripted.Reply) (Response, error) {
	srv := providertest.New(t)
	srv.ReplyTo("m", reply)
	return newTestClient(t, srv, streamConfig(true, nil), Options{}).Complete(t.Context(), ask("a", "m", "q"))
}

// TestProviderAnswers: answers in the shapes real providers send them are
// finished answers, their text, reasoning, finish reason and usage as the
// provider gave them.
func TestProviderAnswers(t *testing.T) {
	t.Parallel()
	chunk := func(delta, finish string) string {
		return `{"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	tests := []struct {
		name  string
		reply scripted.Reply
		want  Response
	}{
		{"content as thinking and text parts", scripted.Raw(200, `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":[`+
			`{"type":"thinking","thinking":[{"type":"text","text":"Weigh the river first."}]},{"type":"text","text":"Cross at the ford."}]},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}}`),
			Response{Text: "Cross at the ford.", Reasoning: "Weigh the river first.", FinishReason: "stop", Usage: Usage{PromptTokens: 10, CompletionTokens: 20}}},
		{"streamed thinking parts, then string content", eventStream(
			chunk(`{"role":"assistant","content":""}`, "null"),
			chunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay"}]}]}`, "null"),
			chunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":", the ford."}]}]}`, "null"),
			chunk(`{"content":"Cross at the ford."}`, "null"),
			chunk(`{"content":""}`, `"stop"`), "[DONE]"),
			Response{Text: "Cross at the ford.", Reasoning: "Okay, the ford.", FinishReason: "stop", Usage: Usage{PromptTokens: 1, CompletionTokens: 9, Estimated: true}}},
		{"usage only in x_groq", eventStream(chunk(`{"content":"Hi."}`, "null"),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"x_groq":{"id":"r1","usage":{"queue_time":0.05,"prompt_tokens":21,"completion_tokens":988,"total_tokens":1009}}}`, "[DONE]"),
			Response{Text: "Hi.", FinishReason: "stop", Usage: Usage{PromptTokens: 21, CompletionTokens: 988}}},
		{"a stream with usage and [DONE] but no finish reason", scripted.Reply{Text: "Done here.", NoFinish: true, PromptTokens: 5, CompletionTokens: 3},
			Response{Text: "Done here.", Usage: Usage{PromptTokens: 5, CompletionTokens: 3}}},
		{"a body whose finish reason is empty", scripted.Raw(200, `{"choices":[{"message":{"content":"Fine.","refusal":""},"finish_reason":""}],"usage":{"prompt_tokens":2,"completion_tokens":1}}`),
			Response{Text: "Fine.", Usage: Usage{PromptTokens: 2, CompletionTokens: 1}}},
		{"eos", scripted.Reply{Text: "A.", FinishReason: "eos", PromptTokens: 1, CompletionTokens: 1},
			Response{Text: "A.", FinishReason: "eos", Usage: Usage{PromptTokens: 1, CompletionTokens: 1}}},
		{"end_turn", scripted.Reply{Text: "A.", FinishReason: "end_turn", PromptTokens: 1, CompletionTokens: 1},
			Response{Text: "A.", FinishReason: "end_turn", Usage: Usage{PromptTokens: 1, CompletionTokens: 1}}},
		{"stop_sequence", scripted.Reply{Text: "A.", FinishReason: "stop_sequence", PromptTokens: 1, CompletionTokens: 1},
			Response{Text: "A.", FinishReason: "stop_sequence", Usage: Usage{PromptTokens: 1, CompletionTokens: 1}}},
		{"a numeric finish reason", scripted.Raw(200, `{"choices":[{"message":{"content":"A."},"finish_reason":128009}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`),
			Response{Text: "A.", FinishReason: "128009", Usage: Usage{PromptTokens: 1, CompletionTokens: 1}}},
		{"reasoning billed outside the completion", scripted.Reply{Text: "Hello", PromptTokens: 12, CompletionTokens: 1, TotalTokens: 303, ReasoningTokens: 290, CachedTokens: 11},
			Response{Text: "Hello", FinishReason: "stop", Usage: Usage{PromptTokens: 12, CompletionTokens: 291, ReasoningTokens: 290, CachedPromptTokens: 11}}},
		{"usage that is no count is estimated", scripted.Raw(200, `{"choices":[{"message":{"content":"12345678"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1e30,"completion_tokens":-2}}`),
			Response{Text: "12345678", FinishReason: "stop", Usage: Usage{PromptTokens: 1, CompletionTokens: 2, Estimated: true}}},
		{"counts written as text and floats", scripted.Raw(200, `{"choices":[{"message":{"content":"A."},"finish_reason":"stop"}],"usage":{"prompt_tokens":"7","completion_tokens":3.0}}`),
			Response{Text: "A.", FinishReason: "stop", Usage: Usage{PromptTokens: 7, CompletionTokens: 3}}},
		{"an error chunk saying the token limit came after length", scripted.Reply{Text: "The start of", FinishReason: "length", StreamError: "Token limit reached", PromptTokens: 4, CompletionTokens: 10},
			Response{Text: "The start of", FinishReason: "length", Usage: Usage{PromptTokens: 4, CompletionTokens: 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := completeOnce(t, tt.reply)
			if err != nil {
				t.Fatal(err)
			}
			resp.Latency = 0
			want := tt.want
			want.Model = "m"
			if resp != want {
				t.Errorf("got  %+v\nwant %+v", resp, want)
			}
		})
	}
}

// TestProviderFailures: failures as real providers report them are classified
// as the attempt loop needs, in the provider's own words, keys redacted.
func TestProviderFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reply    scripted.Reply
		kind     Class
		contains []string
	}{
		{"a gateway's upstream reason", scripted.Raw(429, `{"error":{"code":429,"message":"Provider returned error",`+
			`"metadata":{"provider_name":"Google","raw":"acme/m:free is temporarily rate-limited upstream; key `+testKey+`"}},"user_id":"u1"}`),
			ClassRateLimited, []string{"Provider returned error: upstream Google says: acme/m:free is temporarily rate-limited upstream; key [REDACTED]"}},
		{"a key echoed in a 401", scripted.Raw(401, `{"error":{"message":"Incorrect API key provided: `+testKey+`.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
			ClassKeyRefused, []string{"Incorrect API key provided: [REDACTED].", "code invalid_api_key"}},
		{"a numeric code", scripted.Raw(401, `{"error":{"message":"No cookie auth credentials found","code":401}}`),
			ClassKeyRefused, []string{"No cookie auth credentials found"}},
		{"Gemini's status", scripted.Raw(429, `{"error":{"code":429,"message":"Resource exhausted. Please try again later.","status":"RESOURCE_EXHAUSTED"}}`),
			ClassRateLimited, []string{"Resource exhausted"}},
		{"an error body without a content type", scripted.Reply{Status: 404, RawBody: `{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}`, Headers: http.Header{"Content-Type": {""}}},
			ClassModelUnavailable, []string{"deployment for this resource does not exist", "DeploymentNotFound"}},
		{"the token limit before any answer", scripted.Reply{Reasoning: "Thinking", FinishReason: "length", StreamError: "Token limit reached"},
			ClassCut, []string{"cut at the token limit before any answer"}},
		{"an error chunk", scripted.Reply{Text: "Half", StreamError: "Upstream overloaded"}, ClassErrorInAnswer, []string{"Upstream overloaded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := completeOnce(t, tt.reply)
			e := asError(t, err)
			if e.Class != tt.kind {
				t.Errorf("kind %v, want %v: %v", e.Class, tt.kind, e)
			}
			for _, s := range tt.contains {
				if !strings.Contains(e.Error(), s) {
					t.Errorf("%q does not say %q", e.Error(), s)
				}
			}
			if strings.Contains(e.Error(), testKey) {
				t.Errorf("the key leaked: %v", e)
			}
		})
	}
}

// TestNoSystemMessage: a model that takes no system message gets the
// system text as the first user message, from then on for the run; one
// that still refuses is unusable, for the fallback at once.
func TestNoSystemMessage(t *testing.T) {
	t.Parallel()
	refusal := `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","type":"invalid_request_error","param":"messages[0].role","code":"unsupported_value"}}`
	hasSystem := func(c scripted.Call) bool {
		return len(c.Messages) > 0 && c.Messages[0].Role == "system"
	}
	req := Request{Participant: "a", Model: "o1-mini", Messages: []Message{{Role: "system", Content: "You are a debater."}, {Role: "user", Content: "q"}}}
	t.Run("adapted", func(t *testing.T) {
		t.Parallel()
		srv := providertest.New(t)
		srv.Script(func(c scripted.Call) scripted.Reply {
			if hasSystem(c) {
				return scripted.Raw(400, refusal)
			}
			return scripted.Text("Answer to " + c.Messages[0].Content)
		})
		c := newTestClient(t, srv, streamConfig(true, nil), Options{})
		for range 2 {
			resp, err := c.Complete(t.Context(), req)
			if err != nil || resp.Text != "Answer to You are a debater." {
				t.Fatalf("got %q, %v", resp.Text, err)
			}
		}
		if n := srv.Count(); n != 3 {
			t.Errorf("%d calls, want 3: one refused, then every call adapted", n)
		}
		a := c.Adaptations()
		if len(a) != 1 || a[0].Param != "system" || !strings.Contains(a[0].Reason, "does not support 'system'") {
			t.Errorf("adaptations %+v, want the system message's", a)
		}
	})
	t.Run("still refused", func(t *testing.T) {
		t.Parallel()
		srv := providertest.New(t)
		srv.ReplyTo("o1-mini", scripted.Raw(400, refusal))
		c := newTestClient(t, srv, streamConfig(true, nil), Options{})
		_, err := c.Complete(t.Context(), req)
		if e := asError(t, err); e.Class != ClassNoSystem || !e.Class.Consequence().FallBack {
			t.Errorf("got %v (%v), want a model unusable for this participant", e, e.Class)
		}
	})
}
