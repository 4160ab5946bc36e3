package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// TestRefusedKeyNamesVariable: a 401 names the environment variable the
// endpoint's key came from, never the key; a key written in the file names
// none.
func TestRefusedKeyNamesVariable(t *testing.T) {
	t.Parallel()
	const kimiKey = "sk-kimi-4b9e21d07c3f"
	tests := []struct {
		name, apiKey string
		env          map[string]string
		want         string // "": no variable named
	}{
		{"from a variable", "${KIMI_API_KEY}", map[string]string{"KIMI_API_KEY": kimiKey},
			"(the key comes from ${KIMI_API_KEY}: check that it holds a current key for this endpoint)"},
		{"from an empty variable", "${KIMI_API_KEY}", map[string]string{"KIMI_API_KEY": ""},
			"(the key comes from ${KIMI_API_KEY}, which is empty: export the key in it)"},
		{"written in the file", kimiKey, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			// OpenRouter's answer to a request without a usable key.
			srv.ReplyTo("moonshotai/kimi-k2", scripted.Raw(401, `{"error":{"message":"No auth credentials found","code":401}}`))
			path := filepath.Join(t.TempDir(), "debate.jsonc")
			text := `{
  "api": { "baseURL": "` + scripted.MemoryURL + `", "apiKey": "` + tt.apiKey + `" },
  "debaters": [{ "id": "a", "model": "moonshotai/kimi-k2" }, { "id": "b", "model": "moonshotai/kimi-k2" }],
  "judge": { "id": "j", "model": "moonshotai/kimi-k2" },
  "topics": [{ "id": "t", "title": "Q" }],
}`
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := configs.Load(path, configs.Options{Getenv: func(name string) (string, bool) {
				v, ok := tt.env[name]
				return v, ok
			}})
			if err != nil {
				t.Fatal(err)
			}
			c, err := New(cfg, Options{HTTPClient: srv.HTTPClient()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Complete(t.Context(), ask("a", "moonshotai/kimi-k2", "q"))
			e := asError(t, err)
			msg := e.Error()
			if e.Class != ClassKeyRefused || strings.Contains(msg, kimiKey) {
				t.Fatalf("got %v, want a refused key without the key", e)
			}
			if tt.want == "" && strings.Contains(msg, "comes from") || tt.want != "" && !strings.HasSuffix(msg, tt.want) {
				t.Errorf("got  %q\nwant it to end with %q", msg, tt.want)
			}
		})
	}
}
