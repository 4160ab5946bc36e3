package scripted

import (
	"encoding/json"
	"testing"
)

func TestMessageContentParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: `{"role":"user","content":"plain"}`, want: "plain"},
		{in: `{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"text","text":"b"}]}`, want: "ab"},
		{in: `{"role":"user","content":null}`, want: ""},
		{in: `{"role":"user","content":[{"type":"image_url"}]}`, err: true},
	}
	for _, tt := range tests {
		var m Message
		err := json.Unmarshal([]byte(tt.in), &m)
		if (err != nil) != tt.err || (!tt.err && (m.Content != tt.want || m.Role != "user")) {
			t.Errorf("Unmarshal(%s) = %+v, %v; want content %q, error %v", tt.in, m, err, tt.want, tt.err)
		}
	}
}

func FuzzMessageUnmarshal(f *testing.F) {
	f.Add([]byte(`{"role":"user","content":[{"type":"text","text":"a"}]}`))
	f.Add([]byte(`{"role":"system","content":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Message
		_ = json.Unmarshal(b, &m) // must not panic
	})
}
