package scripted

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// serve serves s on a socket until the test ends and returns its base URL.
func serve(t *testing.T, s *Server) string {
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return hs.URL + "/v1"
}

// postStream sends a streamed chat request, with include_usage, for model.
func postStream(t *testing.T, c *http.Client, url, model string) (*http.Response, []byte) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"model": model, "stream": true, "stream_options": map[string]any{"include_usage": true},
		"messages": []map[string]string{{"role": "user", "content": "hello there"}}})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, out
}

func TestStreamShape(t *testing.T) {
	transports(t, func(t *testing.T, s *Server, c *http.Client, base string) {
		s.ReplyTo("m", Reply{Text: "the answer, in pieces", Reasoning: "first I think", KeepAlives: 2, Cost: 0.5, CachedTokens: 2})
		res, body := postStream(t, c, base+"/chat/completions", "m")
		if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("content type %q", ct)
		}
		text := string(body)
		if !strings.HasPrefix(text, ": OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\ndata: ") || !strings.HasSuffix(text, "data: [DONE]\n\n") {
			t.Errorf("stream:\n%s", text)
		}
		var content, reasoning strings.Builder
		var finish string
		var usage map[string]any
		for _, ev := range strings.Split(strings.TrimSpace(text), "\n\n") {
			data, ok := strings.CutPrefix(ev, "data: ")
			if !ok || data == "[DONE]" {
				continue
			}
			var ch struct {
				Choices []struct {
					Delta struct {
						Content   string `json:"content"`
						Reasoning string `json:"reasoning"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage map[string]any `json:"usage"`
			}
			if err := json.Unmarshal([]byte(data), &ch); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			if ch.Usage != nil {
				if len(ch.Choices) != 0 {
					t.Errorf("the usage chunk has choices: %s", data)
				}
				usage = ch.Usage
			}
			for _, c := range ch.Choices {
				content.WriteString(c.Delta.Content)
				reasoning.WriteString(c.Delta.Reasoning)
				if c.FinishReason != nil {
					finish = *c.FinishReason
				}
			}
		}
		if content.String() != "the answer, in pieces" || reasoning.String() != "first I think" || finish != "stop" {
			t.Errorf("content %q, reasoning %q, finish %q", content.String(), reasoning.String(), finish)
		}
		if usage["cost"] != 0.5 || usage["prompt_tokens_details"].(map[string]any)["cached_tokens"] != 2.0 {
			t.Errorf("usage %v", usage)
		}
	})
}

func TestGatewayCutsLateResponses(t *testing.T) {
	t.Parallel()
	s := New(WithGateway(50 * time.Millisecond))
	url := serve(t, s)
	s.ReplyTo("m", Reply{Text: "late", Delay: 100 * time.Millisecond})
	res, body, err := post(t, &http.Client{}, url+"/chat/completions", "m", "q")
	if err != nil || res.StatusCode != StatusGatewayTimeout || string(body) != "error code: 524" {
		t.Errorf("not streamed: %v %q %v; want Cloudflare's 524", res.StatusCode, body, err)
	}
	res, body = postStream(t, &http.Client{}, url+"/chat/completions", "m")
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"content":"late"`) {
		t.Errorf("streamed: %v %s; want the answer", res.StatusCode, body)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	s := New()
	url := serve(t, s)
	s.Refuse("my-o3", RefuseMaxTokens(), RefuseTemperature())
	send := func(fields map[string]any) (int, string) {
		fields["model"] = "my-o3"
		fields["messages"] = []map[string]string{{"role": "user", "content": "q"}}
		b, _ := json.Marshal(fields)
		res, err := http.Post(url+"/chat/completions", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(out)
	}
	tests := []struct {
		fields map[string]any
		status int
		want   string
	}{
		{map[string]any{"max_tokens": 5, "temperature": 0.7}, 400, `Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.`},
		{map[string]any{"max_completion_tokens": 5, "temperature": 0.7}, 400, `Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.`},
		{map[string]any{"max_completion_tokens": 5, "temperature": 1}, 200, `"finish_reason":"stop"`},
	}
	for _, tt := range tests {
		if status, body := send(tt.fields); status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%v: %d %s; want %d with %q", tt.fields, status, body, tt.status, tt.want)
		}
	}
}

// TestAppendString checks that a piece of text is sent as the JSON string
// encoding/json would send, whether it needs escapes or not.
func TestAppendString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain text, «quoted»", `a "quote" and a \`, "a\nnew line\t", "<b>&</b>", "\xff\xfe", "\u2028"} {
		var got, want string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		b, _ := json.Marshal(s)
		json.Unmarshal(b, &want)
		if got != want {
			t.Errorf("%q reads back as %q, want %q", s, got, want)
		}
	}
}
