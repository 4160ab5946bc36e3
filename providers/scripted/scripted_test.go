package scripted

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// post sends a chat request for model with the given user messages.
func post(t *testing.T, c *http.Client, url, model string, msgs ...string) (*http.Response, []byte, error) {
	t.Helper()
	body := map[string]any{"model": model, "messages": []map[string]string{}}
	for _, m := range msgs {
		body["messages"] = append(body["messages"].([]map[string]string), map[string]string{"role": "user", "content": m})
	}
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer sk-x")
	res, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return res, out, err
}

type completion struct {
	Model   string `json:"model"`
	Choices []struct {
		Message      Message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"error"`
}

func decode(t *testing.T, b []byte) completion {
	t.Helper()
	var c completion
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return c
}

func content(t *testing.T, b []byte) string {
	t.Helper()
	c := decode(t, b)
	if len(c.Choices) != 1 {
		t.Fatalf("want one choice in %s", b)
	}
	return c.Choices[0].Message.Content
}

// transports runs f against the socket server and the in-memory transport.
func transports(t *testing.T, f func(t *testing.T, s *Server, c *http.Client, base string)) {
	t.Run("socket", func(t *testing.T) {
		s := New()
		hs := httptest.NewServer(s)
		t.Cleanup(hs.Close)
		f(t, s, &http.Client{}, hs.URL+"/v1")
	})
	t.Run("memory", func(t *testing.T) {
		s := New()
		f(t, s, s.HTTPClient(), MemoryURL)
	})
}

func TestReplyPrecedence(t *testing.T) {
	transports(t, func(t *testing.T, s *Server, c *http.Client, base string) {
		s.Script(func(c Call) Reply { return Text("script " + c.Model) })
		s.When("weather", Text("rule: weather"))
		s.ReplyTo("m1", Text("rule: m1"))
		s.Enqueue("", Text("any-model queue"))
		s.Enqueue("m1", Text("m1 queue 1"), Text("m1 queue 2"))
		steps := []struct {
			model, msg, want string
		}{
			{"m1", "hello", "m1 queue 1"},
			{"m2", "hello", "any-model queue"},
			{"m1", "weather", "m1 queue 2"},
			{"m1", "weather", "rule: weather"}, // rules in the order added
			{"m1", "hello", "rule: m1"},
			{"m2", "hello", "script m2"},
		}
		for i, st := range steps {
			_, b, err := post(t, c, base+"/chat/completions", st.model, st.msg)
			if err != nil {
				t.Fatal(err)
			}
			if got := content(t, b); got != st.want {
				t.Errorf("step %d: got %q, want %q", i, got, st.want)
			}
		}
		if s.Count() != len(steps) || s.CountModel("m1") != 4 {
			t.Errorf("count %d, m1 %d", s.Count(), s.CountModel("m1"))
		}
	})
}

func TestDefaultReply(t *testing.T) {
	s := New()
	_, b, err := post(t, s.HTTPClient(), MemoryURL+"/chat/completions", "m", "what now?")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := content(t, b), `answer from m to "what now?"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	s2 := New(WithDefault(Fenced(map[string]int{"a": 1})))
	_, b, _ = post(t, s2.HTTPClient(), MemoryURL+"/chat/completions", "m", "x")
	if got := content(t, b); !strings.Contains(got, "```json\n{\"a\":1}\n```") {
		t.Errorf("fenced reply = %q", got)
	}
}

func TestCallLog(t *testing.T) {
	s := New()
	c := s.HTTPClient()
	post(t, c, MemoryURL+"/chat/completions", "m", "a", "b")
	post(t, c, MemoryURL+"/chat/completions", "m", "a", "b")
	post(t, c, "http://x.invalid/other/chat/completions", "m", "c")
	calls := s.Calls()
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	want := []struct {
		seq, attempt int
		path, last   string
	}{
		{1, 1, "/v1/chat/completions", "b"},
		{2, 2, "/v1/chat/completions", "b"},
		{3, 1, "/other/chat/completions", "c"},
	}
	for i, w := range want {
		c := calls[i]
		if c.Seq != w.seq || c.Attempt != w.attempt || c.Path != w.path || c.Last() != w.last || !c.Authorized {
			t.Errorf("call %d = seq %d attempt %d path %s last %q auth %v; want %+v", i, c.Seq, c.Attempt, c.Path, c.Last(), c.Authorized, w)
		}
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		reply                  Reply
		msg                    string
		wantPrompt, wantOutput int
	}{
		{Text("12345678"), "1234", 1, 2},
		{Text("123456789"), "12345", 2, 3},
		{Reply{Text: "x", PromptTokens: 100, CompletionTokens: 7}, "y", 100, 7},
	}
	for i, tt := range tests {
		s := New(WithDefault(tt.reply))
		_, b, err := post(t, s.HTTPClient(), MemoryURL+"/chat/completions", "m", tt.msg)
		if err != nil {
			t.Fatal(err)
		}
		u := decode(t, b).Usage
		if u.PromptTokens != tt.wantPrompt || u.CompletionTokens != tt.wantOutput {
			t.Errorf("%d: usage %+v, want %d/%d", i, u, tt.wantPrompt, tt.wantOutput)
		}
	}
}

func TestErrorReplies(t *testing.T) {
	tests := []struct {
		name       string
		reply      Reply
		status     int
		retryAfter string
		body       string // substring expected in the body
	}{
		{"rate limited", RateLimited("3"), 429, "3", `"code":"rate_limit_exceeded"`},
		{"status", Status(503, "overloaded"), 503, "", `"message":"overloaded"`},
		{"status text", Reply{Status: 500}, 500, "", `"message":"Internal Server Error"`},
		{"context length", ContextLengthExceeded(), 400, "", `"code":"context_length_exceeded"`},
		{"raw", Raw(502, "<html>bad gateway</html>"), 502, "", "<html>bad gateway</html>"},
		{"echo", Reply{Status: 401, EchoAuthorization: true}, 401, "", "Bearer sk-x"},
	}
	for _, tt := range tests {
		transports(t, func(t *testing.T, s *Server, c *http.Client, base string) {
			t.Run(tt.name, func(t *testing.T) {
				s.Enqueue("m", tt.reply)
				res, b, err := post(t, c, base+"/chat/completions", "m", "x")
				if err != nil {
					t.Fatal(err)
				}
				if res.StatusCode != tt.status || res.Header.Get("Retry-After") != tt.retryAfter || !strings.Contains(string(b), tt.body) {
					t.Errorf("status %d, Retry-After %q, body %s", res.StatusCode, res.Header.Get("Retry-After"), b)
				}
			})
		})
	}
}

func TestCutConnection(t *testing.T) {
	transports(t, func(t *testing.T, s *Server, c *http.Client, base string) {
		s.Enqueue("m", Cut())
		if _, _, err := post(t, c, base+"/chat/completions", "m", "x"); err == nil {
			t.Fatal("want a transport error for a cut connection")
		}
		if _, b, err := post(t, c, base+"/chat/completions", "m", "x"); err != nil || content(t, b) == "" {
			t.Errorf("the next call should succeed: %v", err)
		}
	})
}

func TestRoutes(t *testing.T) {
	transports(t, func(t *testing.T, s *Server, c *http.Client, base string) {
		root := strings.TrimSuffix(base, "/v1")
		for _, p := range []string{"/chat/completions", "/v1/chat/completions", "/a/b/v1/chat/completions"} {
			if res, _, err := post(t, c, root+p, "m", "x"); err != nil || res.StatusCode != 200 {
				t.Errorf("POST %s: %v %v", p, res, err)
			}
		}
		if res, _, err := post(t, c, root+"/v1/completions", "m", "x"); err != nil || res.StatusCode != 404 {
			t.Errorf("POST /v1/completions should be 404: %v %v", res, err)
		}
	})
}

func TestMaxInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(WithLatency(time.Second))
		s.ReplyTo("slow", Reply{Text: "x", Delay: time.Second})
		c := s.HTTPClient()
		var wg sync.WaitGroup
		for i := range 9 {
			model := []string{"fast", "slow", "fast"}[i%3]
			path := []string{"/a/chat/completions", "/b/chat/completions"}[i%2]
			wg.Go(func() { post(t, c, "http://x.invalid"+path, model, fmt.Sprint(i)) })
		}
		wg.Wait()
		if s.MaxInFlight() != 9 || s.MaxInFlightPath("/a/chat/completions") != 5 || s.MaxInFlightPath("/b/chat/completions") != 4 {
			t.Errorf("in flight: all %d, a %d, b %d", s.MaxInFlight(),
				s.MaxInFlightPath("/a/chat/completions"), s.MaxInFlightPath("/b/chat/completions"))
		}
	})
}

func TestDelayEndsWithClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(WithDefault(Reply{Text: "late", Delay: time.Hour}))
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, MemoryURL+"/chat/completions", strings.NewReader(`{"model":"m","messages":[]}`))
		start := time.Now()
		_, err := s.HTTPClient().Do(req)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Errorf("err %v after %v, want a deadline error after 1s", err, time.Since(start))
		}
	})
}
