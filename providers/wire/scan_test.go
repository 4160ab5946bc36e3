package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSeeds are events in the shapes providers stream.
var chunkSeeds = []string{
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"finish_reason":null}]}`,
	`{"choices":[{"index":2,"delta":{"content":"x","tool_calls":null},"logprobs":{"content":[{"token":"x","logprob":-0.1}]},"finish_reason":null}]}`,
	`{"id":"c1","object":"chat.completion.chunk","created":1764296393,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a \"quoted\"\nline \u00e9 \/"},"logprobs":null,"finish_reason":null}],"system_fingerprint":"fp"}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"r","content":null},"finish_reason":"stop"}]}`,
	`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t"}]}]}}]}`,
	`{"choices":[{"index":0,"delta":{},"finish_reason":128009}],"usage":{"prompt_tokens":1}}`,
	`{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":303}}`,
	`{"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a"}}]}`,
	`{"error":{"code":400,"message":"Token limit reached"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"content":"x"},"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}`,
	`{"choices":[{"index":01,"delta":{"content":"x"}}]}`, `{"a":1.}`, `{"a":-0.5e+3,"b":true,"c":false}`, `{"k\u0065y":1}`,
	`{"choices":[{"index":0,"delta":{"content":"x"}}]} {}`, `{"choices":[{"index":0,"delta":{"content":"x"}`, `nope`,
}

func TestDecodeChunk(t *testing.T) {
	t.Parallel()
	for _, s := range chunkSeeds {
		sameAsJSON(t, []byte(s))
	}
}

// FuzzDecodeChunk checks that the reader of events reads any event as
// encoding/json does: the same chunk (but for the id, object and created
// time, which nothing reads), or an error when it gives one.
func FuzzDecodeChunk(f *testing.F) {
	for _, s := range chunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsJSON(t, b) })
}

func sameAsJSON(t *testing.T, b []byte) {
	t.Helper()
	got := Chunk{Model: "m", Choices: []Choice{{Index: 3, Delta: &Delta{Refusal: "stale"}}}}
	_, err := decodeChunk(b, &got)
	var want Chunk
	wantErr := json.Unmarshal(b, &want)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: error %v, encoding/json's %v", b, err, wantErr)
	}
	// The reader leaves out what nothing reads.
	want.ID, want.Object, want.Created = "", "", 0
	got.ID, got.Object, got.Created = "", "", 0
	if len(got.Choices) == 0 && len(want.Choices) == 0 {
		got.Choices, want.Choices = nil, nil
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", b, got, want)
	}
}

// unquoteSeeds are JSON strings with each kind of escape, surrogate pairs
// whole, lone and mismatched, and bytes that are not UTF-8.
var unquoteSeeds = []string{
	`""`, `"plain «text»"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`, `"\ud83d"`,
	`"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, "\"\xff\\n\"", "\"\xed\xa0\x80\"", `"a\u0000b"`,
}

func TestUnquote(t *testing.T) {
	t.Parallel()
	for _, s := range unquoteSeeds {
		sameStringAsJSON(t, []byte(s))
	}
}

// FuzzUnquote checks that a string, as a decoder hands it over (no blanks
// around it), is read as encoding/json reads it.
func FuzzUnquote(f *testing.F) {
	for _, s := range unquoteSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s string
		if json.Unmarshal(b, &s) == nil && b[0] == '"' && b[len(b)-1] == '"' {
			sameStringAsJSON(t, b)
		}
	})
}

func sameStringAsJSON(t *testing.T, b []byte) {
	t.Helper()
	var got, want string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if err := unquote(b, &got); err != nil || got != want {
		t.Fatalf("%s: unquote gives %q, %v; encoding/json %q", b, got, err, want)
	}
}

// streamSeeds are pairs of events in a row: the second the first but for
// its text, or for something around it.
var streamSeeds = [][2]string{
	{`{"model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`, `{"model":"m","choices":[{"index":0,"delta":{"content":"b \"c\"\n"},"finish_reason":null}]}`},
	{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]}`},
	{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":null}}]}`},
	{`{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}`, `{"choices":[{"index":0,"delta":{"content":"a","content":"c"}}]}`},
	{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"\ud83d`},
	{`{"choices":[{"index":1,"delta":{"content":"a"}},{"index":0,"delta":{"content":"b"}}]}`, `{"choices":[{"index":1,"delta":{"content":"a"}},{"index":0,"delta":{"content":"c"}}]}`},
}

func TestDecoder(t *testing.T) {
	t.Parallel()
	for _, s := range streamSeeds {
		sameAsDecodeChunk(t, []byte(s[0]), []byte(s[1]))
	}
}

// FuzzDecoder checks that a Decoder reads an event as decodeChunk does,
// whatever the event before it.
func FuzzDecoder(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(sameAsDecodeChunk)
}

func sameAsDecodeChunk(t *testing.T, first, second []byte) {
	t.Helper()
	var d Decoder
	d.Decode(first)
	err := d.Decode(second)
	var want Chunk
	_, wantErr := decodeChunk(second, &want)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s after %s: error %v, decodeChunk's %v", second, first, err, wantErr)
	}
	if len(d.Chunk.Choices) == 0 && len(want.Choices) == 0 {
		d.Chunk.Choices, want.Choices = nil, nil // the memory of choices is kept
	}
	if err == nil && !reflect.DeepEqual(d.Chunk, want) {
		t.Fatalf("%s after %s:\n got %+v\nwant %+v", second, first, d.Chunk, want)
	}
}
