package quality

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/debatehq/debate/internal/stats"
	"github.com/debatehq/debate/tree"
)

// ReportVersion is the version of the JSON report.
const ReportVersion = 1

// Report is what a quality run measured.
type Report struct {
	Version int    `json:"version"`
	Task    string `json:"task"`
	Seed    uint64 `json:"seed"`
	// Problems is how many problems there were; Measured how many were
	// measured before the run ended or stopped.
	Problems int `json:"problems"`
	Measured int `json:"measured"`
	// Demo holds the scripted agents' parameters of a --demo run.
	Demo  *DemoParams `json:"demo,omitempty"`
	Arms  []ArmReport `json:"arms"`
	Diffs []Diff      `json:"diffs"`
	// Warnings name the arms whose answers were too often unreadable for
	// their accuracy to measure anything but the answer format.
	Warnings []Warning `json:"warnings,omitempty"`
	// Flips are how the debate arm's debaters changed their answers.
	Flips *Flips `json:"flips,omitempty"`
	// LoneAnswers are the answers the single and vote arms asked for,
	// right or not: in a demo, with the accuracy the agents should have.
	LoneAnswers *Rate `json:"loneAnswers,omitempty"`
	// Stopped says why the run ended before the last problem, if it did.
	Stopped string  `json:"stopped,omitempty"`
	WallMS  float64 `json:"wallMs"`
}

// DemoParams are the scripted agents of a demo run.
type DemoParams struct {
	Agents        int     `json:"agents"`
	AgentAccuracy float64 `json:"agentAccuracy"`
	Conformity    float64 `json:"conformity"`
	// QuoteAccuracy is the chance that an agent quotes a passage word for
	// word, when the problems have passages.
	QuoteAccuracy *float64 `json:"quoteAccuracy,omitempty"`
}

// ArmReport is one arm's figures.
type ArmReport struct {
	Name       string   `json:"name"`
	Correct    int      `json:"correct"`
	Unreadable int      `json:"unreadable"`
	Accuracy   float64  `json:"accuracy"`
	Interval   Interval `json:"interval"` // 95 % Wilson
	// Expected is the accuracy the demo's agents should reach, where it
	// can be computed (single and vote). ExpectedGivenAnswers is the vote's
	// given the lone answers the agents gave: each problem's plurality
	// right, or right at the tie's odds.
	Expected             *float64 `json:"expected,omitempty"`
	ExpectedGivenAnswers *float64 `json:"expectedGivenAnswers,omitempty"`
	givenAnswers         float64
	TokensPerProblem     float64 `json:"tokensPerProblem"`
	CostPerProblem       float64 `json:"costPerProblem"`
	// CostPerCorrect is the cost of the arm divided by its correct
	// answers; 0 when none is correct.
	CostPerCorrect float64 `json:"costPerCorrect"`
	// Quotes counts the arm's quotes of the passages, when it made any.
	Quotes *QuoteShare `json:"quotes,omitempty"`
}

// Warning says that an arm's answers were unreadable more often than
// maxUnreadable, with one of them.
type Warning struct {
	Arm        string `json:"arm"`
	Unreadable int    `json:"unreadable"`
	Measured   int    `json:"measured"`
	// Sample is the end of one unreadable answer, quoted, or why there was
	// none, in parentheses.
	Sample string `json:"sample"`
}

// maxUnreadable is the share of unreadable answers past which an arm's
// accuracy is not worth reading.
const maxUnreadable = 0.1

// String is the warning as a sentence.
func (w Warning) String() string {
	return fmt.Sprintf("warning: %s: no answer line in %d of %d answers, e.g. %s",
		w.Arm, w.Unreadable, w.Measured, w.Sample)
}

// Diff is the paired difference of two arms' accuracy on the same
// problems, with its 95 % paired bootstrap interval and the exact McNemar
// p-value.
type Diff struct {
	Name     string   `json:"name"` // "debate − vote"
	Arm      string   `json:"arm"`
	Baseline string   `json:"baseline"`
	Mean     float64  `json:"mean"`
	Interval Interval `json:"interval"`
	McNemarP float64  `json:"mcnemarP"`
}

// measure gathers the outcomes of the arms, problem by problem.
type measure struct {
	names   []string
	correct map[string][]bool
	read    map[string]int
	usage   map[string]tree.Usage
	quotes  map[string]tree.QuoteCount
	sample  map[string]string // the first unreadable answer of each arm
	tokens  int               // spent by every arm together
	flips   flipCounts
	// lone and loneRight count the lone answers (the single and vote
	// arms'), voteChance sums the chance, problem by problem, that their
	// plurality is right.
	lone, loneRight int
	voteChance      float64
}

