package wire

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// readAll reads every event of body through a buffer of size bytes,
// returning their data, whether [DONE] came, the junk and the error that
// ended them (nil at io.EOF).
func readAll(body string, size int) ([]string, bool, string, error) {
	e := NewEvents(bufio.NewReaderSize(strings.NewReader(body), size))
	var out []string
	for {
		data, err := e.Next()
		if errors.Is(err, io.EOF) {
			return out, e.Done(), string(e.Junk()), nil
		}
		if err != nil {
			return out, e.Done(), string(e.Junk()), err
		}
		out = append(out, string(data))
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	long := `{"choices":[{"delta":{"content":"` + strings.Repeat("x", 100) + `"}}]}`
	tests := []struct {
		name     string
		body     string
		want     []string
		wantDone bool
		wantJunk string
	}{
		{"events", "data: {\"a\":1}\ndata:{\"b\":2}\r\n  data: \t{\"c\":3}  \ndata: [DONE]\n", []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, true, ""},
		{"a line longer than the buffer", "data: " + long + "\ndata: [DONE]\n", []string{long}, true, ""},
		{"comments, blank lines and other fields skipped", ": OPENROUTER PROCESSING\n\nevent: x\nid: 1\nretry: 3\ndata: {}\n\ndata: [DONE]\n", []string{`{}`}, true, ""},
		{"nothing read after [DONE]", "data: [DONE]\ndata: {}\n", nil, true, ""},
		{"an error body in lines that are not events", "{\n\"error\": {\"message\": \"bad key\"}\n}\n", nil, false, `{"error": {"message": "bad key"}}`},
		{"no [DONE]", "data: {}\n", []string{`{}`}, false, ""},
		{"a last line without its newline", "data: {}\ndata: {\"a\"", []string{`{}`, `{"a"`}, false, ""},
		{"an empty data line", "data:\ndata: {}\n", []string{`{}`}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, done, junk, err := readAll(tt.body, 16)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || done != tt.wantDone || junk != tt.wantJunk {
				t.Errorf("events %q, done %v, junk %q; want %q, %v, %q", got, done, junk, tt.want, tt.wantDone, tt.wantJunk)
			}
		})
	}
}

// FuzzEvents checks that any body reads without a panic, that after [DONE]
// nothing more is read, and that every event is a data line's content.
func FuzzEvents(f *testing.F) {
	f.Add("data: {\"a\":1}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"error\":{\"message\":\"x\"}}\n")
	f.Add("{\"error\":\n{\"message\":\"x\"}}")
	f.Fuzz(func(t *testing.T, body string) {
		e := NewEvents(bufio.NewReaderSize(strings.NewReader(body), 16))
		for range len(body) + 2 {
			data, err := e.Next()
			if err != nil {
				if data, err := e.Next(); data != nil || !errors.Is(err, io.EOF) {
					t.Fatalf("after the end: %q, %v", data, err)
				}
				return
			}
			if !strings.Contains(body, string(data)) {
				t.Fatalf("event %q is not in the body", data)
			}
		}
		t.Fatalf("more events than lines in %q", body)
	})
}
