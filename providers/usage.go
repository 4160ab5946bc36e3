package providers

import (
	"maps"
	"sync"

	"github.com/debatehq/debate/configs"
)

// Tally counts the calls of one model or participant.
type Tally struct {
	Calls            int     `json:"calls"`    // Complete calls that ended
	Failures         int     `json:"failures"` // of which failed
	Retries          int     `json:"retries"`  // extra attempts made
	PromptTokens     int     `json:"promptTokens"`
	CompletionTokens int     `json:"completionTokens"`
	Cost             float64 `json:"cost,omitempty"` // from the price table; 0 if unpriced
}

// Tokens is the sum of prompt and completion tokens.
func (t Tally) Tokens() int { return t.PromptTokens + t.CompletionTokens }

func (t *Tally) add(o Tally) {
	t.Calls += o.Calls
	t.Failures += o.Failures
	t.Retries += o.Retries
	t.PromptTokens += o.PromptTokens
	t.CompletionTokens += o.CompletionTokens
	t.Cost += o.Cost
}

// Report is a snapshot of usage: per model (as requested), per participant
// and in total.
type Report struct {
	Models       map[string]Tally `json:"models"`
	Participants map[string]Tally `json:"participants"`
	Total        Tally            `json:"total"`
}

// meter accumulates usage; it is safe for concurrent use.
type meter struct {
	pricing map[string]configs.Price

	mu           sync.Mutex
	models       map[string]Tally
	participants map[string]Tally
	total        Tally
}

func newMeter(pricing map[string]configs.Price) *meter {
	return &meter{
		pricing:      pricing,
		models:       map[string]Tally{},
		participants: map[string]Tally{},
	}
}

// add records one finished call of model on behalf of participant.
// answered is the model the API named, used for pricing when the requested
// one has no price.
func (m *meter) add(participant, model, answered string, u Usage, retries int, failed bool) {
	t := Tally{Calls: 1, Retries: retries, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if failed {
		t.Failures = 1
	}
	p, ok := m.pricing[model]
	if !ok {
		p, ok = m.pricing[answered]
	}
	if ok {
		t.Cost = (float64(u.PromptTokens)*p.Input + float64(u.CompletionTokens)*p.Output) / 1e6
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	mt := m.models[model]
	mt.add(t)
	m.models[model] = mt
	pt := m.participants[participant]
	pt.add(t)
	m.participants[participant] = pt
	m.total.add(t)
}

func (m *meter) report() Report {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Report{Models: maps.Clone(m.models), Participants: maps.Clone(m.participants), Total: m.total}
}