func newMeasure(names []string) *measure {
	return &measure{names: names, correct: map[string][]bool{}, read: map[string]int{}, usage: map[string]tree.Usage{},
		quotes: map[string]tree.QuoteCount{}, sample: map[string]string{}}
}

// has reports whether the arm is measured.
func (m *measure) has(arm string) bool { return slices.Contains(m.names, arm) }

// add records one problem: the lone answers of every debater (the first
// one's is the single arm's), the tree run's and the judge's alone.
func (m *measure) add(p Problem, seed uint64, asked []outcome, d debated) {
	var votes []string
	var voteUsage tree.Usage
	var voteQuotes tree.QuoteCount
	for _, o := range asked {
		voteUsage = voteUsage.Add(o.usage)
		voteQuotes = voteQuotes.Plus(o.quotes)
		if o.read {
			votes = append(votes, o.answer)
		}
	}
	m.lone += len(votes)
	m.loneRight += count(sameAs(votes, p.Answer))
	m.voteChance += pluralityChance(votes, p.Answer)
	vote := outcome{read: len(votes) > 0, usage: voteUsage, quotes: voteQuotes}
	if vote.read {
		vote.answer = Plurality(votes, tieSeed(seed, p.ID, ArmVote))
	} else if len(asked) > 0 {
		vote.sample = asked[0].sample
	}
	single := outcome{}
	if len(asked) > 0 {
		single = asked[0]
	}
	d.lastVote.usage = tree.Usage{} // the same run as the debate arm's: counted once
	for name, o := range map[string]outcome{ArmSingle: single, ArmVote: vote, ArmDebate: d.concluded, ArmDebateVote: d.lastVote, ArmJudgeAlone: d.judge} {
		if !m.has(name) {
			continue
		}
		m.correct[name] = append(m.correct[name], o.read && Same(o.answer, p.Answer))
		m.quotes[name] = m.quotes[name].Plus(o.quotes)
		if o.read {
			m.read[name]++
		} else if m.sample[name] == "" {
			m.sample[name] = o.sample
		}
		m.usage[name] = m.usage[name].Add(o.usage)
	}
	if d.topic != nil {
		m.flips.addTopic(d.topic, d.ids, p.Answer, d.concluded.read && Same(d.concluded.answer, p.Answer), tieSeed(seed, p.ID, "round0"))
	}
	// single's call is one of vote's.
	m.tokens += voteUsage.Total() + d.concluded.usage.Total() + d.judge.usage.Total()
}

// report computes the figures of what was measured.
func (m *measure) report(seed uint64) *Report {
	r := &Report{Version: ReportVersion, Seed: seed, Measured: len(m.correct[ArmSingle]), Flips: m.flips.flips()}
	if m.lone > 0 {
		lone := rate(m.loneRight, m.lone)
		r.LoneAnswers = &lone
	}
	for _, name := range m.names {
		c := count(m.correct[name])
		a := ArmReport{Name: name, Correct: c, Unreadable: r.Measured - m.read[name], Interval: stats.Wilson(c, r.Measured)}
		u := m.usage[name]
		if name == ArmDebateVote {
			u = m.usage[ArmDebate]
		}
		if r.Measured > 0 {
			a.Accuracy = float64(c) / float64(r.Measured)
			a.TokensPerProblem = float64(u.Total()) / float64(r.Measured)
			a.CostPerProblem = u.Cost / float64(r.Measured)
		}
		if c > 0 {
			a.CostPerCorrect = u.Cost / float64(c)
		}
		a.Quotes = shareOf(m.quotes[name])
		if name == ArmVote && r.Measured > 0 {
			a.givenAnswers = m.voteChance / float64(r.Measured)
		}
		if r.Measured > 0 && float64(a.Unreadable) > maxUnreadable*float64(r.Measured) {
			r.Warnings = append(r.Warnings, Warning{Arm: name, Unreadable: a.Unreadable, Measured: r.Measured, Sample: m.sample[name]})
		}
		r.Arms = append(r.Arms, a)
	}
	for _, base := range []string{ArmVote, ArmSingle, ArmJudgeAlone} {
		if !m.has(base) {
			continue
		}
		mean, ci := PairedDiff(m.correct[ArmDebate], m.correct[base], seed)
		r.Diffs = append(r.Diffs, Diff{Name: ArmDebate + " − " + base, Arm: ArmDebate, Baseline: base, Mean: mean, Interval: ci,
			McNemarP: McNemar(m.correct[ArmDebate], m.correct[base])})
	}
	return r
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		n += b2i(b)
	}
	return n
}

// tieSeed is the seed of the draw that breaks a tie of an arm's vote on a
// problem.
func tieSeed(seed uint64, problem, arm string) uint64 {
	h := fnv.New64a()
	_ = binary.Write(h, binary.LittleEndian, seed)
	h.Write([]byte(problem + "\x00" + arm))
	return h.Sum64()
}
