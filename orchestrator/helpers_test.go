package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// english is New with the reasons worded in English, as batch runs the
// engine, so that tests compare the words run.json holds beside the codes.
func english(cfg *configs.Config, c Completer, p builder, opt Options) *Engine {
	opt.Say = render.ReasonText
	return newEngine(cfg, c, p, opt)
}

// Test topics and divergences carry a marker «id» in their titles, so that a
// fake behind HTTP, where a request is only its messages, can tell which
// node it belongs to: the deepest marker in the messages is the node's (its
// ancestors' titles may be shown too). In process, a request's Origin names
// its node and step.
func mark(id string) string { return "«" + id + "»" }

// markers returns the node ids marked in the messages, without duplicates.
func markers(msgs []providers.Message) []string {
	var out []string
	for _, m := range msgs {
		for rest := m.Content; ; {
			i := strings.Index(rest, "«")
			if i < 0 {
				break
			}
			rest = rest[i+len("«"):]
			j := strings.Index(rest, "»")
			if j < 0 {
				break
			}
			if id := rest[:j]; !slices.Contains(out, id) {
				out = append(out, id)
			}
			rest = rest[j:]
		}
	}
	return out
}

// nodeOf returns the node a request belongs to, as its origin names it.
func nodeOf(r providers.Request) string { return r.Origin.Node }

// markedNode returns the node messages belong to: their deepest marker.
func markedNode(msgs []providers.Message) string {
	best := ""
	for _, id := range markers(msgs) {
		if best == "" || tree.DepthOf(id) > tree.DepthOf(best) {
			best = id
		}
	}
	return best
}

// ancestry returns id and the ids of its ancestors.
func ancestry(id string) []string {
	out := []string{tree.RootID, id}
	for i, c := range id {
		if c == '.' {
			out = append(out, id[:i])
		}
	}
	return out
}

// kind tells the judge's calls apart by what the request is: a repair
// carries the answer it repairs, a triage or forced verdicts name the
// schema of their answer.
func kind(r providers.Request) string {
	switch {
	case slices.ContainsFunc(r.Messages, func(m providers.Message) bool { return m.Role == prompts.RoleAssistant }):
		return "repair"
	case r.SchemaName == "forced_verdicts" || r.SchemaName == "panel_verdicts":
		return "forced"
	case r.SchemaName == "triage":
		return "triage"
	}
	return "other"
}

// overWire returns the request of participant that a call over HTTP stands
// for. The call carries its messages only: its node is their deepest
// marker, and the judge's calls are told apart by the name of the schema
// sent with them or, without one, by their prompts' words.
func overWire(participant string, c scripted.Call) providers.Request {
	var msgs []providers.Message
	for _, m := range c.Messages {
		msgs = append(msgs, providers.Message{Role: m.Role, Content: m.Content})
	}
	r := providers.Request{Participant: participant, Model: c.Model, Messages: msgs, Origin: providers.Origin{Node: markedNode(msgs)}}
	var body struct {
		Format *struct {
			Schema *struct{ Name string } `json:"json_schema"`
		} `json:"response_format"`
	}
	if json.Unmarshal(c.Body, &body) == nil && body.Format != nil && body.Format.Schema != nil {
		r.SchemaName = body.Format.Schema.Name
		return r
	}
	switch {
	case len(msgs) == 0:
	case strings.Contains(msgs[0].Content, "forcedVerdicts"):
		r.SchemaName = "forced_verdicts"
	case strings.Contains(msgs[len(msgs)-1].Content, `"divergences"`) || strings.Contains(msgs[0].Content, `"divergences"`):
		r.SchemaName = "triage"
	}
	return r
}

// verdictsFor answers a forced-verdict prompt that lists the given disputed
// titles, one verdict each.
func forcedAnswer(titles ...string) string {
	j := tree.Judgment{Consensus: []tree.Consensus{{Point: "agreed", Detail: "all of it"}}, Divergences: []tree.Divergence{}}
	for i, t := range titles {
		id := fmt.Sprintf("k%d", i+1)
		j.Divergences = append(j.Divergences, tree.Divergence{ID: id, Title: t, Sides: map[string]string{"party-a": "yes", "party-b": "no"}, Uninvolved: []string{"party-c"}})
		j.ForcedVerdicts = append(j.ForcedVerdicts, tree.Verdict{DivergenceID: id, Recommendation: "do " + t, Reasoning: "because"})
	}
	return fence(j)
}

// splitAnswer answers a triage prompt with one divergence per title, with the
// judge's own ids x1, x2 … that the program must replace.
func splitAnswer(titles ...string) string {
	j := tree.Judgment{Consensus: []tree.Consensus{{Point: "common ground", Detail: "some"}}, Divergences: []tree.Divergence{}}
	for i, t := range titles {
		j.Divergences = append(j.Divergences, tree.Divergence{
			ID: fmt.Sprintf("x%d", i+1), Title: t,
			Sides:      map[string]string{"party-a": "claim of A on " + t, "party-b": "claim of B on " + t},
			Uninvolved: []string{"party-c"},
		})
	}
	return fence(j)
}

