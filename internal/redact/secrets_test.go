package redact

import "testing"

// testKey is a long key, as a provider's API key is.
const testKey = "sk-test-7f3a9c0e5b21d84f"

func TestSecretsShortKeysOnlyWholeTokens(t *testing.T) {
	t.Parallel()
	long := "sk-live-0123456789abcdef"
	r := NewSecrets([]string{"none", "x", long})
	for _, tc := range []struct{ in, want string }{
		{"There are none of the issues", "There are [REDACTED] of the issues"}, // an error or a log line: a key can be there
		{"nonetheless flaxy-model", "nonetheless flaxy-model"},
		{"model flaky-model at http://127.0.0.1:8080/v1", "model flaky-model at http://127.0.0.1:8080/v1"},
		{"key=x&y=1", "key=[REDACTED]&y=1"},
		{"Bearer none", "Bearer [REDACTED]"},
		{"prefix" + long + "suffix", "prefix[REDACTED]suffix"},
	} {
		if got := r.Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSecretsBodyKeepsModelText(t *testing.T) {
	t.Parallel()
	r := NewSecrets([]string{"none", "sk-live-0123456789abcdef"})
	for _, tc := range []struct{ name, in, want string }{
		{"request messages", `{"model":"m","messages":[{"role":"user","content":"none of the parties"}]}`, ""},
		{"response choices", `{"choices":[{"message":{"content":"none of it","reasoning":"none"}}]}`, ""},
		{"long key echoed into content", `{"choices":[{"message":{"content":"none of sk-live-0123456789abcdef"}}]}`,
			`{"choices":[{"message":{"content":"none of [REDACTED]"}}]}`},
		{"error echo", `{"error":{"message":"bad key none"}}`, `{"error":{"message":"bad key [REDACTED]"}}`},
		{"not JSON", `<html>key none</html>`, `<html>key [REDACTED]</html>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := string(r.Body([]byte(tc.in))); got != want {
				t.Errorf("Body(%s) = %s, want %s", tc.in, got, want)
			}
		})
	}
}

func TestSecretsBodyEvents(t *testing.T) {
	t.Parallel()
	r := NewSecrets([]string{"none", testKey})
	in := "data: {\"choices\":[{\"delta\":{\"content\":\"none of the parties\"}}],\"x\":\"none\"}\n" +
		"data: {\"error\":{\"message\":\"bad key " + testKey + "\"}}\n" +
		"data: [DONE]\n"
	want := "data: {\"choices\":[{\"delta\":{\"content\":\"none of the parties\"}}],\"x\":\"[REDACTED]\"}\n" +
		"data: {\"error\":{\"message\":\"bad key [REDACTED]\"}}\n" +
		"data: [DONE]\n"
	if got := string(r.Body([]byte(in))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
