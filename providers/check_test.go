package providers

import (
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
)

func TestCheckResults(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Refuse("my-o3", providertest.RefuseMaxTokens())
	srv.Refuse("o3-pro", providertest.RefuseStream())
	srv.ReplyTo("gone", providertest.UnknownModel("gone"))
	srv.ReplyTo("slow", providertest.Reply{Text: "late", Delay: time.Minute})
	srv.On(func(c providertest.Call) bool { return c.Model == "locked" }, func(providertest.Call) providertest.Reply { return providertest.RefuseKey() })
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
		"missing gone model not found", "missing gpt-4o ok", "slow slow timeout", "key locked key refused", "judge gpt-4o ok",
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
	srv.ReplyTo("busy", providertest.Raw(429, `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"Google","raw":"g/m is temporarily rate-limited upstream"}}}`))
	srv.ReplyTo("nosys", providertest.Raw(400, `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","code":"unsupported_value"}}`))
	srv.ReplyTo("echo", providertest.Raw(401, `{"error":{"message":"Incorrect API key provided: `+testKey+`.","code":"invalid_api_key"}}`))
	cfg := streamConfig(true, func(c *configs.Config) {
		c.Debaters = []configs.Participant{{ID: "a", Model: "busy"}, {ID: "b", Model: "nosys"}}
		c.Reviewer = &configs.Participant{ID: "judge", Model: "echo"}
	})
	rows, err := Check(t.Context(), cfg, CheckOptions{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rate limit: status 429: Provider returned error: upstream Google says: g/m is temporarily rate-limited upstream (code 429)",
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
