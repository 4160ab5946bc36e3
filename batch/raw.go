package batch

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers"
)

// rawLog collects every request/response pair of a run for the raw/ folder.
// The providers package has already removed keys from what it records.
type rawLog struct {
	mu   sync.Mutex
	list []providers.Exchange
}

func (r *rawLog) add(x providers.Exchange) {
	r.mu.Lock()
	r.list = append(r.list, x)
	r.mu.Unlock()
}

// files returns one JSON file per exchange, numbered in the order they were
// recorded and named by what the call was for: topic, node, step,
// participant and attempt, so that parallel calls can be told apart
// ("0007-t1-d1-2-rebuttal-b-attempt2.json"). The body carries the same,
// unabridged.
func (r *rawLog) files() []output.RawFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]output.RawFile, 0, len(r.list))
	for i, x := range r.list {
		body, err := json.MarshalIndent(struct {
			Topic       string          `json:"topic,omitempty"`
			Node        string          `json:"node,omitempty"`
			Step        string          `json:"step,omitempty"`
			Participant string          `json:"participant"`
			Model       string          `json:"model"`
			Attempt     int             `json:"attempt"`
			Started     time.Time       `json:"started"`
			LatencyMS   int64           `json:"latencyMs"`
			Status      int             `json:"status,omitempty"`
			Error       string          `json:"error,omitempty"`
			Request     json.RawMessage `json:"request,omitempty"`
			Response    json.RawMessage `json:"response,omitempty"`
		}{x.Origin.Topic, x.Origin.Node, x.Origin.Step, x.Participant, x.Model, x.Attempt, x.Started, x.Latency.Milliseconds(), x.Status, x.Err,
			rawJSON(x.Request), rawJSON(x.Response)}, "", "  ")
		if err != nil {
			continue
		}
		name := []string{fmt.Sprintf("%04d", i+1)}
		for _, part := range []string{x.Origin.Topic, x.Origin.Node, x.Origin.Step, x.Participant} {
			if s := output.Slug(part); s != "" {
				name = append(name, s)
			}
		}
		name = append(name, fmt.Sprintf("attempt%d", x.Attempt))
		out = append(out, output.RawFile{Name: strings.Join(name, "-") + ".json", Body: append(body, '\n')})
	}
	return out
}

// rawJSON keeps a body as JSON when it is JSON, else as a JSON string.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}
