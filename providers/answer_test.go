package providers

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestAnswerAdd folds events into an answer one by one: each event must be
// exactly one JSON value, whatever came before it.
func TestAnswerAdd(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("y", 5000)
	delta := func(s string) string { return `{"model":"m","choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` }
	tests := []struct {
		name    string
		events  []string
		want    string // content folded before any error
		wantBad int    // index of the first event refused; -1 for none
	}{
		{"deltas", []string{delta("a"), delta("b"), `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`}, "ab", -1},
		{"an event larger than the decoder's buffer", []string{delta("a"), delta(big), delta("b")}, "a" + big + "b", -1},
		{"an event that is not JSON", []string{delta("a"), "nope", delta("b")}, "a", 1},
		{"an event cut inside a value is not joined to the next", []string{delta("a"), `{"choices":[{"index":0,"delta":{"content"`, `:"b"}}]}`}, "a", 1},
		{"two values in one event", []string{delta("a") + delta("b"), delta("c")}, "", 0},
		{"a stray brace after the value", []string{delta("a") + "}", delta("c")}, "", 0},
		{"a value cut at a large event's end", []string{`{"choices":[{"index":0,"delta":{"content":"` + big}, "", 0},
		{"an empty event", []string{""}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := &answer{}
			bad := -1
			for i, ev := range tt.events {
				if err := a.add([]byte(ev)); err != nil {
					if !errors.Is(err, errInvalidResponse) {
						t.Errorf("event %d: error %v is not an invalid response", i, err)
					}
					bad = i
					break
				}
			}
			if bad != tt.wantBad {
				t.Errorf("first event refused %d, want %d", bad, tt.wantBad)
			}
			if got := a.content.String(); got != tt.want {
				t.Errorf("content %.40q, want %.40q", got, tt.want)
			}
		})
	}
}

// FuzzAnswerAdd checks that an event is taken exactly when json.Unmarshal
// takes it alone, whatever event came before.
func FuzzAnswerAdd(f *testing.F) {
	f.Add(`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"model":"m"}`)
	f.Add(`{"choices":[{"index":0,"delta":{"content"`, `:"b"}}]}`)
	f.Add(`{"a":1} {"b":2}`, `{}`)
	f.Add(`{"usage":{"prompt_tokens":1,"cost":0.5}}`, `{"error":{"message":"x","code":502}}`)
	f.Fuzz(func(t *testing.T, first, second string) {
		a := &answer{}
		for _, ev := range []string{first, second} {
			var c chunk
			want := json.Unmarshal([]byte(ev), &c) == nil
			err := a.add([]byte(ev))
			if (err == nil) != want {
				t.Fatalf("add(%q) = %v; json.Unmarshal takes it: %v", ev, err, want)
			}
			if err != nil {
				return
			}
		}
	})
}
