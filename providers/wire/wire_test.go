package wire

import (
	"encoding/json"
	"testing"
)

func TestRequestEncode(t *testing.T) {
	t.Parallel()
	zero := 0.0
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"a temperature of 0 is sent", Request{Model: "m", Temperature: &zero},
			`{"model":"m","messages":null,"temperature":0}`},
		{"extra merged, own fields kept", Request{Model: "m", Stream: true, MaxTokens: 5, Extra: map[string]json.RawMessage{
			"reasoning_effort": json.RawMessage(`"high"`), "model": json.RawMessage(`"other"`),
			"stream": json.RawMessage(`false`), "max_tokens": json.RawMessage(`9`),
		}}, `{"max_tokens":9,"messages":null,"model":"m","reasoning_effort":"high","stream":true}`},
		{"content as text or parts", Request{Model: "m", Messages: []Message{
			{Role: "system", Content: Content{Text: "s"}},
			{Role: "user", Content: Content{Text: "ignored", Parts: []Part{{Type: "text", Text: "ab", CacheControl: Ephemeral}, {Type: "text", Text: "c"}}}},
		}}, `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"ab","cache_control":{"type":"ephemeral"}},{"type":"text","text":"c"}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.req.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Encode() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestDecodeCompletion reads the shapes of answers providers send.
func TestDecodeCompletion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                    string
		body                    string
		text, reasoning, finish string
		finishSet               bool
		prompt, billed          int
		unusable                bool
	}{
		{"content as a string", `{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`,
			"hi", "", "stop", true, 3, 1, false},
		{"content as thinking and text parts", `{"choices":[{"message":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"hm"},{"type":"text","text":"m"}]},{"type":"text","text":"yes"},{"type":"image_url","image_url":{"url":"x"}}]},"finish_reason":"stop"}]}`,
			"yes", "hmm", "stop", true, 0, 0, false},
		{"escapes JSON has and Go lacks", `{"choices":[{"message":{"content":"a\/b \ud83d\ude00\n\"q\" \u00e9"},"finish_reason":"stop"}]}`,
			"a/b \U0001F600\n\"q\" \u00e9", "", "stop", true, 0, 0, false},
		{"a null content and null reasoning", `{"choices":[{"message":{"content":null,"reasoning":null},"finish_reason":"length"}]}`,
			"", "", "length", true, 0, 0, false},
		{"a numeric finish reason", `{"choices":[{"message":{"content":"a"},"finish_reason":128009}]}`, "a", "", "128009", true, 0, 0, false},
		{"an empty finish reason is set", `{"choices":[{"message":{"content":"a"},"finish_reason":""}]}`, "a", "", "", true, 0, 0, false},
		{"no finish reason", `{"choices":[{"message":{"content":"a"}}]}`, "a", "", "", false, 0, 0, false},
		{"reasoning billed outside completion", `{"choices":[{"message":{"content":"a"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":303}}`,
			"a", "", "stop", true, 12, 291, false},
		{"counts written as floats and strings", `{"choices":[],"usage":{"prompt_tokens":12.0,"completion_tokens":"7","total_tokens":19}}`,
			"", "", "", false, 12, 7, false},
		{"an absurd count", `{"choices":[],"usage":{"prompt_tokens":1e30,"completion_tokens":7}}`, "", "", "", false, 0, 7, true},
		{"a negative count", `{"choices":[],"usage":{"prompt_tokens":-4,"completion_tokens":7}}`, "", "", "", false, 0, 7, true},
		{"a fraction", `{"choices":[],"usage":{"prompt_tokens":4.5,"completion_tokens":7}}`, "", "", "", false, 0, 7, true},
		{"details that are no object are left out", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"prompt_tokens_details":"x"}}`, "", "", "", false, 4, 7, false},
		{"a usage that is no object", `{"choices":[],"usage":[1,2]}`, "", "", "", false, 0, 0, true},
		{"a count past one call's", `{"choices":[],"usage":{"prompt_tokens":16777217,"completion_tokens":7}}`, "", "", "", false, 0, 7, true},
		{"a cost that is not a number", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"cost":"NaN"}}`, "", "", "", false, 4, 7, true},
		{"an infinite cost", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"cost":"+Inf"}}`, "", "", "", false, 4, 7, true},
		{"a negative cost", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"cost":-1e6}}`, "", "", "", false, 4, 7, true},
		{"a cost past one call's", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"cost":1e5}}`, "", "", "", false, 4, 7, true},
		{"a cost", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":7,"cost":0.0042}}`, "", "", "", false, 4, 7, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var c Completion
			if err := json.Unmarshal([]byte(tt.body), &c); err != nil {
				t.Fatalf("not read: %v", err)
			}
			var text, reasoning string
			var f FinishReason
			if len(c.Choices) > 0 {
				m := c.Choices[0].Message
				text, reasoning, f = m.Content.Text, m.Content.Reasoning+m.Reasoning, c.Choices[0].FinishReason
			}
			if text != tt.text || reasoning != tt.reasoning || f.Reason != tt.finish || f.Set != tt.finishSet {
				t.Errorf("text %q, reasoning %q, finish %q (set %v); want %q, %q, %q (%v)",
					text, reasoning, f.Reason, f.Set, tt.text, tt.reasoning, tt.finish, tt.finishSet)
			}
			if u := c.Usage; u != nil && (u.PromptTokens != tt.prompt || u.Billed() != tt.billed || u.Unusable != tt.unusable) {
				t.Errorf("usage prompt %d, billed %d, unusable %v; want %d, %d, %v", u.PromptTokens, u.Billed(), u.Unusable, tt.prompt, tt.billed, tt.unusable)
			}
		})
	}
}

