package quality

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/debatehq/debate/providers/scripted"
)

// Demo is the scripted model of "debate bench quality --demo": agents that
// answer right with probability Accuracy and, in a rebuttal, adopt the
// majority of the answers they are shown with probability Conformity, and a
// judge that takes the majority of the debaters' final answers. On a
// problem with a passage an agent also quotes the passage's line that
// answers it, word for word with probability QuoteAccuracy, else altered to
// fit its answer; the judge trusts the answers verified quotes bear out
// over the others, and, alone without the passage, guesses. Every draw is a
// function of Seed, the model and the messages, so the same run gives the
// same answers whatever the order of the calls.
type Demo struct {
	Accuracy      float64
	Conformity    float64
	QuoteAccuracy float64
	Seed          uint64
	// Agents are the debaters' model names, in config order; Judge the
	// judge's.
	Agents []string
	Judge  string
	// answers maps a problem's question to its expected answer; lines, a
	// question with a passage to the passage's line that answers it.
	answers, lines map[string]string
}

// NewDemo returns the scripted model for the problems.
func NewDemo(problems []Problem, d DemoOptions, seed uint64, agents []string, judge string) *Demo {
	m := &Demo{Accuracy: d.AgentAccuracy, Conformity: d.Conformity, QuoteAccuracy: d.QuoteAccuracy, Seed: seed, Agents: agents, Judge: judge,
		answers: map[string]string{}, lines: map[string]string{}}
	for _, p := range problems {
		q := strings.TrimSpace(p.Question)
		m.answers[q] = p.Answer
		for _, line := range strings.Split(p.Passage, "\n") {
			if strings.Contains(line, " "+p.Answer+" ") {
				m.lines[q] = line
			}
		}
	}
	return m
}

// Reply answers one call; it is a scripted.Server's script.
func (d *Demo) Reply(c scripted.Call) scripted.Reply {
	rng := d.rng(c)
	if c.Model == d.Judge {
		return d.judge(c, rng)
	}
	agent := -1
	for i, m := range d.Agents {
		if m == c.Model {
			agent = i
		}
	}
	own, others := shownAnswers(c)
	if len(others) == 0 {
		q, ok := d.problem(c)
		if !ok || agent < 0 {
			return scripted.Text("I cannot tell which question this is.")
		}
		a := d.answer(d.answers[q], agent, rng)
		if line, ok := d.lines[q]; ok {
			return scripted.Text("The passage settles it: " + d.quote(line, d.answers[q], a, rng) + "\n\nAnswer: " + a)
		}
		return scripted.Text("I worked it out step by step.\n\nAnswer: " + a)
	}
	if m, ok := majority(append([]string{own}, others...)); ok && !Same(m, own) && rng.Float64() < d.Conformity {
		return scripted.Text("The others' reasoning convinces me; I change my answer.\n\nAnswer: " + m)
	}
	return scripted.Text("Having read the other positions, I keep mine.\n\nAnswer: " + own)
}

// answer is the agent's first answer: want with probability Accuracy, else
// a number no other agent can give (each agent's wrong answers lie in a
// range of their own), so that wrong answers never agree.
func (d *Demo) answer(want string, agent int, rng *rand.Rand) string {
	if rng.Float64() < d.Accuracy {
		return want
	}
	off := 1 + 100*agent + rng.IntN(100)
	if rng.IntN(2) == 0 {
		off = -off
	}
	if n, err := strconv.Atoi(want); err == nil {
		return strconv.Itoa(n + off)
	}
	return fmt.Sprintf("not %s (%d)", want, off)
}

// quote is an agent's quote of the passage's line that answers the
// question (whose answer is want) for its answer a: the line word for word
// with probability QuoteAccuracy, else reworded, with a in place of want.
func (d *Demo) quote(line, want, a string, rng *rand.Rand) string {
	if rng.Float64() >= d.QuoteAccuracy {
		line = strings.Replace(strings.Replace(line, " records ", " lists ", 1), " "+want+" ", " "+a+" ", 1)
	}
	return "<quote>" + line + "</quote>"
}

// problem finds the question a call asks: a line of its last message that
// is a known question.
func (d *Demo) problem(c scripted.Call) (string, bool) {
	for _, line := range strings.Split(c.Last(), "\n") {
		if _, ok := d.answers[strings.TrimSpace(line)]; ok {
			return strings.TrimSpace(line), true
		}
	}
	return "", false
}

