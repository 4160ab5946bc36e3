package providers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

func TestCheckResults(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Refuse("my-o3", scripted.RefuseMaxTokens())
	srv.Refuse("o3-pro", scripted.RefuseStream())
	srv.ReplyTo("gone", scripted.UnknownModel("gone"))
	srv.ReplyTo("slow", scripted.Reply{Text: "late", Delay: time.Minute})
	srv.On(func(c scripted.Call) bool { return c.Model == "locked" }, func(scripted.Call) scripted.Reply { return scripted.RefuseKey() })
	cfg := streamConfig(true, func(c *configs.Config) {
		c.Debaters = []configs.Participant{
			{ID: "ok", Model: "gpt-4o"},
			{ID: "adapted", Model: "my-o3"},
			{ID: "nostream", Model: "o3-pro"},
			{ID: "missing", Model: "gone", Fallback: "gpt-4o"},
			{ID: "slow", Model: "slow"},
			{ID: "key", Model: "locked"},
		}
		c.Reviewer = &configs.Participant{ID: "judge", Model: "gpt-4o"}
	})
	rows, err := Check(t.Context(), cfg, CheckOptions{HTTPClient: srv.HTTPClient(), Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Participant+" "+r.Model+" "+r.Result)
		if r.Host != "scripted.invalid" {
			t.Errorf("host %q", r.Host)
		}
	}
	want := []string{
		"ok gpt-4o ok", "adapted my-o3 parameter adapted", "nostream o3-pro no streaming",
		"missing gone model not found or not allowed", "missing gpt-4o ok", "slow slow timeout", "key locked key refused", "judge gpt-4o ok",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if Usable(rows) {
		t.Error("usable with a participant whose only model times out")
	}
	if !Usable(rows[:5]) {
		t.Error("not usable, though every participant of the first five rows has a model that answers")
	}
	// gpt-4o at one endpoint is probed once for three rows.
	if n := srv.CountModel("gpt-4o"); n != 1 {
		t.Errorf("gpt-4o probed %d times, want once", n)
	}
}

// TestCheckNamesReasons: a failing probe's detail is the server's status
// and its own reason, nested detail included, keys redacted.
func TestCheckNamesReasons(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.ReplyTo("busy", scripted.Raw(429, `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"Google","raw":"g/m is temporarily rate-limited upstream"}}}`))
	srv.ReplyTo("nosys", scripted.Raw(400, `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","code":"unsupported_value"}}`))
	srv.ReplyTo("echo", scripted.Raw(401, `{"error":{"message":"Incorrect API key provided: `+testKey+`.","code":"invalid_api_key"}}`))
	cfg := streamConfig(true, func(c *configs.Config) {
		c.Debaters = []configs.Participant{{ID: "a", Model: "busy"}, {ID: "b", Model: "nosys"}}
		c.Reviewer = &configs.Participant{ID: "judge", Model: "echo"}
	})
	rows, err := Check(t.Context(), cfg, CheckOptions{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rate limited: status 429: Provider returned error: upstream Google says: g/m is temporarily rate-limited upstream (code 429)",
		"no system message: status 400: Unsupported value: 'messages[0].role' does not support 'system' with this model. (code unsupported_value)",
		"key refused: status 401: Incorrect API key provided: [REDACTED]. (code invalid_api_key)",
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Result+": "+r.Detail)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckRetriesOnce: a failure a run would retry is tried once more, and
// the row says so; a failure a retry cannot mend is tried once.
func TestCheckRetriesOnce(t *testing.T) {
	t.Parallel()
	aborted := scripted.Reply{FinishReason: "error", StreamError: "Internal Server Error"}
	tests := []struct {
		name    string
		replies []scripted.Reply // in order; the last answers any further call
		want    string           // result, retried, usable
		first   string           // the first failure, when retried
		calls   int
	}{
		{"an aborted answer, then an answer", []scripted.Reply{aborted, scripted.Text("ok")}, "ok retried usable",
			`error in the answer: the provider reported an error in the answer (finish_reason "error"): Internal Server Error (code 502)`, 2},
		{"a 503, then an answer", []scripted.Reply{scripted.Status(503, "overloaded"), scripted.Text("ok")}, "ok retried usable",
			"server error: status 503: overloaded", 2},
		{"a 429 twice", []scripted.Reply{scripted.RateLimited("0")}, "rate limited retried unusable",
			"rate limited: status 429: rate limit reached (code rate_limit_exceeded)", 2},
		{"a refused key", []scripted.Reply{scripted.RefuseKey()}, "key refused once unusable", "", 1},
		{"an answer", []scripted.Reply{scripted.Text("ok")}, "ok once usable", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			n := len(tt.replies) - 1
			srv.Enqueue("m", tt.replies[:n]...)
			srv.ReplyTo("m", tt.replies[n])
			r := checkOne(t, srv)
			got := fmt.Sprintf("%s %s %s", r.Result, map[bool]string{true: "retried", false: "once"}[r.Retried],
				map[bool]string{true: "usable", false: "unusable"}[r.Usable])
			if got != tt.want || r.FirstFailure != tt.first {
				t.Errorf("got %q, first failure %q\nwant %q, first failure %q", got, r.FirstFailure, tt.want, tt.first)
			}
			if c := srv.CountModel("m"); c != tt.calls {
				t.Errorf("%d calls, want %d", c, tt.calls)
			}
		})
	}
}

// TestCheckSendsRunShape: a probe is the participant's request as a run
// sends it — its temperature, token limit and extra body; a judge's
// response_format — so that a refusal is met, and adapted to, in check.
// Participants whose requests are the same share one probe.
func TestCheckSendsRunShape(t *testing.T) {
	t.Parallel()
	// A server that takes no response_format at all, in OpenAI's words for
	// an argument it does not know.
	noFormat := func(c scripted.Call) (scripted.Reply, bool) {
		return scripted.Raw(400, `{"error":{"message":"Unrecognized request argument supplied: response_format","type":"invalid_request_error","param":null,"code":null}}`),
			c.ResponseFormat != ""
	}
	tests := []struct {
		name   string
		format string
		refuse scripted.Refusal
		sent   string // the judge's first response_format
		result string
		detail string
	}{
		{"json_object, accepted", "json_object", nil, "json_object", "ok", ""},
		{"json_schema, accepted", "json_schema", nil, "json_schema", "ok", ""},
		{"json_object, refused for json_schema", "json_object", scripted.RefuseJSONObject(), "json_object",
			"parameter adapted", "response_format for m at http://scripted.invalid/v1: json_schema"},
		{"json_object, refused outright", "json_object", noFormat, "json_object",
			"parameter adapted", "response_format for m at http://scripted.invalid/v1: left out (the answer's JSON is read from its text)"},
		{"no response_format", "", noFormat, "", "ok", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			if tt.refuse != nil {
				srv.Refuse("m", tt.refuse)
			}
			cfg := streamConfig(true, func(c *configs.Config) {
				c.Debaters = []configs.Participant{
					{ID: "warm", Model: "plain", Temperature: ptr(0.7), MaxTokens: 300,
						API: &configs.API{ExtraBody: map[string]any{"provider": map[string]any{"order": []any{"x"}}}}},
					{ID: "same", Model: "plain", Temperature: ptr(0.7), MaxTokens: 300,
						API: &configs.API{ExtraBody: map[string]any{"provider": map[string]any{"order": []any{"x"}}}}},
					{ID: "titled", Model: "plain", Temperature: ptr(0.7), MaxTokens: 300,
						API: &configs.API{ExtraBody: map[string]any{"provider": map[string]any{"order": []any{"x"}}}, Headers: map[string]string{"X-Title": "t"}}},
				}
				c.Reviewer = &configs.Participant{ID: "judge", Model: "m", API: &configs.API{ResponseFormat: tt.format}}
			})
			rows, err := Check(t.Context(), cfg, CheckOptions{HTTPClient: srv.HTTPClient()})
			if err != nil {
				t.Fatal(err)
			}
			judge := rows[3]
			if judge.Result != tt.result || judge.Detail != tt.detail || !judge.Usable {
				t.Errorf("judge: %s, %q; want %s, %q", judge.Result, judge.Detail, tt.result, tt.detail)
			}
			var judged, plain []scripted.Call
			for _, c := range srv.Calls() {
				if c.Model == "m" {
					judged = append(judged, c)
				} else {
					plain = append(plain, c)
				}
			}
			if len(judged) == 0 || judged[0].ResponseFormat != tt.sent {
				t.Fatalf("the judge's calls %+v, want the first with response_format %q", judged, tt.sent)
			}
			if tt.format == "json_schema" && !strings.Contains(string(judged[0].Body), `"name":"check"`) {
				t.Errorf("json_schema without the answer's schema: %s", judged[0].Body)
			}
			// warm and same send one request; titled's header sets it apart.
			if len(plain) != 2 {
				t.Fatalf("%d probes of the debaters' model, want 2", len(plain))
			}
			for _, c := range plain {
				if c.Temperature == nil || *c.Temperature != 0.7 || c.MaxTokens != 300 || !strings.Contains(string(c.Body), `"provider":{"order":["x"]}`) {
					t.Errorf("debater's probe without its parameters: %s", c.Body)
				}
			}
		})
	}
}

// TestCheckJudgesAsTheRunDoes: check calls usable only what a run can use;
// an answer of tool calls alone, reasoning cut at the token limit, or an
// error after finish_reason "length" is not ok, and the row names the
// class and the reason.
func TestCheckJudgesAsTheRunDoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reply  scripted.Reply
		class  Class
		reason string
	}{
		{"tool calls alone", scripted.ToolCalls("lookup"), ClassEmpty, "tool calls came back instead of an answer"},
		{"reasoning cut at the limit", scripted.Reply{Reasoning: "Let me weigh both sides", FinishReason: "length"},
			ClassCut, "cut at the token limit before any answer"},
		{"an error after length", scripted.Reply{Reasoning: "We need to respond", FinishReason: "length", StreamError: "Token limit reached"},
			ClassCut, "cut at the token limit before any answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			srv.ReplyTo("m", tt.reply)
			r := checkOne(t, srv)
			if r.Usable || r.Result != tt.class.Title() || r.Class != tt.class.String() || !strings.Contains(r.Detail, tt.reason) {
				t.Errorf("got %+v; want %s (%s) saying %q", r, tt.class.Title(), tt.class, tt.reason)
			}
			// The run, through the same client, refuses the same answer.
			c := newTestClient(t, srv, oneDebater(), Options{})
			_, err := c.Complete(t.Context(), ask("a", "m", "q"))
			if e := asError(t, err); e.Class != tt.class {
				t.Errorf("the run's call failed as %s, check's as %s", e.Class, r.Class)
			}
		})
	}
}

// oneDebater is a config of one debater, "a" on model "m", and no judge.
func oneDebater() *configs.Config {
	return streamConfig(true, func(c *configs.Config) {
		c.Debaters = []configs.Participant{{ID: "a", Model: "m"}}
		c.Reviewer = nil
	})
}

// checkOne checks oneDebater against srv and returns its row.
func checkOne(t *testing.T, srv *providertest.Server) CheckRow {
	t.Helper()
	rows, err := Check(t.Context(), oneDebater(), CheckOptions{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	return rows[0]
}
