package providers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/conc/iter"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/ctxwait"
)

// The results of a check that found a usable model, as CheckRow.Result
// says them; a probe that failed says its class in words (Class.Title).
const (
	CheckOK          = "ok"
	CheckAdapted     = "parameter adapted"
	CheckNoStreaming = "no streaming"
)

// CheckOptions tune Check.
type CheckOptions struct {
	// HTTPClient is as in Options; nil: a default one.
	HTTPClient *http.Client
	// Timeout bounds each probe; 0: 30 seconds.
	Timeout time.Duration
}

// CheckRow is what one probe found for one participant's model: its
// primary or its fallback.
type CheckRow struct {
	Participant string `json:"participant"`
	Fallback    bool   `json:"fallback,omitempty"` // the row is the participant's fallback model
	Model       string `json:"model"`
	Host        string `json:"host"` // the endpoint's host, no credentials
	Result      string `json:"result"`
	Usable      bool   `json:"usable"`
	// Class is the class of the failure (its code, e.g. "key-refused"),
	// "" when the model is usable.
	Class  string `json:"class,omitempty"`
	Detail string `json:"detail,omitempty"` // the failure or the adaptations, keys redacted
	// Retried says that the first attempt failed in a way a run retries,
	// and the result is the second's; FirstFailure is why, keys redacted.
	Retried      bool          `json:"retried,omitempty"`
	FirstFailure string        `json:"firstFailure,omitempty"`
	Latency      time.Duration `json:"-"`
	LatencyMS    int64         `json:"latencyMs"`
}

// checkPrompt is the tiny call a probe makes: with a system message, as
// every prompt of a run has one, so that a model refusing it shows here.
// It names JSON, which a server asked for a JSON object requires.
var checkPrompt = []Message{
	{Role: "system", Content: "You check that a model answers."},
	{Role: "user", Content: `Reply with the single word ok, or, when you are asked for JSON, with the JSON object {"ok": true}.`},
}

// checkSchema is the answer's schema a probe sends to an endpoint whose
// api.responseFormat is "json_schema".
var checkSchema = json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)

// Check makes one tiny call per distinct request of cfg's participants
// (primaries and fallbacks), all in parallel, and returns a row per
// participant and model in participant order. Each request is shaped as
// the participant's calls in a run are: its parameters, its endpoint's
// headers and extra body, and, for a participant whose answers are read as
// JSON, the configured response_format. A transient failure is tried once
// more, as a run would retry it. A model is usable when its answer is one
// a run can use, judged by the same code that judges a run's answers (the
// client's judge): even after adapting a parameter or without streaming,
// never when the answer is empty, tool calls alone, reasoning cut at the
// token limit or ended by an error.
func Check(ctx context.Context, cfg *configs.Config, opt CheckOptions) ([]CheckRow, error) {
	c, err := New(cfg, Options{HTTPClient: opt.HTTPClient, Concurrency: 2 * max(len(cfg.Participants()), 1)})
	if err != nil {
		return nil, err
	}
	var rows []CheckRow
	var probes []Request
	var at []int              // row → its probe
	index := map[string]int{} // a request as sent → its probe
	for _, p := range cfg.Participants() {
		for i, model := range []string{p.Model, p.Fallback} {
			if model == "" || p.AgentFor(model) != nil {
				continue // an agent's check is package agents'
			}
			r := Request{Participant: p.ID, Model: model, Messages: checkPrompt}
			if cfg.AnswersInJSON(p.ID) {
				r.JSON, r.Schema, r.SchemaName = true, checkSchema, "check"
			}
			k := c.sent(r)
			if _, ok := index[k]; !ok {
				index[k] = len(probes)
				probes = append(probes, r)
			}
			at = append(at, index[k])
			rows = append(rows, CheckRow{Participant: p.ID, Fallback: i == 1, Model: model, Host: c.route(p.ID).ep.host})
		}
	}
	timeout := cmp.Or(opt.Timeout, 30*time.Second)
	delay := time.Duration(cfg.Fallback.RetryDelay) * time.Millisecond
	found := iter.Map(probes, func(r *Request) CheckRow { return c.probe(ctx, *r, timeout, delay) })
	for i := range rows {
		f := found[at[i]]
		f.Participant, f.Fallback, f.Model, f.Host = rows[i].Participant, rows[i].Fallback, rows[i].Model, rows[i].Host
		rows[i] = f
	}
	return rows, ctx.Err()
}

// sent identifies r as it goes on the wire: endpoint, headers and body.
func (c *Client) sent(r Request) string {
	rt := c.route(r.Participant)
	body, err := c.chatRequest(r, rt, shape{}).Encode()
	if err != nil {
		return fmt.Sprint(r.Participant, "\x00", r.Model, "\x00", err)
	}
	return fmt.Sprint(rt.ep.key, "\x00", rt.headers, "\x00", string(body))
}

// probe makes r, each attempt within timeout, and once more after delay
// (or the wait the server asked for, up to timeout) when the first attempt
// failed in a way a run retries; not after its own timeout, which a second
// wait as long would only repeat.
func (c *Client) probe(ctx context.Context, r Request, timeout, delay time.Duration) CheckRow {
	var adapted []Adaptation
	r.OnAdapt = func(a Adaptation) { adapted = append(adapted, a) }
	var first *Error
	for r.Attempt = 1; ; r.Attempt++ {
		start := time.Now()
		actx, cancel := context.WithTimeout(ctx, timeout)
		_, err := c.Complete(actx, r)
		cancel()
		latency := time.Since(start)
		var e *Error
		retry := r.Attempt == 1 && errors.As(err, &e) && e.Class.Transient() && e.Class != ClassTimeout
		if retry && ctxwait.Sleep(ctx, min(cmp.Or(e.RetryAfter, delay), timeout)) == nil {
			first = e
			continue
		}
		row := c.verdict(err, adapted, latency)
		if first != nil {
			row.Retried, row.FirstFailure = true, first.Class.Title()+": "+failure(first)
		}
		return row
	}
}

// failure says why an attempt failed: the server's error status and its
// reason. The table names the participant, the model and the endpoint.
func failure(e *Error) string {
	if e.Status >= 300 {
		return fmt.Sprintf("status %d: %s", e.Status, reason(e))
	}
	return reason(e)
}

// verdict says what a probe's outcome means, given the adaptations it
// made: usable when the call returned an answer, else the failure's class.
func (c *Client) verdict(err error, adapted []Adaptation, latency time.Duration) CheckRow {
	row := CheckRow{Latency: latency.Round(time.Millisecond)}
	row.LatencyMS = row.Latency.Milliseconds()
	if err != nil {
		e := Classify(err)
		row.Result, row.Class, row.Detail = e.Class.Title(), e.Class.String(), c.secrets.Text(failure(e))
		return row
	}
	row.Result, row.Usable = CheckOK, true
	var said []string
	for _, a := range adapted {
		if row.Result != CheckNoStreaming {
			row.Result = CheckAdapted
		}
		if a.Param == "stream" {
			row.Result = CheckNoStreaming
		}
		said = append(said, fmt.Sprintf("%s for %s at %s: %s", a.Param, a.Model, a.Endpoint, a.Change))
	}
	row.Detail = strings.Join(said, "; ")
	return row
}

// Usable reports whether every participant in rows has a usable model.
func Usable(rows []CheckRow) bool {
	ok := map[string]bool{}
	for _, r := range rows {
		ok[r.Participant] = ok[r.Participant] || r.Usable
	}
	return !slices.Contains(slices.Collect(maps.Values(ok)), false)
}
