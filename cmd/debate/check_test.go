package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
)

// checkConfig writes a config whose debaters call the fake: party-b on an
// endpoint that refuses its key, party-c with a model the fake does not
// know (its fallback as given).
func checkConfig(t *testing.T, url, fallbackC string) string {
	t.Helper()
	fallback := ""
	if fallbackC != "" {
		fallback = fmt.Sprintf(`, "fallback": %q`, fallbackC)
	}
	text := fmt.Sprintf(`{
  "api": { "baseURL": %q, "apiKey": "${KEY}" },
  "debaters": [
    { "id": "party-a", "model": "gpt-4o" },
    { "id": "party-b", "model": "gpt-4o", "api": { "baseURL": %q, "apiKey": "${OTHER_KEY}" } },
    { "id": "party-c", "model": "gpt-typo"%s },
  ],
  "reviewer": { "id": "judge", "model": "qwen-plus" },
  "topics": [{ "id": "t1", "title": "Question" }],
}`, url, strings.TrimSuffix(url, "/v1")+"/badkey/v1", fallback)
	path := filepath.Join(t.TempDir(), "check.jsonc")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func checkFake(t *testing.T) *providertest.Server {
	srv := providertest.New(t)
	srv.On(func(c scripted.Call) bool { return strings.HasPrefix(c.Path, "/badkey/") }, func(scripted.Call) scripted.Reply {
		r := scripted.RefuseKey()
		r.EchoAuthorization = true
		return r
	})
	srv.ReplyTo("gpt-typo", scripted.UnknownModel("gpt-typo"))
	return srv
}

var checkKeys = map[string]string{"KEY": "sk-check-0123456789abcdef", "OTHER_KEY": "sk-other-0123456789abcdef"}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fallback string
		json     bool
		code     int
		want     []string
	}{
		{"a refused key and an unknown model", "", false, exitFailed,
			[]string{`party-a +gpt-4o +127\.0\.0\.1:\d+ +ok `, `party-b +gpt-4o .* key refused`, `party-c +gpt-typo .* model not found`, `judge +qwen-plus .* ok `,
				`party-b, gpt-4o: status 401: .*\(the key comes from \$\{OTHER_KEY\}: check that it holds a current key for this endpoint\)`}},
		{"a fallback that answers is tried too", "gpt-4o-mini", false, exitFailed,
			[]string{`party-c +gpt-typo .* model not found`, `party-c +gpt-4o-mini \(fallback\) .* ok `}},
		{"as JSON", "", true, exitFailed, []string{`"version": 1`, `"ok": false`, `"result": "key refused"`, `"latencyMs": \d+`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := checkFake(t)
			args := []string{"check", "--config", checkConfig(t, srv.URL(), tt.fallback)}
			if tt.json {
				args = append(args, "--json")
			}
			r := invoke(t, checkKeys, args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(r.stdout) {
					t.Errorf("output lacks %q:\n%s", w, r.stdout)
				}
			}
			for _, k := range checkKeys {
				if strings.Contains(r.stdout+r.stderr, k) {
					t.Errorf("a key was printed:\n%s%s", r.stdout, r.stderr)
				}
			}
			if tt.json {
				var rep checkReport
				if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Results) == 0 {
					t.Errorf("not a report: %v\n%s", err, r.stdout)
				}
			}
			// One request per distinct endpoint and model.
			distinct := 4
			if tt.fallback != "" {
				distinct++
			}
			if got := srv.Count(); got != distinct {
				t.Errorf("%d requests, want %d", got, distinct)
			}
		})
	}
}

