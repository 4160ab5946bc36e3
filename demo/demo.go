// Package demo plays the scripted debates of --demo: which scripted answer
// each step of a debate or a motion gets, over the fake model of package
// providers/scripted, on any topic.
package demo

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/debatehq/debate/providers/scripted"
)

// Options shapes the scripted debate of New.
type Options struct {
	// Debaters are the debaters' ids in config order; the judge's
	// divergences give the first two a side each and leave the rest
	// uninvolved.
	Debaters []string
	// Labels are the debaters' labels, as the prompts name them, in the
	// order of Debaters; a missing or empty one is the debater's id.
	Labels []string
	// Failing is a model that answers every call with 503 Service
	// Unavailable, so that its participant falls back; "" for none.
	Failing string
	// Pace scales every answer's delay; 0 answers at once.
	Pace time.Duration
}

// New returns an in-memory fake (use it through HTTPClient; it has no
// socket) that plays a plausible debate on any topic, one of several
// scripts, the one the topic's title picks: debaters argue in turn, the
// judge splits the root into two divergences, one converges, the other
// splits again and is settled by forced verdicts at the round limit;
// the model opt.Failing fails every call, so that its participant falls
// back. On any motion the opponent raises issues, the proposer revises once
// and then appeals, and the arbitrator's ruling closes the debate. Answers
// come after a short delay so that a person can watch the progress.
func New(opt Options) *scripted.Server {
	return scripted.New(scripted.WithScript(func(c scripted.Call) scripted.Reply {
		r := demoReply(c, opt)
		r.Delay = opt.Pace * time.Duration(2+c.Seq%3)
		return r
	}))
}

func demoReply(c scripted.Call, opt Options) scripted.Reply {
	if opt.Failing != "" && c.Model == opt.Failing {
		return scripted.Status(503, "The model is overloaded. Please try again later.")
	}
	system := ""
	if len(c.Messages) > 0 {
		system = c.Messages[0].Content
	}
	if r, ok := demoMotionReply(c, system); ok {
		return r
	}
	switch {
	case strings.Contains(system, "judge on a panel") || strings.Contains(system, "评审团"):
		return scripted.Fenced(demoPanelVerdicts(c, opt))
	case strings.Contains(system, "forcedVerdicts"):
		return scripted.Fenced(demoJudgment(c, opt, true))
	case strings.Contains(system, `"divergences"`):
		return scripted.Fenced(demoJudgment(c, opt, false))
	case strings.Contains(system, "shared-context documents") || strings.Contains(system, "共享"):
		return scripted.Text(demoEdits(c.Last()))
	case strings.Contains(system, "independent judge") || strings.Contains(system, "裁判"):
		return scripted.Text(demoSynthesis(c.Last()))
	}
	s, node := demoNode(c)
	voice := demoVoice(c, opt)
	if len(c.Messages) > 1 && isRebuttal(c) {
		return scripted.Text(s.rebuttals[node][voice] + "\n\n" + demoStanceLine(c, opt, node, voice))
	}
	if q := demoQuote(c, voice); node == 0 && q != "" {
		return scripted.Text(s.positions[node][voice] + "\n\n" + q)
	}
	return scripted.Text(s.positions[node][voice])
}

// demoNodes is the number of a script's divergences that become nodes;
// the last is only ever decided by a forced verdict.
const demoNodes = 3

// demoNode returns the script and the node a call is about: i+1 for the
// script's divergences[i] when the prompt names one, else 0, the root of the
// script its topic picks. A child's prompt recalls its parent's divergence,
// so the deepest is looked for first.
func demoNode(c scripted.Call) (*demoScript, int) {
	for k := range demoScripts {
		s := &demoScripts[k]
		for i := demoNodes - 1; i >= 0; i-- {
			if c.Contains(s.divergences[i].title) {
				return s, i + 1
			}
		}
	}
	return demoScriptFor(demoTopic(c.Last())), 0
}

// demoTopic returns the topic a prompt's message names under its "Topic" or
// "Original topic" heading, in either prompt language; "" if none.
func demoTopic(text string) string {
	for _, line := range demoSection(text, "Original topic", "原始议题", "Topic", "议题") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// demoScriptFor picks the script of a topic from its title: the first
// script one of whose cues begins a word of the title, else one chosen by
// the title's hash. Topics thus argue the case that fits them best, and
// every call about one topic, in this run or a resumed one, gets the same.
func demoScriptFor(title string) *demoScript {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) })
	for k := range demoScripts {
		for _, cue := range demoScripts[k].cues {
			if slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, cue) }) {
				return &demoScripts[k]
			}
		}
	}
	h := fnv.New32a()
	h.Write([]byte(title))
	return &demoScripts[h.Sum32()%uint32(len(demoScripts))]
}

