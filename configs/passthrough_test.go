package configs

import (
	"reflect"
	"strings"
	"testing"
)

func TestPassthroughProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		api  string // the inside of the top-level "api" object
		want []string
	}{
		{"model in extraBody", `"extraBody": {"model": "x", "reasoning_effort": "high"}`,
			[]string{`api.extraBody["model"] | is set by the program`}},
		{"stream in extraBody points at api.stream", `"extraBody": {"stream": false}`,
			[]string{`api.extraBody["stream"] | set api.stream to false`}},
		{"messages in extraBody", `"extraBody": {"messages": []}`,
			[]string{`api.extraBody["messages"] | is set by the program`}},
		{"the program's fields in another case", `"extraBody": {"Model": "x", "MESSAGES": [], "Stream": true}`,
			[]string{`api.extraBody["MESSAGES"] | is set by the program`, `api.extraBody["Model"] | is set by the program`,
				`api.extraBody["Stream"] | set api.stream to false`}},
		{"bad header name", `"headers": {"X Bad": "1"}`,
			[]string{`api.headers["X Bad"] | not a valid HTTP header name`}},
		{"idle timeout of zero", `"idleTimeout": 0`,
			[]string{`api.idleTimeout | must be greater than 0`}},
		{"tiny response cap", `"maxResponseBytes": 10`,
			[]string{`api.maxResponseBytes | at least 1024`}},
		{"extraBody not an object", `"extraBody": [1]`,
			[]string{`api.extraBody | want an object`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(writeConfig(t, "{"+validBody+"\n  \"api\": {"+tt.api+"},\n}"), Options{Getenv: testEnv})
			assertProblems(t, err, tt.want)
		})
	}
}

func TestParticipantSamplingProblems(t *testing.T) {
	t.Parallel()
	text := `{
  "debaters": [
    { "id": "a", "model": "m1", "maxTokens": -1 },
    { "id": "b", "model": "m2", "temperature": 3 },
  ],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],
  "pricing": { "m1": { "input": 1, "output": 2, "cachedInput": -1 } },
}`
	_, err := Load(writeConfig(t, text), Options{Getenv: testEnv})
	assertProblems(t, err, []string{
		"debaters[0].maxTokens | must be at least 1",
		"debaters[1].temperature | between 0 and 2",
		`pricing["m1"].cachedInput | price must be 0 to 1000000`,
	})
}

// assertProblems checks that err holds exactly the problems of want, each
// "field | message fragment".
func assertProblems(t *testing.T, err error, want []string) {
	t.Helper()
	ps := problemsOf(t, err)
	var got []string
	for _, p := range ps {
		got = append(got, p.Field+" | "+p.Message)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		field, frag, _ := strings.Cut(w, " | ")
		found := false
		for _, p := range ps {
			found = found || p.Field == field && strings.Contains(p.Message, frag) && p.Line > 0
		}
		if !found {
			t.Errorf("missing located problem %q in:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

func TestPassthroughEndpoint(t *testing.T) {
	t.Parallel()
	text := `{
  "api": { "baseURL": "https://gw.example/v1", "apiKey": "k",
           "extraBody": { "provider": { "order": ["${PROVIDER}"] }, "reasoning_effort": "low" },
           "headers": { "X-Title": "debate", "X-Key": "${HEADER_KEY}" } },
  "debaters": [
    { "id": "a", "model": "m1", "maxTokens": 900, "temperature": 0,
      "api": { "stream": false, "extraBody": { "reasoning_effort": "high" }, "headers": { "X-Title": "a" } } },
    { "id": "b", "model": "m2" },
  ],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],
}`
	cfg, err := Load(writeConfig(t, text), Options{Getenv: env(map[string]string{"PROVIDER": "deepinfra", "HEADER_KEY": "hk-secret"})})
	if err != nil {
		t.Fatal(err)
	}
	a, b := cfg.Endpoint("a"), cfg.Endpoint("b")
	wantA := map[string]any{"provider": map[string]any{"order": []any{"deepinfra"}}, "reasoning_effort": "high"}
	if !reflect.DeepEqual(a.ExtraBody, wantA) {
		t.Errorf("a extraBody = %v, want %v", a.ExtraBody, wantA)
	}
	if b.ExtraBody["reasoning_effort"] != "low" {
		t.Errorf("b extraBody = %v, want the top-level one", b.ExtraBody)
	}
	if a.Headers["X-Title"] != "a" || a.Headers["X-Key"] != "hk-secret" || b.Headers["X-Title"] != "debate" {
		t.Errorf("headers: a %v, b %v", a.Headers, b.Headers)
	}
	if a.Streams() || !b.Streams() {
		t.Errorf("streams: a %v, b %v; want false, true", a.Streams(), b.Streams())
	}
	if a.IdleTimeout != DefaultIdleTimeout || a.MaxResponseBytes != DefaultMaxResponseBytes || a.Timeout != DefaultTimeout {
		t.Errorf("defaults not inherited: %+v", a)
	}
	if p := cfg.Debaters[0]; p.MaxTokens != 900 || p.Temperature == nil || *p.Temperature != 0 {
		t.Errorf("participant sampling = %d, %v", p.MaxTokens, p.Temperature)
	}
	// Endpoint shares nothing with the config.
	a.ExtraBody["provider"].(map[string]any)["order"] = []any{"changed"}
	if got := cfg.Endpoint("a").ExtraBody["provider"].(map[string]any)["order"]; !reflect.DeepEqual(got, []any{"deepinfra"}) {
		t.Errorf("Endpoint shares extraBody with the config: %v", got)
	}
	if got := cfg.Secrets(); !strings.Contains(strings.Join(got, " "), "hk-secret") {
		t.Errorf("Secrets() = %v, want the header value", got)
	}
	red := cfg.Redacted()
	if got := cfg.Secrets(); strings.Contains(strings.Join(got, " "), "debate") {
		t.Errorf("Secrets() = %v: X-Title is no credential", got)
	}
	if red.API.Headers["X-Key"] != redactedKey || red.API.Headers["X-Title"] != "debate" || cfg.API.Headers["X-Key"] != "hk-secret" {
		t.Errorf("Redacted headers = %v, config's = %v", red.API.Headers, cfg.API.Headers)
	}
}
