package providers

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// readAll reads every event of body, returning their data and the error
// that ended them (nil after [DONE]).
func readAll(body string, limit uint, size int) ([]string, error) {
	e := &events{r: bufio.NewReaderSize(strings.NewReader(body), size), limit: limit}
	var out []string
	for {
		data, err := e.next()
		if errors.Is(err, io.EOF) && e.done {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	long := `{"choices":[{"delta":{"content":"` + strings.Repeat("x", 100) + `"}}]}`
	tests := []struct {
		name    string
		body    string
		limit   uint
		want    []string
		wantErr string // "" for a stream that ended with [DONE]
	}{
		{"events", "data: {\"a\":1}\ndata:{\"b\":2}\r\n  data: \t{\"c\":3}  \ndata: [DONE]\n", 300,
			[]string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, ""},
		{"a line longer than the buffer", "data: " + long + "\ndata: [DONE]\n", 300, []string{long}, ""},
		{"an error event", "data: {\"a\":1}\ndata: {\"error\":{\"message\":\"overloaded\",\"code\":\"busy\"}}\n", 300,
			[]string{`{"a":1}`}, "error, overloaded"},
		{"an error event that is not JSON is passed on", "data: {\"error\": nope\ndata: [DONE]\n", 300,
			[]string{`{"error": nope`}, ""},
		{"an error body in lines that are not events", "{\n\"error\": {\"message\": \"bad key\"}\n}\n", 300,
			nil, "error, bad key"},
		{"other lines up to the limit", "event: x\nid: 1\ndata: {}\ndata: [DONE]\n", 2, []string{`{}`}, ""},
		{"other lines past the limit", "event: x\nid: 1\nretry: 3\ndata: {}\n", 2, nil, openai.ErrTooManyEmptyStreamMessages.Error()},
		// The limit is on the lines between two events, as go-openai
		// counts them: a long answer's blank separators never add up.
		{"the limit counts anew after each event", strings.Repeat("data: {}\n\n: keep-alive\n", 5) + "data: [DONE]\n", 2,
			[]string{`{}`, `{}`, `{}`, `{}`, `{}`}, ""},
		{"no [DONE]", "data: {}\n", 300, []string{`{}`}, io.EOF.Error()},
		{"a last line cut short is dropped", "data: {}\ndata: {\"a\"", 300, []string{`{}`}, io.EOF.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := readAll(tt.body, tt.limit, 16)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("events %q, want %q", got, tt.want)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			var api *openai.APIError
			if isAPI := strings.HasPrefix(tt.wantErr, "error, "); errors.As(err, &api) != isAPI {
				t.Errorf("error %v (%T): an *openai.APIError is %v, want %v", err, err, !isAPI, isAPI)
			}
		})
	}
}

// FuzzEvents checks that any body reads without a panic, that after [DONE]
// nothing more is read, and that every event is a data line's content.
func FuzzEvents(f *testing.F) {
	f.Add("data: {\"a\":1}\n\ndata: [DONE]\n\n", uint(3))
	f.Add("data: {\"error\":{\"message\":\"x\"}}\n", uint(300))
	f.Add("{\"error\":\n{\"message\":\"x\"}}", uint(0))
	f.Fuzz(func(t *testing.T, body string, limit uint) {
		e := &events{r: bufio.NewReaderSize(strings.NewReader(body), 16), limit: limit % 1000}
		for range len(body) + 2 {
			data, err := e.next()
			if err != nil {
				if e.done {
					if data, err := e.next(); data != nil || !errors.Is(err, io.EOF) {
						t.Fatalf("after [DONE]: %q, %v", data, err)
					}
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

// FuzzStreamBodyDrop checks that dropping comment and blank lines gives the
// same bytes as doing it byte by byte, however the body is split into reads.
func FuzzStreamBodyDrop(f *testing.F) {
	f.Add(": OPENROUTER PROCESSING\n\ndata: {\"a\":1}\r\n\r\ndata: [DONE]\n\n", 7)
	f.Add("data: x\n: comment\n\n:\ndata: y", 0)
	f.Fuzz(func(t *testing.T, body string, at int) {
		want := dropBytes([]byte(body))
		at = min(max(at, 0), len(body))
		s := &streamBody{}
		first, second := []byte(body[:at]), []byte(body[at:])
		got := append(first[:s.drop(first)], second[:s.drop(second)]...)
		if string(got) != string(want) {
			t.Fatalf("drop(%q) split at %d = %q, want %q", body, at, got, want)
		}
	})
}

// dropBytes is drop as a plain loop over the bytes.
func dropBytes(b []byte) []byte {
	var out []byte
	mid, comment := false, false
	for _, c := range b {
		switch {
		case comment:
			comment = c != '\n'
			continue
		case !mid && c == ':':
			comment = true
			continue
		case !mid && (c == '\n' || c == '\r'):
			continue
		}
		out = append(out, c)
		mid = c != '\n'
	}
	return out
}
