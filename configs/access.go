package configs

import (
	"maps"
	"slices"

	"github.com/debatehq/debate/internal/redact"
)

// redactedKey replaces API keys in Redacted copies.
const redactedKey = "[redacted]"

// Participants returns the debaters in order, then the judges (Panel), then
// the protocol roles played by models (RoleParticipants).
func (c *Config) Participants() []Participant {
	ps := append(slices.Clone(c.Debaters), c.Panel()...)
	return append(ps, c.RoleParticipants()...)
}

// Panel returns the judges in order, the first chairing: the judges list,
// else the reviewer alone, else none.
func (c *Config) Panel() []Participant {
	if len(c.Judges) > 0 {
		return slices.Clone(c.Judges)
	}
	if c.Reviewer != nil {
		return []Participant{*c.Reviewer}
	}
	return nil
}

// judgesPath is the field path of the panel: "judges", or where the
// reviewer is written.
func (c *Config) judgesPath() string {
	if len(c.Judges) > 0 {
		return "judges"
	}
	return c.reviewerPath()
}

// participant finds the debater or reviewer with the given id.
func (c *Config) participant(id string) (*Participant, bool) {
	for i := range c.Debaters {
		if c.Debaters[i].ID == id {
			return &c.Debaters[i], true
		}
	}
	if c.Reviewer != nil && c.Reviewer.ID == id {
		return c.Reviewer, true
	}
	for i := range c.Judges {
		if c.Judges[i].ID == id {
			return &c.Judges[i], true
		}
	}
	for _, p := range c.roleParticipants() {
		if p.ID == id {
			return p, true
		}
	}
	return nil, false
}

// Endpoint returns the API a participant calls: its own api fields merged
// over the top-level api, field by field, set fields winning (MaxRetries is a
// pointer so that an explicit 0 overrides). An unknown id gets the top-level
// api. The result shares no pointers with the config.
func (c *Config) Endpoint(participantID string) API {
	out := c.API
	var o *API
	if p, ok := c.participant(participantID); ok {
		o = p.API
	} else if a := c.modelArbitrator(); a != nil && a.ID == participantID {
		o = a.API
	}
	if o != nil {
		if o.BaseURL != "" {
			out.BaseURL = o.BaseURL
		}
		if o.APIKey != "" {
			out.APIKey = o.APIKey
		}
		if o.Timeout != 0 {
			out.Timeout = o.Timeout
		}
		if o.MaxRetries != nil {
			out.MaxRetries = o.MaxRetries
		}
		if o.MaxConcurrent != 0 {
			out.MaxConcurrent = o.MaxConcurrent
		}
		if o.RequestsPerMinute != 0 {
			out.RequestsPerMinute = o.RequestsPerMinute
		}
		if o.ResponseFormat != "" {
			out.ResponseFormat = o.ResponseFormat
		}
		if o.Stream != nil {
			out.Stream = o.Stream
		}
		if o.CacheControl != nil {
			out.CacheControl = o.CacheControl
		}
		if o.IdleTimeout != 0 {
			out.IdleTimeout = o.IdleTimeout
		}
		if o.MaxResponseBytes != 0 {
			out.MaxResponseBytes = o.MaxResponseBytes
		}
		out.ExtraBody = mergeMaps(out.ExtraBody, o.ExtraBody)
		out.Headers = mergeMaps(out.Headers, o.Headers)
	}
	return out.clone()
}