func agreeAnswer() string { return forcedAnswer() }

func fence(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return "My assessment.\n\n```json\n" + string(b) + "\n```\n"
}

// script is a scripted debate: the judge's answers per node (in order, the
// last one repeating), fixed-size debater answers, optional failures.
type script struct {
	// judge holds the judge's answers by node id, the same in every topic,
	// or by "topic/node" for one topic's.
	judge map[string][]string
	// words is the size of every debater answer, in words.
	words int
	// says, when it has a debater's id, is every answer of that debater.
	says map[string]string
	// fail, when set, makes a call fail.
	fail func(r providers.Request) error
	// tokens is the usage reported per call (prompt and completion each).
	tokens int

	mu       sync.Mutex
	judged   map[string]int      // judge calls per node
	kinds    map[string][]string // judge call kinds per node
	requests []providers.Request
}

func (s *script) answer(ctx context.Context, r providers.Request) (providers.Response, error) {
	if err := ctx.Err(); err != nil {
		return providers.Response{}, err
	}
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
	if s.fail != nil {
		if err := s.fail(r); err != nil {
			return providers.Response{}, err
		}
	}
	resp := providers.Response{Model: r.Model, Usage: providers.Usage{PromptTokens: s.tokens, CompletionTokens: s.tokens}}
	node := nodeOf(r)
	if r.Participant != "judge" {
		resp.Text = fmt.Sprintf("%s at %s: %s", r.Participant, strings.Trim(node, "«»"), strings.Repeat("word ", s.words))
		if text, ok := s.says[r.Participant]; ok {
			resp.Text = text
		}
		return resp, nil
	}
	k := kind(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.judged == nil {
		s.judged, s.kinds = map[string]int{}, map[string][]string{}
	}
	s.kinds[node] = append(s.kinds[node], k)
	if k == "other" {
		resp.Text = "conclusion of " + node
		return resp, nil
	}
	answers, ok := s.judge[r.Origin.Topic+"/"+node]
	if !ok {
		answers = s.judge[node]
	}
	if len(answers) == 0 {
		resp.Text = agreeAnswer()
		return resp, nil
	}
	i := min(s.judged[node], len(answers)-1)
	s.judged[node]++
	resp.Text = answers[i]
	return resp, nil
}

func (s *script) kindsAt(node string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.kinds[node])
}

// unavailable is a 503 as the providers report it.
var unavailable = &providers.Error{Class: providers.ClassServerError, Status: 503, Err: errors.New("service unavailable")}

// completer is a function-field fake of the Completer.
type completer func(ctx context.Context, r providers.Request) (providers.Response, error)

func (f completer) Complete(ctx context.Context, r providers.Request) (providers.Response, error) {
	return f(ctx, r)
}

// testConfig is three debaters and a judge over the given topics, synthesis
// off, with labelled prompts in config order (blind prompts have tests of
// their own).
func testConfig(maxRounds int, topics ...string) *configs.Config {
	off := false
	cfg := &configs.Config{
		Debaters: []configs.Participant{
			{ID: "party-a", Label: "Party A", Model: "model-a"},
			{ID: "party-b", Label: "Party B", Model: "model-b"},
			{ID: "party-c", Label: "Party C", Model: "model-c"},
		},
		Reviewer: &configs.Participant{ID: "judge", Label: "Judge", Model: "model-j"},
		Params:   configs.Params{MaxRounds: maxRounds, Synthesis: &off, Blind: &off},
		Fallback: configs.Fallback{MaxConsecutiveFailures: 2},
	}
	for _, t := range topics {
		cfg.Topics = append(cfg.Topics, configs.Topic{
			ID: t, Title: "Topic " + t + " " + mark(tree.RootID), Background: "background of " + t,
			Annotations: []string{"an annotation"}, CoreQuestions: []string{"a question?"},
		})
	}
	return cfg
}

func promptSet(t testing.TB) *prompts.Set {
	t.Helper()
	p, err := prompts.New("en", "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []tree.Event
}

func (r *recorder) add(e tree.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// count returns how many events of kind match.
func (r *recorder) count(kind tree.EventKind, match func(tree.Event) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Kind == kind && (match == nil || match(e)) {
			n++
		}
	}
	return n
}

// fixedClock is a clock that always says the same time.
func fixedClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// shape renders a tree as lines "id status title", depth first.
func shape(n *tree.Node) []string {
	var out []string
	n.Walk(func(x *tree.Node) { out = append(out, fmt.Sprintf("%s %s", x.ID, x.Status)) })
	return out
}

// unpack returns a reading's judgment and error, as the tests check them.
func unpack(r reading) (*tree.Judgment, error) { return r.judgment, r.err }
