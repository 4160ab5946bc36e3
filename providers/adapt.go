package providers

import (
	"cmp"
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/debatehq/debate/providers/wire"
	"github.com/debatehq/debate/tree"
)

// Adaptation is a change the client made to the requests for one model at
// one endpoint after the server refused a parameter; it holds for the rest
// of the run.
type Adaptation struct {
	Endpoint string `json:"endpoint"` // base URL, without credentials
	Model    string `json:"model"`
	Param    string `json:"param"`  // the refused parameter, e.g. "max_tokens"
	Change   string `json:"change"` // what is sent instead
	Reason   string `json:"reason"` // the server's words
	// How is the change as a code.
	How tree.AdaptationCode `json:"how,omitempty"`
}

// shape is how requests for one model at one endpoint are adapted.
type shape struct {
	maxCompletion   bool   // max_completion_tokens instead of max_tokens
	noTemperature   bool   // no temperature at all
	noStream        bool   // not streamed
	noStreamOptions bool   // no stream_options
	noSystem        bool   // system messages sent as user messages
	format          string // "": as configured; "none" or "json_schema"
	drop            []string
}

// learner remembers the adaptations of a run. The first call for a model at
// an endpoint goes alone until the server's status is known (at most
// gateWait: a non-streamed answer brings its status only at its end), so
// that parallel calls do not each pay the same refusal.
type learner struct {
	mu     sync.Mutex
	shapes map[string]*shape
	gates  map[string]chan struct{} // closed once the first status is known
	list   []Adaptation
}

func learnKey(ep *endpoint, model string) string { return ep.key + "\x00" + model }

// gateWait bounds how long a call waits for the first call of its model
// to learn the server's status; refusals come back at once.
const gateWait = 10 * time.Second

// enter returns the shape to use for model at ep and a release function
// the caller calls once the first status is known (or the call ends); it
// waits while another call is first, up to gateWait.
func (l *learner) enter(ctx context.Context, ep *endpoint, model string) (shape, func(), error) {
	k := learnKey(ep, model)
	l.mu.Lock()
	if l.gates == nil {
		l.gates, l.shapes = map[string]chan struct{}{}, map[string]*shape{}
	}
	g, waiting := l.gates[k]
	if !waiting {
		g = make(chan struct{})
		l.gates[k] = g
	}
	l.mu.Unlock()
	if !waiting {
		return l.shape(k), sync.OnceFunc(func() { close(g) }), nil
	}
	select {
	case <-g: // known already: no wait, even for a context that ended
		return l.shape(k), func() {}, nil
	default:
	}
	timer := time.NewTimer(gateWait)
	defer timer.Stop()
	select {
	case <-g:
	case <-timer.C:
	case <-ctx.Done():
		return shape{}, nil, ctx.Err()
	}
	return l.shape(k), func() {}, nil
}

// shape returns a copy of the shape for k.
func (l *learner) shape(k string) shape {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.shapes[k]; s != nil {
		c := *s
		c.drop = slices.Clone(s.drop)
		return c
	}
	return shape{}
}

// learn records adaptation a for model at ep, applied by change; it reports
// whether it is new for the run.
func (l *learner) learn(ep *endpoint, model string, a Adaptation, change func(*shape)) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := learnKey(ep, model)
	s := l.shapes[k]
	if s == nil {
		s = &shape{}
		l.shapes[k] = s
	}
	change(s)
	if slices.ContainsFunc(l.list, func(b Adaptation) bool {
		return b.Endpoint == a.Endpoint && b.Model == a.Model && b.Param == a.Param
	}) {
		return false
	}
	l.list = append(l.list, a)
	return true
}

// adaptations returns what was learned, sorted.
func (l *learner) adaptations() []Adaptation {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Clone(l.list)
	slices.SortFunc(out, func(a, b Adaptation) int {
		return cmp.Or(strings.Compare(a.Endpoint, b.Endpoint), strings.Compare(a.Model, b.Model), strings.Compare(a.Param, b.Param))
	})
	return out
}

// quoted finds the parameter a refusal names in quotes, as in OpenAI's
// "Unsupported parameter: 'max_tokens' is not supported with this model."
var quoted = regexp.MustCompile(`['"\x60]([a-z_][a-z0-9_.]*)['"\x60]`)

