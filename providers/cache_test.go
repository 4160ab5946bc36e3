package providers

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// TestCacheControl checks that api.cacheControl cuts each message at its
// breaks into text parts, marking every part that ends at one, and that
// without it the content stays one string.
func TestCacheControl(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Role: "system", Content: "standing", Breaks: []int{8}},
		{Role: "user", Content: "contexttopicstep", Breaks: []int{7, 12}},
	}
	mark := map[string]any{"type": "ephemeral"}
	tests := []struct {
		name  string
		on    bool
		msgs  []Message
		wants []any // each message's content as decoded JSON
	}{
		{name: "off", msgs: msgs, wants: []any{"standing", "contexttopicstep"}},
		{name: "on", on: true, msgs: msgs, wants: []any{
			[]any{map[string]any{"type": "text", "text": "standing", "cache_control": mark}},
			[]any{
				map[string]any{"type": "text", "text": "context", "cache_control": mark},
				map[string]any{"type": "text", "text": "topic", "cache_control": mark},
				map[string]any{"type": "text", "text": "step"},
			},
		}},
		{name: "at most four, the last ones", on: true, msgs: []Message{
			{Role: "system", Content: "abc", Breaks: []int{1, 2, 3}},
			{Role: "user", Content: "de", Breaks: []int{1, 2}},
		}, wants: []any{
			[]any{
				map[string]any{"type": "text", "text": "ab", "cache_control": mark},
				map[string]any{"type": "text", "text": "c", "cache_control": mark},
			},
			[]any{
				map[string]any{"type": "text", "text": "d", "cache_control": mark},
				map[string]any{"type": "text", "text": "e", "cache_control": mark},
			},
		}},
		{name: "no breaks, no parts", on: true, msgs: []Message{{Role: "user", Content: "plain"}}, wants: []any{"plain"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t, scripted.WithDefault(scripted.Text("ok")))
			cfg := testConfig(func(c *configs.Config) {
				c.Params.Concurrency = 1
				c.API.CacheControl = &tt.on
			})
			c := newTestClient(t, srv, cfg, Options{})
			if _, err := c.Complete(t.Context(), Request{Participant: "a", Model: "gpt-4o", Messages: tt.msgs}); err != nil {
				t.Fatal(err)
			}
			var body struct {
				Messages []struct {
					Content any `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(srv.Calls()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			var got []any
			for _, m := range body.Messages {
				got = append(got, m.Content)
			}
			if !reflect.DeepEqual(got, tt.wants) {
				t.Errorf("contents = %v\nwant       %v", got, tt.wants)
			}
		})
	}
}