func TestDecodeError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, reason string
		ok                 bool
	}{
		{"OpenAI", `{"error":{"message":"Invalid model","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			"Invalid model (code model_not_found)", true},
		{"a gateway's nested upstream reason", `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"Acme","raw":"acme/m is rate-limited upstream"}}}`,
			"Provider returned error: upstream Acme says: acme/m is rate-limited upstream (code 429)", true},
		{"an upstream reason that is itself an error body", `{"error":{"message":"Provider returned error","metadata":{"raw":"{\"error\":{\"message\":\"quota\"}}"}}}`,
			"Provider returned error: upstream says: quota", true},
		{"an error as a string", `{"error":"model not loaded"}`, "model not loaded", true},
		{"a list of errors", `[{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}]`, "Resource exhausted (code 429)", true},
		{"a message alone", `{"message":"Unauthorized"}`, "Unauthorized", true},
		{"Cloudflare's envelope", `{"result":null,"success":false,"errors":[{"code":7009,"message":"Upstream service unavailable"}],"messages":[]}`,
			"Upstream service unavailable (code 7009)", true},
		{"no error", `{"choices":[]}`, "", false},
		{"not JSON", `<html>502</html>`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, ok := DecodeError([]byte(tt.body))
			if ok != tt.ok || ok && d.Reason() != tt.reason {
				got := ""
				if d != nil {
					got = d.Reason()
				}
				t.Errorf("DecodeError = %q, %v; want %q, %v", got, ok, tt.reason, tt.ok)
			}
		})
	}
}

// FuzzDecode checks that any answer or error body decodes without a panic,
// and that usage never fails an answer that is JSON otherwise.
func FuzzDecode(f *testing.F) {
	f.Add(`{"choices":[{"message":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t"}]}]},"finish_reason":3}],"usage":{"prompt_tokens":"1e30"}}`)
	f.Add(`{"error":{"message":"x","metadata":{"raw":"{\"error\":{\"message\":\"y\"}}"}}}`)
	f.Add(`[{"error":"z"}]`)
	f.Fuzz(func(t *testing.T, body string) {
		var c Completion
		err := json.Unmarshal([]byte(body), &c)
		var plain struct {
			Usage json.RawMessage `json:"usage"`
		}
		if err != nil && json.Unmarshal([]byte(body), &plain) == nil && len(plain.Usage) > 0 {
			var without map[string]json.RawMessage
			if json.Unmarshal([]byte(body), &without) == nil {
				delete(without, "usage")
				b, _ := json.Marshal(without)
				if json.Unmarshal(b, &Completion{}) == nil {
					t.Fatalf("%s: the usage failed an answer: %v", body, err)
				}
			}
		}
		if d, ok := DecodeError([]byte(body)); ok {
			_ = d.Reason()
		}
	})
}
