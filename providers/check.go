package providers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/sourcegraph/conc/iter"

	"github.com/debatehq/debate/configs"
)

// The results of a check, as CheckRow.Result says them.
const (
	CheckOK          = "ok"
	CheckAdapted     = "parameter adapted"
	CheckNoStreaming = "no streaming"
	CheckKeyRefused  = "key refused"
	CheckNotFound    = "model not found"
	CheckTimeout     = "timeout"
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
	Participant string        `json:"participant"`
	Fallback    bool          `json:"fallback,omitempty"` // the row is the participant's fallback model
	Model       string        `json:"model"`
	Host        string        `json:"host"` // the endpoint's host, no credentials
	Result      string        `json:"result"`
	Usable      bool          `json:"usable"`
	Detail      string        `json:"detail,omitempty"` // the failure or the adaptation, keys redacted
	Latency     time.Duration `json:"-"`
	LatencyMS   int64         `json:"latencyMs"`
}

// checkPrompt is the tiny call a probe makes: with a system message, as
// every prompt of a run has one, so that a model refusing it shows here.
var checkPrompt = []Message{
	{Role: "system", Content: "You check that a model answers."},
	{Role: "user", Content: "Reply with the single word: ok"},
}

// checkMaxTokens leaves a reasoning model room to say "ok".
const checkMaxTokens = 64

// Check makes one tiny call per distinct endpoint and model of cfg
// (primaries and fallbacks of every participant), all in parallel, and
// returns a row per participant and model in participant order. A model is
// usable when it answered, even after adapting a parameter or without
// streaming; an answer cut at the token limit still proves the key and the
// model.
func Check(ctx context.Context, cfg *configs.Config, opt CheckOptions) ([]CheckRow, error) {
	type probe struct {
		participant string
		model       string
		key         string
	}
	var rows []CheckRow
	var probes []probe
	index := map[string]int{} // probe key → probe
	for _, p := range cfg.Participants() {
		api := cfg.Endpoint(p.ID)
		for i, model := range []string{p.Model, p.Fallback} {
			if model == "" {
				continue
			}
			k := api.BaseURL + "\x00" + api.APIKey + "\x00" + model
			if _, ok := index[k]; !ok {
				index[k] = len(probes)
				probes = append(probes, probe{participant: p.ID, model: model, key: k})
			}
			rows = append(rows, CheckRow{Participant: p.ID, Fallback: i == 1, Model: model, Host: host(api.BaseURL)})
		}
	}
	c, err := New(cfg, Options{HTTPClient: opt.HTTPClient, Concurrency: max(len(probes), 1)})
	if err != nil {
		return nil, err
	}
	timeout := cmp.Or(opt.Timeout, 30*time.Second)
	found := iter.Map(probes, func(p *probe) CheckRow {
		pctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		n := checkMaxTokens
		start := time.Now()
		_, err := c.Complete(pctx, Request{Participant: p.participant, Model: p.model, Messages: checkPrompt, MaxTokens: &n})
		return c.verdict(p.participant, p.model, err, time.Since(start))
	})
	for i := range rows {
		api := cfg.Endpoint(rows[i].Participant)
		f := found[index[api.BaseURL+"\x00"+api.APIKey+"\x00"+rows[i].Model]]
		rows[i].Result, rows[i].Usable, rows[i].Detail, rows[i].Latency = f.Result, f.Usable, f.Detail, f.Latency
		rows[i].LatencyMS = f.Latency.Milliseconds()
	}
	return rows, ctx.Err()
}

// verdict says what a probe's outcome means.
func (c *Client) verdict(participant, model string, err error, latency time.Duration) CheckRow {
	row := CheckRow{Latency: latency.Round(time.Millisecond)}
	var e *Error
	switch {
	case err == nil, errors.As(err, &e) && (e.Kind == KindCut || e.Kind == KindEmpty):
		row.Result, row.Usable = CheckOK, true
		ep := c.route(participant).ep.url
		for _, a := range c.Adaptations() {
			if a.Endpoint != ep || a.Model != model {
				continue
			}
			row.Result = CheckAdapted
			if a.Param == "stream" {
				row.Result = CheckNoStreaming
			}
			row.Detail = a.describe()
		}
		return row
	case errors.As(err, &e):
		// The table names the participant, the model and the endpoint:
		// the detail is the server's status and reason.
		row.Detail = reason(e)
		if e.Status != 0 {
			row.Detail = fmt.Sprintf("status %d: %s", e.Status, row.Detail)
		}
		switch e.Kind {
		case KindAuth:
			row.Result = CheckKeyRefused
		case KindNotFound:
			row.Result = CheckNotFound
		case KindTimeout:
			row.Result = CheckTimeout
		default:
			row.Result = e.Kind.String()
		}
		return row
	}
	row.Result, row.Detail = KindOther.String(), c.redactor.redact(err.Error())
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

// host is the host of a base URL, without credentials; the default
// endpoint's when base is empty.
func host(base string) string {
	u, err := url.Parse(cmp.Or(base, defaultBaseURL))
	if err != nil {
		return "?"
	}
	return u.Host
}
