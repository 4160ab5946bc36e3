package configs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/debatehq/debate/internal/regular"
)

// Defaults of the protocol section.
const (
	// DefaultMaxTurns is protocol.maxTurns: 12 proposer replies.
	DefaultMaxTurns = 12
	// DefaultDebateType is protocol.debateType: "general_debate".
	DefaultDebateType = "general_debate"
	// HumanArbitrator is the value of protocol.arbitrator that leaves the
	// rulings to a person using the server on the same database.
	HumanArbitrator = "human"
)

// The participant ids of the protocol roles, used when a role does not name
// its own id. They pick the role's endpoint (Endpoint) like a debater's id.
const (
	ProposerID   = "proposer"
	OpponentID   = "opponent"
	ArbitratorID = "arbitrator"
)

// DebateTypes are the values protocol.debateType accepts.
var DebateTypes = []string{"general_debate", "coding_plan_debate"}

// Protocol configures the batch protocol debates of Motions: the model (or
// person) behind each role, the turn limit and the rules the prompts give.
type Protocol struct {
	Proposer   *Participant `json:"proposer,omitempty"`
	Opponent   *Participant `json:"opponent,omitempty"`
	Arbitrator *Arbitrator  `json:"arbitrator,omitempty"`
	// MaxTurns is the most replies the proposer makes; the last one must be
	// an APPEAL (or a RESOLUTION) and the ruling on it closes the debate.
	MaxTurns int `json:"maxTurns,omitempty"`
	// DebateType selects the per-role rules: "general_debate" or
	// "coding_plan_debate".
	DebateType string `json:"debateType,omitempty"`
	// DB is the database the debates are kept in: a SQLite file or a
	// postgres:// URL; empty means the shared default (store.DefaultPath:
	// $DEBATE_DB, else the user's data folder), so that "debate serve" sees
	// them. A relative path starts at the config file's folder.
	DB string `json:"db,omitempty"`
}

// Arbitrator is the arbitrator role: a model participant, or a person when
// Human is set (written "arbitrator": "human" in the file).
type Arbitrator struct {
	ID       string `json:"id"`
	Label    string `json:"label,omitempty"`
	Model    string `json:"model"`
	Fallback string `json:"fallback,omitempty"`
	API      *API   `json:"api,omitempty"`
	Human    bool   `json:"-"`
}

// UnmarshalJSON reads the string "human" or a participant object.
func (a *Arbitrator) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s != HumanArbitrator {
			return fmt.Errorf(`arbitrator: want "human" or an object, got %q`, s)
		}
		*a = Arbitrator{Human: true}
		return nil
	}
	type plain Arbitrator
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = Arbitrator(p)
	return nil
}

// MarshalJSON writes "human" for a human arbitrator, else the participant.
func (a Arbitrator) MarshalJSON() ([]byte, error) {
	if a.Human {
		return json.Marshal(HumanArbitrator)
	}
	type plain Arbitrator
	return json.Marshal(plain(a))
}

// Participant returns the model arbitrator as a participant.
func (a Arbitrator) Participant() Participant {
	return Participant{ID: a.ID, Label: a.Label, Model: a.Model, Fallback: a.Fallback, API: a.API}
}

// Motion is one protocol debate to play: the proposer opens it with Motion,
// and Documents (files, relative to the config's folder) are stored in the
// debate database and referenced from the MOTION by document id.
type Motion struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Motion    string   `json:"motion"`
	Documents []string `json:"documents,omitempty"`

	// Docs holds the documents' contents, read by Load, in Documents order.
	Docs []Document `json:"-"`
}

// MotionByID returns the motion with the given id.
func (c *Config) MotionByID(id string) (Motion, bool) {
	for _, m := range c.Motions {
		if m.ID == id {
			return m, true
		}
	}
	return Motion{}, false
}

// MotionIDs returns the ids of all motions, in config order.
func (c *Config) MotionIDs() []string {
	ids := make([]string, len(c.Motions))
	for i, m := range c.Motions {
		ids[i] = m.ID
	}
	return ids
}

// roleParticipants returns the model-backed protocol roles: proposer,
// opponent, then the arbitrator unless it is a human. Absent roles are left
// out.
func (c *Config) roleParticipants() []*Participant {
	var out []*Participant
	if c.Protocol == nil {
		return out
	}
	if c.Protocol.Proposer != nil {
		out = append(out, c.Protocol.Proposer)
	}
	if c.Protocol.Opponent != nil {
		out = append(out, c.Protocol.Opponent)
	}
	return out
}

// RoleParticipants returns the participants of the protocol roles with a
// model — proposer, opponent, and the arbitrator unless it is a human — in
// that order. It is empty without a protocol section.
func (c *Config) RoleParticipants() []Participant {
	var out []Participant
	for _, p := range c.roleParticipants() {
		out = append(out, *p)
	}
	if a := c.modelArbitrator(); a != nil {
		out = append(out, a.Participant())
	}
	return out
}

// modelArbitrator returns the arbitrator when a model plays it.
func (c *Config) modelArbitrator() *Arbitrator {
	if c.Protocol == nil || c.Protocol.Arbitrator == nil || c.Protocol.Arbitrator.Human {
		return nil
	}
	return c.Protocol.Arbitrator
}