// secretHeaders returns the values of the headers that carry credentials,
// sorted.
func secretHeaders(h map[string]string) []string {
	var out []string
	for k, v := range h {
		if redact.SecretName(k) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// Secrets returns every non-empty API key, credential header value (see
// redact.SecretName) and credential inside a base URL (see
// redact.URLSecrets) of the config (after ${NAME} expansion), without
// duplicates, so that callers can scrub them from anything they print.
func (c *Config) Secrets() []string {
	var out []string
	add := func(a *API) {
		if a == nil {
			return
		}
		for _, v := range slices.Concat([]string{a.APIKey}, secretHeaders(a.Headers), redact.URLSecrets(a.BaseURL)) {
			if v != "" && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	add(&c.API)
	for i := range c.Debaters {
		add(c.Debaters[i].API)
	}
	if c.Reviewer != nil {
		add(c.Reviewer.API)
	}
	if c.Judge != nil {
		add(c.Judge.API)
	}
	for i := range c.Judges {
		add(c.Judges[i].API)
	}
	for _, a := range c.protocolAPIs() {
		add(a)
	}
	for _, p := range c.participantRefs() {
		for _, a := range []*Agent{p.Agent, p.FallbackAgent} {
			if a == nil {
				continue
			}
			for _, v := range secretArgs(a.Args) {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// Redacted returns a deep copy of the config with every non-empty API key
// replaced by "[redacted]", every credential header value too, and the
// credentials in every base URL and the database URL masked (redact.URL),
// safe to marshal into a run record. The config itself is left unchanged.
func (c *Config) Redacted() Config {
	cp := c.Clone()
	mask := func(a *API) {
		if a != nil && a.APIKey != "" {
			a.APIKey = redactedKey
		}
		if a != nil {
			a.BaseURL = redact.URL(a.BaseURL)
			for k := range a.Headers {
				if redact.SecretName(k) {
					a.Headers[k] = redactedKey
				}
			}
		}
	}
	mask(&cp.API)
	for i := range cp.Debaters {
		mask(cp.Debaters[i].API)
	}
	if cp.Reviewer != nil {
		mask(cp.Reviewer.API)
	}
	if cp.Judge != nil {
		mask(cp.Judge.API)
	}
	for i := range cp.Judges {
		mask(cp.Judges[i].API)
	}
	for _, a := range cp.protocolAPIs() {
		mask(a)
	}
	if cp.Protocol != nil {
		cp.Protocol.DB = redact.URL(cp.Protocol.DB)
	}
	for _, p := range cp.participantRefs() {
		for _, a := range []*Agent{p.Agent, p.FallbackAgent} {
			if a != nil {
				a.Args = a.RedactedArgs()
			}
		}
	}
	return cp
}

// Clone returns a deep copy of the config: changing the copy, down to its
// participants' endpoints and the protocol roles, leaves c as it is.
func (c *Config) Clone() Config {
	cp := *c
	cp.API = c.API.clone()
	cp.Debaters = make([]Participant, len(c.Debaters))
	for i, p := range c.Debaters {
		cp.Debaters[i] = p.clone()
	}
	if c.Debaters == nil {
		cp.Debaters = nil
	}
	if c.Reviewer != nil {
		r := c.Reviewer.clone()
		cp.Reviewer = &r
	}
	if c.Judge != nil {
		j := c.Judge.clone()
		cp.Judge = &j
	}
	if c.Judges != nil {
		cp.Judges = make([]Participant, len(c.Judges))
		for i, p := range c.Judges {
			cp.Judges[i] = p.clone()
		}
	}
	cp.Params.Temperature = clonePtr(c.Params.Temperature)
	cp.Params.ParallelCalls = clonePtr(c.Params.ParallelCalls)
	cp.Params.Synthesis = clonePtr(c.Params.Synthesis)
	cp.Params.Blind = clonePtr(c.Params.Blind)
	cp.Params.Seed = clonePtr(c.Params.Seed)
	cp.Topics = slices.Clone(c.Topics)
	for i := range cp.Topics {
		cp.Topics[i].Annotations = slices.Clone(cp.Topics[i].Annotations)
		cp.Topics[i].CoreQuestions = slices.Clone(cp.Topics[i].CoreQuestions)
		if sc := cp.Topics[i].SharedContext; sc != nil {
			cp.Topics[i].SharedContext = sc.clone()
		}
	}
	cp.SharedContext = *c.SharedContext.clone()
	cp.Output.Format = slices.Clone(c.Output.Format)
	cp.Pricing = maps.Clone(c.Pricing)
	cp.Warnings = slices.Clone(c.Warnings)
	c.cloneProtocol(&cp)
	return cp
}

func (sc *SharedContext) clone() *SharedContext {
	cp := *sc
	cp.Files = slices.Clone(sc.Files)
	cp.Documents = slices.Clone(sc.Documents)
	cp.Skipped = slices.Clone(sc.Skipped)
	return &cp
}

func (a API) clone() API {
	a.MaxRetries = clonePtr(a.MaxRetries)
	a.Stream = clonePtr(a.Stream)
	a.ExtraBody = cloneJSON(a.ExtraBody)
	a.Headers = maps.Clone(a.Headers)
	return a
}

// mergeMaps returns base with over's entries added, over winning; nil when
// both are empty. Neither map is changed.
func mergeMaps[V any](base, over map[string]V) map[string]V {
	if len(base) == 0 && len(over) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]V{}
	}
	maps.Copy(out, over)
	return out
}

// cloneJSON deep-copies a decoded JSON object.
func cloneJSON(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneJSONValue(v)
	}
	return out
}

func cloneJSONValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneJSON(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneJSONValue(e)
		}
		return out
	}
	return v
}

func (p Participant) clone() Participant {
	p.Temperature = clonePtr(p.Temperature)
	p.Agent, p.FallbackAgent = p.Agent.clone(), p.FallbackAgent.clone()
	if p.API != nil {
		a := p.API.clone()
		p.API = &a
	}
	return p
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// TopicByID returns the topic with the given id.
func (c *Config) TopicByID(id string) (Topic, bool) {
	for _, t := range c.Topics {
		if t.ID == id {
			return t, true
		}
	}
	return Topic{}, false
}

// TopicIDs returns the ids of all topics, in config order.
func (c *Config) TopicIDs() []string {
	ids := make([]string, len(c.Topics))
	for i, t := range c.Topics {
		ids[i] = t.ID
	}
	return ids
}

// ParallelCalls reports whether the debaters of one step are called in
// parallel (params.parallelCalls, default true).
func (c *Config) ParallelCalls() bool {
	return c.Params.ParallelCalls == nil || *c.Params.ParallelCalls
}

// Synthesis reports whether the per-topic conclusion and proposed-edits calls
// run (params.synthesis, default true).
func (c *Config) Synthesis() bool {
	return c.Params.Synthesis == nil || *c.Params.Synthesis
}

// Blind reports whether debaters are known by aliases in shuffled order
// (params.blind, default true).
func (c *Config) Blind() bool {
	return c.Params.Blind == nil || *c.Params.Blind
}

// Quotes reports whether debaters quote the shared documents and the engine
// verifies their quotes: params.quotes (default true) when there are shared
// documents, a topic's own or a shared repository to quote.
func (c *Config) Quotes() bool {
	return (c.Params.Quotes == nil || *c.Params.Quotes) && (len(c.AllDocuments()) > 0 || c.SharedContext.Repository != "")
}