// judge answers a judge's call with the majority of the final answers of
// the debaters that a verified quote it is shown states, else of them all,
// as the consensus, and no divergence; a tie is drawn. Asked for forced
// verdicts, it gives the same consensus and none. Asked alone, it answers
// as an agent would, but guesses a count it has no passage for.
func (d *Demo) judge(c scripted.Call, rng *rand.Rand) scripted.Reply {
	if !c.Contains("divergences") {
		q, ok := d.problem(c)
		switch _, passage := d.lines[q]; {
		case !ok:
			return scripted.Text("I cannot tell which question this is.")
		case passage:
			return scripted.Text("Without the passage I can only guess.\n\nAnswer: " + strconv.Itoa(passageLow+rng.IntN(passageHigh-passageLow+1)))
		}
		return scripted.Text("I worked it out step by step.\n\nAnswer: " + d.answer(d.answers[q], len(d.Agents), rng))
	}
	var finals []string
	for _, part := range strings.Split(c.Last(), "\n## ") {
		if !strings.Contains(part, "\n### ") {
			continue
		}
		if a, ok := ReadAnswer(part); ok {
			finals = append(finals, a)
		}
	}
	detail := "The answer most of the debaters gave last."
	if trusted := borneOut(c.Last(), finals); len(trusted) > 0 {
		finals, detail = trusted, "The answer the verified quotes of the passage bear out."
	}
	consensus := []map[string]string{}
	if len(finals) > 0 {
		a := Plurality(finals, rng.Uint64())
		consensus = append(consensus, map[string]string{"point": "Answer: " + a, "detail": detail})
	}
	out := map[string]any{"consensus": consensus, "divergences": []any{}}
	if c.Contains("forcedVerdicts") {
		out["forcedVerdicts"] = []any{}
	}
	return scripted.Fenced(out)
}

// rng returns the source of a call's draws: seeded from a SHA-256 of the
// seed, the model and the messages. (An FNV hash of prompts that differ in
// a few digits left the first draw measurably biased: agents of accuracy
// 0.6 answered right 0.585 of the time over 9,000 answers.)
func (d *Demo) rng(c scripted.Call) *rand.Rand {
	h := sha256.New()
	_ = binary.Write(h, binary.LittleEndian, d.Seed)
	h.Write([]byte(c.Model))
	for _, m := range c.Messages {
		h.Write([]byte{0})
		h.Write([]byte(m.Role))
		h.Write([]byte{0})
		h.Write([]byte(m.Content))
	}
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

// shownAnswers reads a rebuttal call: the agent's own answer (its earlier
// answer in the conversation, or the part of the last message before the
// first "###" heading) and the answers under each "###" heading after it,
// from the topic on: the documents before it are no answers. A position
// call shows none.
func shownAnswers(c scripted.Call) (own string, others []string) {
	last := c.Last()
	if i := strings.Index(last, "## Topic\n"); i >= 0 {
		last = last[i:]
	}
	parts := strings.Split(last, "\n### ")
	for _, p := range parts[1:] {
		if a, ok := ReadAnswer(p); ok {
			others = append(others, a)
		}
	}
	own, _ = ReadAnswer(parts[0])
	for _, m := range c.Messages {
		if m.Role == "assistant" {
			if a, ok := ReadAnswer(m.Content); ok {
				own = a
			}
		}
	}
	return own, others
}

// verifiedQuote matches a quote the engine verified, capturing its text.
var verifiedQuote = regexp.MustCompile(`(?s)<quote status="verified"[^>]*>(.*?)</quote>`)

// borneOut returns the answers that a verified quote in text states, word
// for word: the answers the passage bears out.
func borneOut(text string, answers []string) []string {
	var words []string
	for _, m := range verifiedQuote.FindAllStringSubmatch(text, -1) {
		for _, w := range strings.Fields(m[1]) {
			words = append(words, strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		}
	}
	var out []string
	for _, a := range answers {
		if slices.ContainsFunc(words, func(w string) bool { return Same(w, a) }) {
			out = append(out, a)
		}
	}
	return out
}

// majority returns the answer more than half of answers give.
func majority(answers []string) (string, bool) {
	for _, a := range answers {
		n := 0
		for _, b := range answers {
			if Same(a, b) {
				n++
			}
		}
		if 2*n > len(answers) {
			return a, true
		}
	}
	return "", false
}