// demoVoice returns the voice of the debater a call is for: its place in
// opt.Debaters, modulo the voices. Every debater prompt ends by telling the
// debater who it is ("You are Party A.", "你是Party A。"), with its label or,
// when the prompt is blind, its alias, whose number gives the place.
func demoVoice(c scripted.Call, opt Options) int {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		text := c.Messages[i].Content
		for j, id := range opt.Debaters {
			label := id
			if j < len(opt.Labels) && opt.Labels[j] != "" {
				label = opt.Labels[j]
			}
			for _, name := range []string{label, fmt.Sprintf("Debater %d", j+1), fmt.Sprintf("辩手 %d", j+1)} {
				if strings.Contains(text, "You are "+name+".") || strings.Contains(text, "你是"+name+"。") {
					return j % len(demoScripts[0].positions[0])
				}
			}
		}
	}
	return 0
}

// demoMover is the node at which the second voice concedes to the first;
// at demoMisread the judge reads the third voice as moved to the second
// although its line says kept.
const (
	demoMover   = 1
	demoMisread = 2
)

// demoStanceLine is the closing line of a demo rebuttal: the second voice
// moves to the first at demoMover, naming it as the prompt does; every other
// keeps its position.
func demoStanceLine(c scripted.Call, opt Options, node, voice int) string {
	if node != demoMover || voice != 1 || len(opt.Debaters) < 2 {
		return "Stance: kept"
	}
	names := []string{"Debater 1", "辩手 1", opt.Debaters[0]}
	if len(opt.Labels) > 0 && opt.Labels[0] != "" {
		names = append(names, opt.Labels[0])
	}
	for _, name := range names {
		if c.Contains("### " + name + "\n") {
			return "Stance: moved to " + name + " — its first step answers my concern"
		}
	}
	return "Stance: moved — its first step answers my concern"
}

// demoStances is the demo judge's reading of the debaters' stances at node:
// the second moved to the first at demoMover, the third to the second at
// demoMisread, every other kept.
func demoStances(ids []string, node int) []map[string]string {
	out := []map[string]string{}
	for n, id := range ids {
		st := map[string]string{"party": id, "stance": "kept", "toward": ""}
		switch {
		case node == demoMover && n == 1:
			st["stance"], st["toward"] = "moved", ids[0]
		case node == demoMisread && n == 2:
			st["stance"], st["toward"] = "moved", ids[1]
		}
		out = append(out, st)
	}
	return out
}

// isRebuttal tells a rebuttal request from a position request: it shows the
// other parties' positions (in either prompt language).
func isRebuttal(c scripted.Call) bool {
	return c.Contains("other parties' positions") || c.Contains("其他各方") || c.Contains("其他方")
}

// shownIDs returns the party ids a judge prompt names: the debaters' own,
// or, when the prompt is blind, their aliases debater-1, debater-2, ….
func shownIDs(c scripted.Call, debaters []string) []string {
	if len(debaters) == 0 || c.Contains("`"+debaters[0]+"`") {
		return debaters
	}
	out := make([]string, len(debaters))
	for i := range out {
		out[i] = fmt.Sprintf("debater-%d", i+1)
	}
	return out
}

// demoJudgment answers the judge for the node the prompt is about. Its
// divergences are numbered d1, d2, … as the prompt asks.
func demoJudgment(c scripted.Call, opt Options, forced bool) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	uninvolved := []string{}
	if len(ids) > 2 {
		uninvolved = ids[2:]
	}
	s, node := demoNode(c)
	var open []int // indexes into s.divergences
	switch node {
	case 3:
		if forced {
			open = []int{3}
		}
	case 2:
		open = []int{2}
	case 1:
	default:
		open = []int{0, 1}
	}
	consensus := []map[string]string{}
	for _, p := range s.consensus[node] {
		consensus = append(consensus, map[string]string{"point": p.point, "detail": p.detail})
	}
	divs, verdicts := []map[string]any{}, []map[string]string{}
	for k, i := range open {
		id := fmt.Sprintf("d%d", k+1)
		d := s.divergences[i]
		sides := map[string]string{}
		for n, claim := range []string{d.yes, d.no} {
			if n < len(ids) {
				sides[ids[n]] = claim
			}
		}
		divs = append(divs, map[string]any{"id": id, "title": d.title, "sides": sides, "uninvolved": uninvolved})
		verdicts = append(verdicts, demoVerdict(id, d, ids))
	}
	out := map[string]any{"consensus": consensus, "divergences": divs, "stances": demoStances(ids, node)}
	if forced {
		out["forcedVerdicts"] = verdicts
	}
	return out
}

