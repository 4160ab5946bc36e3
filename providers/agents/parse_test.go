package agents

import (
	"os"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
)

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseRealOutputs: what the real CLIs printed here without
// credentials or network (testdata/real) reads as the failure it is.
func TestParseRealOutputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kind string
		o          outcome
		want       providers.Class
		says       string
		session    string
	}{
		{"claude not logged in", configs.AgentClaudeCode, outcome{exit: 1, stdout: readFile(t, "testdata/real/claude-not-logged-in.json")},
			providers.ClassKeyRefused, "Not logged in · Please run /login", "89be50ab-671e-4e20-8183-f43b08a7da25"},
		{"gemini without auth", configs.AgentGemini, outcome{exit: 41, stderr: readFile(t, "testdata/real/gemini-auth.stderr")},
			providers.ClassKeyRefused, "Please set an Auth method", "5266385d-3feb-4603-bc07-48f5272ae519"},
		{"codex offline, killed", configs.AgentCodex, outcome{exit: -1, stdout: readFile(t, "testdata/real/codex-offline.jsonl")},
			providers.ClassNetwork, "Reconnecting... waiting for network", "01a22314-a080-7492-8470-7412553addb5"},
		{"claude refuses an option", configs.AgentClaudeCode, outcome{exit: 1, stderr: []byte("error: unknown option '--bogus'\n")},
			providers.ClassBadRequest, "refused its command line", ""},
		{"codex refuses an argument", configs.AgentCodex, outcome{exit: 2, stderr: []byte("error: unexpected argument '--bogus' found\n\nUsage: codex exec [OPTIONS] [PROMPT]\n")},
			providers.ClassBadRequest, "refused its command line", ""},
		{"claude session gone", configs.AgentClaudeCode, outcome{exit: 1, stderr: []byte("No conversation found with session ID: 1111\n")},
			providers.ClassModelUnavailable, "the session to resume is gone", ""},
		{"claude overloaded", configs.AgentClaudeCode, outcome{exit: 1, stdout: []byte(`{"type":"result","subtype":"success","is_error":true,"api_error_status":529,"result":"API Error: 529 Overloaded","session_id":"s"}`)},
			providers.ClassServerError, "status 529", "s"},
		{"claude prompt too long", configs.AgentClaudeCode, outcome{exit: 1, stdout: []byte(`{"type":"result","subtype":"success","is_error":true,"api_error_status":400,"result":"API Error: 400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}","session_id":"s"}`)},
			providers.ClassPromptTooLong, "status 400", "s"},
		{"claude out of credit", configs.AgentClaudeCode, outcome{exit: 1, stdout: []byte(`{"type":"result","subtype":"success","is_error":true,"api_error_status":400,"result":"API Error: 400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.\"}}","session_id":"s"}`)},
			providers.ClassQuotaExhausted, "status 400", "s"},
		{"claude budget", configs.AgentClaudeCode, outcome{exit: 1, stdout: []byte(`{"type":"result","subtype":"error_max_budget_usd","is_error":true,"num_turns":7,"session_id":"s","errors":[]}`)},
			providers.ClassAgentLimit, "error_max_budget_usd after 7 turns", "s"},
		{"claude execution error", configs.AgentClaudeCode, outcome{exit: 1, stdout: []byte(`{"type":"result","subtype":"error_during_execution","is_error":true,"session_id":"s","errors":["tool crashed"]}`)},
			providers.ClassErrorInAnswer, "tool crashed", "s"},
		{"gemini input error", configs.AgentGemini, outcome{exit: 42, stderr: []byte(`{"error":{"type":"FatalInputError","message":"No input provided","code":42}}`)},
			providers.ClassBadRequest, "No input provided", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ans, f := parse(&configs.Agent{Kind: tc.kind}, tc.o, nil)
			if f == nil {
				t.Fatalf("read as an answer: %+v", ans)
			}
			if f.class != tc.want || !strings.Contains(f.msg, tc.says) || ans.session != tc.session {
				t.Errorf("%v %q (session %q); want %v saying %q (session %q)", f.class, f.msg, ans.session, tc.want, tc.says, tc.session)
			}
		})
	}
}

// TestWordsClass: a status named in a CLI's message classifies it; the
// same digits inside a count do not.
func TestWordsClass(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg  string
		want providers.Class
	}{
		{"unexpected status 401 Unauthorized: Missing bearer authentication", providers.ClassKeyRefused},
		{"exceeded retry limit, last status: 429 Too Many Requests", providers.ClassRateLimited},
		{"stream disconnected before completion: the prompt of 24013 tokens was cut off (connection reset)", providers.ClassNetwork},
		{"the turn used 14290 tokens and the server failed", providers.ClassServerError},
		{"Your credit balance is too low to access the Anthropic API.", providers.ClassQuotaExhausted},
		{"prompt is too long: 210000 tokens > 200000 maximum", providers.ClassPromptTooLong},
		{"The model `gpt-9` does not exist or you do not have access to it.", providers.ClassModelUnavailable},
		{"You've hit your usage limit. Upgrade to Pro or try again later.", providers.ClassQuotaExhausted},
		{"exceeded retry limit, last status: 429 Too Many Requests, request id: x", providers.ClassRateLimited},
	} {
		if got := wordsClass(tc.msg); got != tc.want {
			t.Errorf("wordsClass(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}

// FuzzParse: whatever a CLI prints and however it exits, reading it does
// not panic, and an answer is never empty.
func FuzzParse(f *testing.F) {
	f.Add(readFile(f, "testdata/real/claude-not-logged-in.json"), []byte{}, 1)
	f.Add([]byte{}, readFile(f, "testdata/real/gemini-auth.stderr"), 41)
	f.Add(readFile(f, "testdata/real/codex-offline.jsonl"), []byte{}, -1)
	f.Add([]byte(`{"type":"result","subtype":"success","is_error":false,"result":"ok","structured_output":{"a":1}}`), []byte{}, 0)
	f.Add([]byte(`{"response":"ok","stats":{"models":{"m":{"tokens":{"prompt":1}}}}}`), []byte{}, 0)
	f.Add([]byte("{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"x\"}}\n{\"type\":\"turn.completed\"}\n"), []byte{}, 0)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		for _, kind := range configs.AgentKinds {
			ans, fl := parse(&configs.Agent{Kind: kind}, outcome{stdout: stdout, stderr: stderr, exit: exit}, nil)
			if fl == nil && strings.TrimSpace(ans.text) == "" {
				t.Errorf("%s: an empty answer read as one", kind)
			}
		}
	})
}
