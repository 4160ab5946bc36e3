package ops

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// MaxDecisionBytes bounds the JSON of a Decision, whatever the number of
// topics: at most about 9,000 tokens even when every word and mark is a
// token of its own, about 4,500 for a model's tokenizer.
const MaxDecisionBytes = 16 << 10

// maxGateIDs bounds the topics a gate names.
const maxGateIDs = 50

// Decision is what a run decided, compact enough for an agent to read
// whole: per topic its decision, its verdicts and what stays disputed,
// and the result of the run's gate (params.failOn).
type Decision struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Folder string `json:"folder"`
	// Counts are the topics per decision: agreed, decided, split, undecided.
	Counts map[string]int  `json:"counts"`
	Gate   Gate            `json:"gate"`
	Topics []TopicDecision `json:"topics"`
	// Omitted counts the topics left out to keep the answer short; the
	// run.json resource has them all.
	Omitted int    `json:"omittedTopics,omitempty"`
	RunJSON string `json:"runJson" jsonschema:"URI of the run.json resource: the whole run"`
}

// Gate is the run's gate: the decisions params.failOn lists, and the
// topics that reached one of them.
type Gate struct {
	FailOn []string `json:"failOn"`
	// Failed names the first topics that failed the gate; FailedCount
	// counts them all.
	Failed      []string `json:"failedTopics"`
	FailedCount int      `json:"failedCount"`
	Pass        bool     `json:"pass"`
}

// TopicDecision is one topic's decision.
type TopicDecision struct {
	ID       string `json:"id"`
	Title    string `json:"title,omitempty"`
	Decision string `json:"decision" jsonschema:"agreed, decided, split or undecided"`
	Cause    string `json:"cause,omitempty" jsonschema:"why the topic is undecided: failed, partial, no-verdict, budget or interrupted"`
	Status   string `json:"status"`
	// Consensus counts the points every debater agreed on.
	Consensus int               `json:"consensus"`
	Verdicts  tree.VerdictCount `json:"verdictCounts"`
	// Given are the verdicts given, each on a divergence.
	Given []Verdict `json:"verdicts,omitempty"`
	// Disputed are the divergences left without a verdict given.
	Disputed []string `json:"disputed,omitempty"`
	// More counts the verdicts and disputes left out to keep the answer
	// short; the topic's report has them.
	More   int    `json:"more,omitempty"`
	Report string `json:"report,omitempty" jsonschema:"URI of the topic's report resource"`
}

// Verdict is a verdict given on a divergence.
type Verdict struct {
	On             string `json:"on"`
	Recommendation string `json:"recommendation"`
}

// Decision returns what run id decided; a run still going has none yet.
func (rs *Runs) Decision(id string) (Decision, error) {
	r, err := rs.find(id)
	if err != nil {
		return Decision{}, err
	}
	res := r.result()
	if res == nil || res.Run == nil {
		st := r.status()
		return Decision{}, &RunError{Code: CodeRunNotEnded, Message: fmt.Sprintf("run %s is %s: %d of %d topics done", id, st.State, st.Done, st.Total),
			Suggestion: "wait for it with run_status (waitSeconds), then ask again"}
	}
	return decide(r.id, r.status(), res.Run, r.failOn), nil
}

// shape is how much of each topic a decision shows.
type shape struct {
	items, chars int  // rulings and disputes per topic, characters each
	titles       bool // topic titles
}

// shapes go from the fullest to the leanest.
var shapes = []shape{{5, 240, true}, {3, 120, true}, {2, 80, true}, {1, 60, true}, {0, 0, true}, {0, 0, false}}

// decide builds the decision of run, shrinking it until it fits
// MaxDecisionBytes: fewer and shorter verdicts first, then no titles, then
// fewer topics (the ones not agreed first).
func decide(id string, st Status, run *tree.Run, failOn []tree.Outcome) Decision {
	d := Decision{ID: id, State: st.State, Folder: st.Folder, Counts: map[string]int{},
		Gate: Gate{FailOn: []string{}, Failed: []string{}, Pass: true}, RunJSON: ReportURI(id, "run.json")}
	for o, n := range run.Decisions() {
		d.Counts[string(o)] = n
	}
	for _, o := range failOn {
		d.Gate.FailOn = append(d.Gate.FailOn, string(o))
	}
	for _, t := range run.Gated(failOn) {
		if d.Gate.FailedCount < maxGateIDs {
			d.Gate.Failed = append(d.Gate.Failed, t.ID)
		}
		d.Gate.FailedCount++
		d.Gate.Pass = false
	}
	topics := run.Topics
	for _, sh := range shapes {
		d.Topics = verdicts(id, topics, sh)
		if fits(d) {
			return d
		}
	}
	// Still too long: keep the topics that need a look first.
	var order []tree.Topic
	for _, t := range topics {
		if t.Decision != tree.Agreed {
			order = append(order, t)
		}
	}
	for _, t := range topics {
		if t.Decision == tree.Agreed {
			order = append(order, t)
		}
	}
	lean := shapes[len(shapes)-1]
	for n := len(order); n > 0; n = n * 3 / 4 {
		d.Topics, d.Omitted = verdicts(id, order[:n], lean), len(order)-n
		if fits(d) {
			return d
		}
	}
	d.Topics, d.Omitted = []TopicDecision{}, len(order)
	return d
}

func fits(d Decision) bool {
	b, _ := json.Marshal(d)
	return len(b) <= MaxDecisionBytes
}

// verdicts returns the topics' decisions in shape sh.
func verdicts(id string, topics []tree.Topic, sh shape) []TopicDecision {
	out := make([]TopicDecision, 0, len(topics))
	for i := range topics {
		t := &topics[i]
		v := TopicDecision{ID: t.ID, Decision: string(t.Decision), Cause: string(t.Cause), Status: string(t.Status),
			Verdicts: t.Verdicts, Report: ReportURI(id, output.TopicFile(t))}
		if sh.titles {
			v.Title = cut(t.Title, 120)
		}
		if t.Root != nil {
			v.Consensus = len(t.Root.AllConsensus())
			for _, dv := range t.Root.AllVerdicts() {
				on := dv.Divergence.Title
				if on == "" {
					on = dv.DivergenceID
				}
				switch given := dv.Given(); {
				case given && len(v.Given) < sh.items:
					v.Given = append(v.Given, Verdict{On: cut(on, sh.chars), Recommendation: cut(dv.Recommendation, sh.chars)})
				case !given && len(v.Disputed) < sh.items:
					v.Disputed = append(v.Disputed, cut(on, sh.chars))
				default:
					v.More++
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// cut shortens s to at most n characters, marking a cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}
