package providers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// body is a 200 whose body is one JSON answer.
func body(s string) scripted.Reply {
	return scripted.Reply{RawBody: s, Headers: http.Header{"Content-Type": {"application/json"}}}
}

// TestAnswersReadByWhatTheyHold: an answer is what its choice holds,
// whatever else the choice carries, and in whichever mode it was asked
// for (a body in both): a body's message beside an empty delta, a stream's only choice
// whatever its index, the first of several choices, log probabilities
// beside the text, one JSON body for a streamed request.
func TestAnswersReadByWhatTheyHold(t *testing.T) {
	t.Parallel()
	chunk := func(index, content, finish string) string {
		return `{"model":"m","choices":[{"index":` + index + `,"delta":{"content":"` + content + `"},"finish_reason":` + finish + `}]}`
	}
	tests := []struct {
		name  string
		reply scripted.Reply
		want  string
	}{
		{"a body's message beside an empty delta", body(`{"model":"m","choices":[{"index":0,"delta":{},"message":{"role":"assistant","content":"Cross at the ford."},"finish_reason":"stop"}]}`),
			"Cross at the ford."},
		{"a body's message beside a null delta", body(`{"model":"m","choices":[{"index":0,"delta":null,"message":{"role":"assistant","content":"Cross at the ford."},"finish_reason":"stop"}]}`),
			"Cross at the ford."},
		{"a stream whose only choice is numbered 1, 2, 3", eventStream(chunk("1", "Cross ", "null"), chunk("2", "at the ", "null"), chunk("3", "ford.", "null"), chunk("4", "", `"stop"`), "[DONE]"),
			"Cross at the ford."},
		{"a stream whose only choice is numbered 1 throughout", eventStream(chunk("1", "Cross ", "null"), chunk("1", "at the ford.", `"stop"`), "[DONE]"),
			"Cross at the ford."},
		{"a body whose only choice is numbered 1", body(`{"choices":[{"index":1,"message":{"content":"Cross at the ford."},"finish_reason":"stop"}]}`),
			"Cross at the ford."},
		{"a body of several choices keeps the first", body(`{"choices":[{"index":0,"message":{"content":"Cross at the ford."},"finish_reason":"stop"},{"index":1,"message":{"content":"Swim."},"finish_reason":"stop"}]}`),
			"Cross at the ford."},
		{"a stream of several choices keeps the first", eventStream(
			`{"choices":[{"index":0,"delta":{"content":"Cross "}},{"index":1,"delta":{"content":"Swim"}}]}`,
			`{"choices":[{"index":1,"delta":{"content":"."}},{"index":0,"delta":{"content":"at the ford."}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}]}`, "[DONE]"),
			"Cross at the ford."},
		{"a body with logprobs", body(`{"choices":[{"index":0,"message":{"content":"Cross at the ford."},"logprobs":{"content":[{"token":"Cross","logprob":-0.01,"bytes":[67],"top_logprobs":[]}]},"finish_reason":"stop"}]}`),
			"Cross at the ford."},
		{"a stream with logprobs", eventStream(
			`{"choices":[{"index":0,"delta":{"content":"Cross at "},"logprobs":{"content":[{"token":"Cross","logprob":-0.01}]},"finish_reason":null}]}`,
			`{"choices":[{"index":0,"delta":{"content":"the ford."},"logprobs":{"content":[{"token":" ford","logprob":-0.2}]},"finish_reason":"stop"}]}`, "[DONE]"),
			"Cross at the ford."},
		{"a streamed request answered with one JSON body", scripted.Reply{Text: "Cross at the ford.", IgnoreStream: true},
			"Cross at the ford."},
	}
	for _, tt := range tests {
		for _, stream := range []bool{true, false} {
			if !stream && tt.reply.Headers.Get("Content-Type") == "text/event-stream" {
				continue // events answer only a streamed request
			}
			name := tt.name + map[bool]string{true: ", streamed", false: ", not streamed"}[stream]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv := providertest.New(t)
				srv.ReplyTo("m", tt.reply)
				c := newTestClient(t, srv, streamConfig(stream, func(c *configs.Config) { c.API.MaxRetries = ptr(0) }), Options{})
				resp, err := c.Complete(t.Context(), ask("a", "m", "q"))
				if err != nil {
					t.Fatal(err)
				}
				if resp.Text != tt.want {
					t.Errorf("answer %q, want %q", resp.Text, tt.want)
				}
			})
		}
	}
}

// TestShapesUsersMeet: what no recording shows and users meet, classified
// as the attempt loop needs it: a gateway's HTML page is a server error
// worth a retry, and says which page it was; an error event after some
// text fails the attempt, its text unused; a 200 without choices is an
// invalid response; tool calls alone are no answer.
func TestShapesUsersMeet(t *testing.T) {
	t.Parallel()
	errorEvent := eventStream(
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Cross at "},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"content":"the"},"finish_reason":null}]}`)
	errorEvent.RawBody += "event: error\ndata: {\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\"}}\n\n"
	tests := []struct {
		name  string
		reply scripted.Reply
		class Class
		says  string
	}{
		{"Cloudflare's 502 page", scripted.GatewayPage(502, "cloudflare"), ClassServerError, "HTML page: api.example.com | 502: Bad Gateway"},
		{"Cloudflare's 503 page", scripted.GatewayPage(503, "cloudflare"), ClassServerError, "503: Service Unavailable"},
		{"nginx's 502 page", scripted.GatewayPage(502, "nginx"), ClassServerError, "HTML page: 502 Bad Gateway"},
		{"nginx's 504 page", scripted.GatewayPage(504, "nginx"), ClassServerError, "HTML page: 504 Gateway Timeout"},
		{"an error event after some text", errorEvent, ClassErrorInAnswer, "Overloaded"},
		{"a 200 with empty choices", body(`{"id":"x","object":"chat.completion","model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":0}}`),
			ClassInvalidResponse, "no choices"},
		{"tool calls alone", scripted.ToolCalls("lookup"), ClassEmpty, "tool calls came back instead of an answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := completeOnce(t, tt.reply)
			e := asError(t, err)
			if e.Class != tt.class || !strings.Contains(e.Error(), tt.says) || resp.Text != "" {
				t.Errorf("got %s: %v (text %q); want %s saying %q", e.Class, e, resp.Text, tt.class, tt.says)
			}
		})
	}
}