// demoVerdict is the demo judge's verdict on d, under the divergence id,
// naming the party whose side it takes among the ids shown.
func demoVerdict(id string, d demoDivergence, ids []string) map[string]string {
	favors := "none"
	if d.favors >= 0 && d.favors < len(ids) {
		favors = ids[d.favors]
	}
	return map[string]string{
		"divergenceId":   id,
		"favors":         favors,
		"recommendation": d.verdict,
		"reasoning":      d.reason,
	}
}

// demoQuestion finds the divergences a panel judge is asked to decide, in
// either prompt language: "### `id`: title".
var demoQuestion = regexp.MustCompile("(?m)^### `([^`]+)`: (.*)$")

// demoPanelVerdicts answers a panel judge with a verdict on each divergence
// it is asked to decide; one it does not know gets its script's open
// question.
func demoPanelVerdicts(c scripted.Call, opt Options) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	s, _ := demoNode(c)
	verdicts := []map[string]string{}
	for _, m := range demoQuestion.FindAllStringSubmatch(c.Last(), -1) {
		d := s.divergences[len(s.divergences)-1]
		for _, k := range s.divergences {
			if strings.TrimSpace(m[2]) == k.title {
				d = k
			}
		}
		verdicts = append(verdicts, demoVerdict(m[1], d, ids))
	}
	return map[string]any{"forcedVerdicts": verdicts}
}

// The demo's motion: the opponent's issues, the proposer's revision that
// answers them and the appeal on what stays open, and the ruling.
const (
	demoIssues = "**C1** (critical): a delivery retried while the first attempt is still in flight is sent twice; the plan needs an idempotency key per delivery.\n\n" +
		"**M1** (major): the retry schedule has no cap, so a dead endpoint is retried forever.\n\n" +
		"**m1** (minor): the plan does not say where failed deliveries are shown to the customer."
	demoRevision = "Revised plan: every delivery carries an idempotency key (C1, accepted); retries stop after 8 attempts over 24 hours and the delivery is marked dead (M1, accepted). " +
		"On m1 I disagree: a dashboard page is out of scope for this change; the dead deliveries are listed by the existing API."
	demoAppeal = "The opponent and I still differ on m1. Options: 1. list dead deliveries by the API only (my plan); 2. add a dashboard page in this change; 3. another solution of the arbitrator's choosing."
	demoRuling = "Option 1, with a note in the API reference: the dashboard page is a change of its own. C1 and M1 as revised. The plan is adopted."
)

// demoMotionReply answers the protocol roles of a motion; ok is false for a
// call of a topic.
func demoMotionReply(c scripted.Call, system string) (r scripted.Reply, ok bool) {
	switch {
	case strings.Contains(system, "You are the opponent") || strings.Contains(system, "你是本场辩论的反对方"):
		if c.Contains(demoRevision) {
			return scripted.Text("The revision settles C1 and M1. **m1** stays open: customers cannot see what failed without a page of their own."), true
		}
		return scripted.Text(demoIssues), true
	case strings.Contains(system, "You are the proposer") || strings.Contains(system, "你是本场辩论的提议方"):
		if c.Contains(demoRevision) || c.Contains("This is your last allowed reply") || c.Contains("这是你最后一次可以回复") {
			return scripted.Fenced(map[string]string{"action": "appeal", "content": demoAppeal}), true
		}
		return scripted.Fenced(map[string]string{"action": "claim", "content": demoRevision}), true
	case strings.Contains(system, "You are the arbitrator") || strings.Contains(system, "你是本场辩论的仲裁方"):
		return scripted.Fenced(map[string]any{"close": true, "content": demoRuling}), true
	}
	return scripted.Reply{}, false
}