func TestCheckExitCodes(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	path := filepath.Join(t.TempDir(), "ok.jsonc")
	os.WriteFile(path, []byte(fmt.Sprintf(`{"api": {"baseURL": %q, "apiKey": "k"},
  "debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2", "api": {"stream": false}}],
  "reviewer": {"id": "r", "model": "m3"}, "topics": [{"id": "t", "title": "T"}]}`, srv.URL())), 0o644)
	if r := invoke(t, nil, "check", "--config", path); r.code != exitOK || strings.Count(r.stdout, " ok ") != 3 {
		t.Errorf("all usable: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := invoke(t, nil, "check", "--config", "does-not-exist.jsonc"); r.code != exitUsage {
		t.Errorf("missing config: exit %d, want 2", r.code)
	}
	if r := invoke(t, nil, "check"); r.code != exitUsage {
		t.Errorf("no --config: exit %d, want 2", r.code)
	}
}

// TestCheckRetry: an answer that ends in finish_reason "error" on the first
// request only is retried once, as a run would, and check exits 0, saying
// so in the table and below it.
func TestCheckRetry(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Enqueue("m1", scripted.Reply{FinishReason: "error", StreamError: "Internal Server Error"})
	path := filepath.Join(t.TempDir(), "flaky.jsonc")
	os.WriteFile(path, []byte(fmt.Sprintf(`{"api": {"baseURL": %q, "apiKey": "k"},
  "debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
  "reviewer": {"id": "r", "model": "m3"}, "fallback": {"retryDelay": 10}, "topics": [{"id": "t", "title": "T"}]}`, srv.URL())), 0o644)
	r := invoke(t, nil, "check", "--config", path)
	if r.code != exitOK {
		t.Errorf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, w := range []string{`a +m1 .* ok after a retry `, `a, m1: the first attempt failed, retried: error in the answer: .*finish_reason "error".*Internal Server Error`} {
		if !regexp.MustCompile(w).MatchString(r.stdout) {
			t.Errorf("output lacks %q:\n%s", w, r.stdout)
		}
	}
	if n := srv.CountModel("m1"); n != 2 {
		t.Errorf("m1 called %d times, want twice", n)
	}
}

// TestCheckRefusesWhatARunRefuses: check against models that answer with
// tool calls alone, with reasoning cut at the token limit, and with an
// error after finish_reason "length": none is ok, each row names its class
// and each failure its reason, and check exits 1.
func TestCheckRefusesWhatARunRefuses(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.ReplyTo("tools", scripted.ToolCalls("lookup"))
	srv.ReplyTo("thinker", scripted.Reply{Reasoning: "Let me weigh both sides first", FinishReason: "length"})
	srv.ReplyTo("minimax", scripted.Reply{Reasoning: "We need to respond", FinishReason: "length", StreamError: "Token limit reached"})
	path := filepath.Join(t.TempDir(), "unusable.jsonc")
	os.WriteFile(path, []byte(fmt.Sprintf(`{"api": {"baseURL": %q, "apiKey": "k"},
  "debaters": [{"id": "a", "model": "tools"}, {"id": "b", "model": "thinker"}],
  "reviewer": {"id": "r", "model": "minimax"}, "fallback": {"retryDelay": 10}, "topics": [{"id": "t", "title": "T"}]}`, srv.URL())), 0o644)
	r := invoke(t, nil, "check", "--config", path)
	if r.code != exitFailed || strings.Contains(r.stdout, " ok ") {
		t.Errorf("exit %d, want 1 and no ok\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, w := range []string{
		`a +tools .* empty answer`, `a, tools: empty answer \(finish_reason "tool_calls", tool calls came back instead of an answer\)`,
		`b +thinker .* cut at the token limit`, `b, thinker: cut at the token limit before any answer \(finish_reason "length", .*bytes of reasoning came back alone\)`,
		`r +minimax .* cut at the token limit`, `r, minimax: cut at the token limit before any answer \(.*the provider said "Token limit reached \(code 502\)"\)`,
	} {
		if !regexp.MustCompile(w).MatchString(r.stdout) {
			t.Errorf("output lacks %q:\n%s", w, r.stdout)
		}
	}
	j := invoke(t, nil, "check", "--config", path, "--json")
	for _, w := range []string{`"class": "empty-answer"`, `"class": "cut-at-limit"`, `"ok": false`} {
		if !strings.Contains(j.stdout, w) {
			t.Errorf("JSON lacks %s:\n%s", w, j.stdout)
		}
	}
}

// TestCheckFailsTwice: a model that answers 503 to the first request and
// to the retry reads as a failure in the table, not as a result "after a
// retry", and check exits 1.
func TestCheckFailsTwice(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.ReplyTo("m1", scripted.Status(503, "overloaded"))
	path := filepath.Join(t.TempDir(), "down.jsonc")
	os.WriteFile(path, []byte(fmt.Sprintf(`{"api": {"baseURL": %q, "apiKey": "k"},
  "debaters": [{"id": "a", "model": "m1"}, {"id": "b", "model": "m2"}],
  "reviewer": {"id": "r", "model": "m3"}, "fallback": {"retryDelay": 10}, "topics": [{"id": "t", "title": "T"}]}`, srv.URL())), 0o644)
	r := invoke(t, nil, "check", "--config", path)
	if r.code != exitFailed || !regexp.MustCompile(`a +m1 .* failed twice: server `).MatchString(r.stdout) || strings.Contains(r.stdout, "after a retry") {
		t.Errorf("exit %d, want 1 with the row saying it failed twice:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
