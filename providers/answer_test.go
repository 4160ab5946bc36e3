package providers

import (
	"bufio"
	"errors"
	"strings"
	"testing"
)

// sse frames events as a stream: one data line each, blank lines between.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// TestReadStream folds the streams providers send into one answer.
func TestReadStream(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("y", 5000)
	delta := func(s string) string { return `{"model":"m","choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` }
	stop := `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	usage := `{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}`
	tests := []struct {
		name      string
		body      string
		text      string
		reasoning string
		finish    string
		invalid   bool // the stream is refused as an invalid response
	}{
		{"deltas", sse(delta("a"), delta("b"), stop, "[DONE]"), "ab", "", "stop", false},
		{"an event larger than the buffer", sse(delta("a"), delta(big), stop), "a" + big, "", "stop", false},
		{"an event that is not JSON", sse(delta("a"), "nope", stop), "a", "", "", true},
		{"two values in one event", sse(delta("a")+delta("b"), stop), "", "", "", true},
		{"no finish reason, no [DONE]: cut short", sse(delta("a"), usage), "a", "", "", true},
		{"no finish reason but [DONE]: finished", sse(delta("a"), usage, "[DONE]"), "a", "", "", false},
		{"an empty finish reason mid-stream is no finish", sse(`{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":""}]}`, delta("b"), stop),
			"ab", "", "stop", false},
		{"text after the finish reason is not the answer's", sse(delta("a"), stop, delta("late")), "a", "", "stop", false},
		{"thinking parts, then text", sse(
			`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay"}]}]}}]}`,
			`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":", so"}]}]}}]}`,
			delta("Yes."), stop, "[DONE]"), "Yes.", "Okay, so", "stop", false},
		{"reasoning fields kept apart", sse(`{"choices":[{"index":0,"delta":{"reasoning_content":"r1"}}]}`,
			`{"choices":[{"index":0,"delta":{"reasoning":"r2","content":null}}]}`, delta("x"), stop), "x", "r1r2", "stop", false},
		{"a reason not in the API's list", sse(delta("a"), `{"choices":[{"index":0,"delta":{},"finish_reason":"eos"}]}`), "a", "", "eos", false},
		{"a numeric reason", sse(delta("a"), `{"choices":[{"index":0,"delta":{},"finish_reason":7}]}`), "a", "", "7", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := readStream(bufio.NewReaderSize(strings.NewReader(tt.body), 64), nil)
			if got := errors.Is(err, errInvalidResponse); got != tt.invalid || err != nil && !tt.invalid {
				t.Fatalf("error %v, want an invalid response: %v", err, tt.invalid)
			}
			if err != nil {
				return
			}
			if a.content.String() != tt.text || a.reasoning.String() != tt.reasoning || a.finish != tt.finish || !a.finished {
				t.Errorf("text %.40q, reasoning %q, finish %q (finished %v); want %.40q, %q, %q",
					a.content.String(), a.reasoning.String(), a.finish, a.finished, tt.text, tt.reasoning, tt.finish)
			}
		})
	}
}

// FuzzReadStream checks that any stream reads without a panic and that an
// answer is finished or refused.
func FuzzReadStream(f *testing.F) {
	f.Add(sse(`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, "[DONE]"))
	f.Add(sse(`{"choices":[{"index":0,"delta":{"content"`, `:"b"}}]}`))
	f.Add(sse(`{"usage":{"prompt_tokens":1e99,"cost":"x"}}`, `{"error":{"message":"x","code":502}}`))
	f.Add(sse(`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"a"}]},"finish_reason":1}]}`))
	f.Fuzz(func(t *testing.T, body string) {
		a, err := readStream(bufio.NewReaderSize(strings.NewReader(body), 16), nil)
		if err == nil && !a.finished && a.err == nil {
			t.Fatalf("%q: accepted an answer that did not finish", body)
		}
	})
}