// demoSection returns the lines under the level-2 heading with one of the
// given titles in a prompt's message, outside any fenced block: a prompt
// quotes documents in fences, and their headings are not the prompt's.
func demoSection(text string, titles ...string) []string {
	var out []string
	in, fence := false, ""
	for _, line := range strings.Split(text, "\n") {
		if fence != "" {
			if strings.TrimSpace(line) == fence {
				fence = ""
			}
			if in {
				out = append(out, line)
			}
			continue
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") {
			fence = t[:len(t)-len(strings.TrimLeft(t, "`"))]
		}
		if h, ok := strings.CutPrefix(line, "## "); ok {
			in = slices.Contains(titles, strings.TrimSpace(h))
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	return out
}

// demoHeadings returns the level-3 headings among lines outside fences.
func demoHeadings(lines []string) []string {
	var out []string
	fence := ""
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case fence != "":
			if t == fence {
				fence = ""
			}
		case strings.HasPrefix(t, "```"):
			fence = t[:len(t)-len(strings.TrimLeft(t, "`"))]
		case strings.HasPrefix(line, "### "):
			out = append(out, strings.TrimSpace(line[4:]))
		}
	}
	return out
}

// demoTopicID finds the id of a conclusion's heading: "Title (`id`)".
var demoTopicID = regexp.MustCompile("\\(`([^`]+)`\\)$")

// demoEdits proposes edits to each shared-context document the prompt
// quotes: for each topic, a rule of its script (the first document gets
// each script's first rule, the next its second, and so on), naming the
// topics whose conclusions support it.
func demoEdits(prompt string) string {
	docs := demoHeadings(demoSection(prompt, "Shared-context documents", "共享上下文文档"))
	if len(docs) == 0 {
		return "No shared-context document was given, so none needs a change."
	}
	var scripts []*demoScript          // in the order of their first topic
	from := map[*demoScript][]string{} // the topic ids that picked each
	for _, h := range demoHeadings(demoSection(prompt, "Conclusions of the topics", "各议题结论")) {
		title, id := h, ""
		if m := demoTopicID.FindStringSubmatchIndex(h); m != nil {
			title, id = strings.TrimSpace(h[:m[0]]), "`"+h[m[2]:m[3]]+"`"
		}
		s := demoScriptFor(title)
		if _, ok := from[s]; !ok {
			scripts = append(scripts, s)
			from[s] = nil
		}
		if id != "" {
			from[s] = append(from[s], id)
		}
	}
	if len(scripts) == 0 {
		scripts = append(scripts, &demoScripts[0])
	}
	var b strings.Builder
	for i, doc := range docs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "## %s\n", doc)
		for _, s := range scripts {
			e := s.edits[i%len(s.edits)]
			source := ""
			if ids := from[s]; len(ids) > 0 {
				source = " (from " + strings.Join(ids, ", ") + ")"
			}
			fmt.Fprintf(&b, "\n- Section *%s*, new%s: \"%s\"", e.section, source, e.rule)
		}
	}
	return b.String()
}

// demoSynthesis concludes the topic the prompt names, in the words of the
// script its title picks, from the agreed points and verdicts the prompt
// lists, so that each topic gets a conclusion of its own.
func demoSynthesis(prompt string) string {
	title := demoTopic(prompt)
	s := demoScriptFor(title)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** %s", title, s.decision)
	var points, verdicts []string
	for _, it := range demoItems(demoSection(prompt, "Agreed points", "合意要点")) {
		points = append(points, strings.ToLower(it[0][:1])+it[0][1:])
	}
	for _, it := range demoItems(demoSection(prompt, "Forced verdicts", "裁决要点")) {
		v := strings.TrimSuffix(strings.TrimSpace(it[1]), ".")
		if v != "" {
			verdicts = append(verdicts, strings.ToLower(v[:1])+v[1:])
		}
	}
	if len(points) > 0 {
		fmt.Fprintf(&b, " The debaters agreed on: %s.", strings.Join(points, "; "))
	}
	if len(verdicts) > 0 {
		fmt.Fprintf(&b, " Where they did not agree, the judge decided: %s.", strings.Join(verdicts, "; "))
	}
	b.WriteString("\n\n" + s.revisit)
	return b.String()
}

// demoItems returns the list items of a prompt written "- **lead**: rest",
// each as its lead and its rest.
func demoItems(lines []string) [][2]string {
	var out [][2]string
	for _, line := range lines {
		rest, ok := strings.CutPrefix(line, "- **")
		if !ok {
			continue
		}
		lead, rest, ok := strings.Cut(rest, "**")
		if !ok || lead == "" {
			continue
		}
		out = append(out, [2]string{lead, strings.TrimPrefix(rest, ":")})
	}
	return out
}
