package configs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSecretsInURLs: credentials in any configured base URL reach neither
// the recorded config (run.json, the shard digest) nor a validation
// problem.
func TestSecretsInURLs(t *testing.T) {
	t.Parallel()
	const secrets = `"api": { "baseURL": "http://user:PASSWORD@host/v1?token=SECRET" },
  "debaters": [
    { "id": "a", "model": "m1", "api": { "baseURL": "https://bob:PASSWORD2@other/v1?key=SECRET2" } },
    { "id": "b", "model": "m2" },
  ],
  "reviewer": { "id": "r", "model": "m3", "api": { "baseURL": "ftp://eve:PASSWORD3@judge/?token=SECRET3" } },
  "topics": [{ "id": "t1", "title": "Question" }],`
	_, err := Load(writeConfig(t, "{\n  "+secrets+"\n}"), Options{Getenv: testEnv})
	ps := problemsOf(t, err)
	if len(ps) != 1 || ps[0].Field != "reviewer.api.baseURL" {
		t.Fatalf("problems %v, want one at reviewer.api.baseURL", ps)
	}
	ok := strings.Replace(secrets, "ftp://", "https://", 1)
	cfg, err := Load(writeConfig(t, "{\n  "+ok+"\n}"), Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(cfg.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []struct{ name, text string }{{"problem", ps.Error()}, {"recorded config", string(b)}} {
		for _, s := range []string{"user", "bob", "eve", "PASSWORD", "SECRET"} {
			if strings.Contains(out.text, s) {
				t.Errorf("the %s holds %q: %s", out.name, s, out.text)
			}
		}
	}
	if cfg.API.BaseURL != "http://user:PASSWORD@host/v1?token=SECRET" {
		t.Errorf("Redacted changed the config itself: %q", cfg.API.BaseURL)
	}
	// What the run scrubs from errors and logs holds the URLs' credentials.
	got := strings.Join(cfg.Secrets(), " ")
	for _, s := range []string{"PASSWORD", "SECRET", "PASSWORD2", "SECRET2"} {
		if !slices.Contains(cfg.Secrets(), s) {
			t.Errorf("Secrets() = %s, want %s among them", got, s)
		}
	}
}