// applyProtocolDefaults fills the protocol's unset fields: role ids and
// labels, maxTurns, debateType; and resolves the database path.
func (c *Config) applyProtocolDefaults(src *source) {
	p := c.Protocol
	if p == nil {
		return
	}
	role := func(q *Participant, id, label string) {
		if q == nil {
			return
		}
		if q.ID == "" {
			q.ID = id
		}
		if q.Label == "" {
			q.Label = label
		}
	}
	role(p.Proposer, ProposerID, "Proposer")
	role(p.Opponent, OpponentID, "Opponent")
	if a := p.Arbitrator; a != nil && !a.Human {
		if a.ID == "" {
			a.ID = ArbitratorID
		}
		if a.Label == "" {
			a.Label = "Arbitrator"
		}
	}
	if p.MaxTurns == 0 && !src.written("protocol.maxTurns") {
		p.MaxTurns = DefaultMaxTurns
	}
	if p.DebateType == "" {
		p.DebateType = DefaultDebateType
	}
}

// validateProtocol checks the protocol section and the motions. It runs after
// the participants were checked, with owner holding their ids.
func (c *Config) validateProtocol(r *reporter, owner map[string]string) {
	if len(c.Motions) > 0 && c.Protocol == nil {
		r.missing("", "protocol", `required with motions: add "protocol": {"proposer": {"model": "…"}, "opponent": {"model": "…"}, "arbitrator": {"model": "…"} or "human"}`)
	}
	if p := c.Protocol; p != nil {
		check := func(path string, id, model string, api *API) {
			if strings.TrimSpace(id) == "" {
				r.at(joinPath(path, "id"), "must not be empty; leave it out to use the role's name")
			} else if prev, dup := owner[id]; dup {
				r.at(joinPath(path, "id"), "duplicate id %q (already used by %s); every participant needs its own id", id, prev)
			} else {
				owner[id] = path
			}
			if strings.TrimSpace(model) == "" {
				r.missing(path, "model", `required: add a "model" field with the model name, e.g. "gpt-5.2"`)
			}
			if api != nil {
				c.validateAPI(r, joinPath(path, "api"), api, false)
			}
		}
		for _, role := range []struct {
			name string
			p    *Participant
		}{{"proposer", p.Proposer}, {"opponent", p.Opponent}} {
			path := joinPath("protocol", role.name)
			if role.p == nil {
				r.missing("protocol", role.name, `required: add {"model": "…"} for the %s`, role.name)
				continue
			}
			check(path, role.p.ID, role.p.Model, role.p.API)
		}
		switch a := p.Arbitrator; {
		case a == nil:
			r.missing("protocol", "arbitrator", `required: add {"model": "…"}, or "human" to make the rulings yourself through "debate serve"`)
		case !a.Human:
			check("protocol.arbitrator", a.ID, a.Model, a.API)
		}
		if p.MaxTurns < 1 {
			r.at("protocol.maxTurns", "must be at least 1 (got %d)", p.MaxTurns)
		}
		r.atMost("protocol.maxTurns", int64(p.MaxTurns), MaxTurns, "proposer replies")
		if !slices.Contains(DebateTypes, p.DebateType) {
			r.at("protocol.debateType", "unknown debate type %q; use %s", p.DebateType, quoteList(DebateTypes))
		}
		if strings.TrimSpace(p.DB) == "" && c.src.written("protocol.db") {
			r.at("protocol.db", "empty path; leave the field out to use the shared default database")
		}
	}
	c.validateMotions(r)
}

// validateMotions checks every motion and reads its documents.
func (c *Config) validateMotions(r *reporter) {
	owner := map[string]string{}
	for _, t := range c.Topics {
		if t.ID != "" {
			owner[t.ID] = "a topic"
		}
	}
	for i := range c.Motions {
		m := &c.Motions[i]
		path := indexPath("motions", i)
		r.uniqueID(path, m.ID, "m1", owner, "duplicate id %q (already used by %s); give every topic and motion its own id")
		if strings.TrimSpace(m.Title) == "" {
			r.missing(path, "title", `required: add a "title" naming the motion`)
		}
		if strings.TrimSpace(m.Motion) == "" {
			r.missing(path, "motion", `required: add a "motion" stating what the proposer puts forward`)
		}
		m.Docs = nil
		for j, f := range m.Documents {
			dpath := indexPath(joinPath(path, "documents"), j)
			if strings.TrimSpace(f) == "" {
				r.at(dpath, "empty file name; remove the entry or name a file")
				continue
			}
			b, err := regular.ReadFile(c.resolve(f), MaxDocumentBytes)
			if err != nil {
				r.at(dpath, "cannot read %s: %s; fix the path (relative paths start at the config file's folder)", c.resolve(f), errReason(err))
				continue
			}
			m.Docs = append(m.Docs, Document{Path: f, Content: string(b)})
		}
	}
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, " or ")
}

// cloneProtocol deep-copies the protocol section and the motions into cp.
func (c *Config) cloneProtocol(cp *Config) {
	if c.Protocol != nil {
		p := *c.Protocol
		if p.Proposer != nil {
			q := p.Proposer.clone()
			p.Proposer = &q
		}
		if p.Opponent != nil {
			q := p.Opponent.clone()
			p.Opponent = &q
		}
		if p.Arbitrator != nil {
			a := *p.Arbitrator
			if a.API != nil {
				api := a.API.clone()
				a.API = &api
			}
			p.Arbitrator = &a
		}
		cp.Protocol = &p
	}
	cp.Motions = slices.Clone(c.Motions)
	for i := range cp.Motions {
		cp.Motions[i].Documents = slices.Clone(cp.Motions[i].Documents)
		cp.Motions[i].Docs = slices.Clone(cp.Motions[i].Docs)
	}
}

// protocolAPIs returns the api overrides of the protocol roles, for Secrets
// and Redacted.
func (c *Config) protocolAPIs() []*API {
	var out []*API
	if c.Protocol == nil {
		return out
	}
	for _, p := range c.roleParticipants() {
		out = append(out, p.API)
	}
	if a := c.Protocol.Arbitrator; a != nil {
		out = append(out, a.API)
	}
	return out
}