// refused reads a 400 for a parameter the server does not support, and
// returns the change that avoids it for r, sent as req with s, or false when
// the refusal is of something else or the change would alter nothing.
func refused(e *Error, r Request, req *wire.Request, s shape, extra []string) (Adaptation, func(*shape), bool) {
	if e.Class == ClassNoSystem && !s.noSystem && slices.ContainsFunc(r.Messages, func(m Message) bool { return m.Role == "system" }) {
		return Adaptation{Reason: oneLine(reason(e)), Param: "system", Change: "sent as the first user message", How: tree.SystemAsUser},
			func(s *shape) { s.noSystem = true }, true
	}
	if e.Class != ClassBadRequest || e.Status != 400 {
		return Adaptation{}, nil, false
	}
	msg, param := refusalText(e)
	low := strings.ToLower(msg)
	// The words of a refusal of what was asked, not of its value being out
	// of range ("Invalid 'max_tokens': integer above maximum value" is not
	// answered by another parameter).
	unsupported := containsAny(low, "unsupported", "not supported", "not support", "does not support",
		"unrecognized", "unknown", "not allowed", "not permitted", "extra inputs", "not available")
	names := map[string]bool{}
	if param != "" {
		names[param] = true
	}
	for _, m := range quoted.FindAllStringSubmatch(msg, -1) {
		names[strings.SplitN(m[1], ".", 2)[0]] = true
	}
	mentions := func(p string) bool { return names[p] || strings.Contains(low, p) }
	a := Adaptation{Reason: oneLine(msg)}
	switch {
	case req.MaxTokens > 0 && mentions("max_tokens") && (unsupported || strings.Contains(low, "max_completion_tokens")) && !s.maxCompletion:
		a.Param, a.Change, a.How = "max_tokens", "max_completion_tokens", tree.Replaced
		return a, func(s *shape) { s.maxCompletion = true }, true
	case req.Temperature != nil && mentions("temperature") &&
		(unsupported || strings.Contains(low, "only the default")) && !s.noTemperature:
		a.Param, a.Change, a.How = "temperature", "left out (the model's default)", tree.LeftOut
		return a, func(s *shape) { s.noTemperature = true }, true
	case req.ResponseFormat != nil && mentions("response_format") && (unsupported || strings.Contains(low, "must be")) && s.format != "none":
		a.Param = "response_format"
		if req.ResponseFormat.Type == openai.ChatCompletionResponseFormatTypeJSONObject && len(r.Schema) > 0 &&
			strings.Contains(low, "json_schema") && s.format == "" {
			a.Change, a.How = "json_schema", tree.Replaced
			return a, func(s *shape) { s.format = "json_schema" }, true
		}
		a.Change, a.How = "left out (the answer's JSON is read from its text)", tree.LeftOut
		return a, func(s *shape) { s.format = "none" }, true
	case req.StreamOptions != nil && mentions("stream_options") && unsupported && !s.noStreamOptions:
		a.Param, a.Change, a.How = "stream_options", "left out (usage estimated when missing)", tree.LeftOut
		return a, func(s *shape) { s.noStreamOptions = true }, true
	case req.Stream && (names["stream"] || strings.Contains(low, "stream")) && (unsupported || strings.Contains(low, "verified to stream")) && !s.noStream:
		a.Param, a.Change, a.How = "stream", "no streaming", tree.NoStreaming
		return a, func(s *shape) { s.noStream = true }, true
	}
	for _, k := range extra {
		if names[k] && unsupported && !slices.Contains(s.drop, k) {
			a.Param, a.Change, a.How = k, "left out", tree.LeftOut
			return a, func(s *shape) { s.drop = append(s.drop, k) }, true
		}
	}
	return Adaptation{}, nil, false
}

// refusalText returns the server's message and the parameter it names
// (OpenAI's "param").
func refusalText(e *Error) (msg, param string) {
	var se *statusError
	if errors.As(e, &se) && se.detail != nil {
		return se.detail.Message, se.detail.Param
	}
	return reason(e), ""
}

// reason is the cause of e alone, without its kind, model and endpoint.
func reason(e *Error) string {
	if e.Err == nil {
		return e.Class.String()
	}
	return e.Err.Error()
}

func containsAny(s string, subs ...string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// oneLine shortens a server message for a log line and run.json.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxBody {
		s = s[:maxBody] + "…"
	}
	return s
}
