package scripted

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// DemoOptions shapes the scripted debate of Demo.
type DemoOptions struct {
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

// The divergences of the demo: the root splits into the first two, the
// first converges, the second splits into the third, which converges below
// the round limit or, at it, leaves the last one open for a forced verdict.
// Each has the claims of the first two debaters' sides, the verdict a judge
// forced on it with its reason, and the side that verdict takes (0 or 1, -1
// for neither).
var demoDivergences = []struct {
	title, yes, no, verdict, reason string
	favors                          int
}{
	{
		"Is the change worth its cost at the team's current size?",
		"Yes: the incidents of last quarter cost more than the first step does.",
		"Not yet: counted with the learning curve, the first step costs twice as much.",
		"Make the change: even at the larger estimate it costs less than last quarter's incidents.",
		"Both sides accept the two-week estimate, and three engineer-weeks of incidents a quarter cost more.",
		0,
	},
	{
		"What has to be true before the switch, and who checks it?",
		"A flag and a load test at twice the peak, run before the flag moves.",
		"A runbook reviewed by on-call first; the load test checks the code, not the people.",
		"Both are preconditions: the reviewed runbook before the first step, the load test before the flag passes 10%.",
		"The runbook protects the people on call, the load test the code; neither replaces the other.",
		-1,
	},
	{
		"Which measurement decides that the switch is safe?",
		"p99 latency on the checkout path, under 200 ms for a week at 10% of traffic.",
		"The error rate, below 0.1% with no new alert of severity two or higher.",
		"Both numbers decide, checked by the on-call lead on the dashboard.",
		"Latency catches the slow path and the error rate the broken one; either alone misses a failure customers see.",
		-1,
	},
	{
		"How long must the numbers hold before the switch is complete: one week or two?",
		"One week at 10% of traffic is enough.",
		"Two weeks, one release cycle, or silent failures go unseen.",
		"Two weeks, one release cycle: the flag stays at 10% until both numbers have held that long.",
		"A release cycle is the shortest window in which a silent failure shows; a week at 10% of traffic can miss it.",
		1,
	},
}

// demoPositions[node][voice] and demoRebuttals[node][voice] are the
// debaters' answers: node 0 is the root, node i+1 demoDivergences[i]; voice is
// the debater's place in DemoOptions.Debaters, taken modulo the three voices
// (one for the change, one against it for now, one asking for a measure).
var demoPositions = [][]string{
	{
		"I support making the change now, in small steps.\n\n" +
			"- The current design already costs us more in incidents than the change would: two outages last quarter traced back to it.\n" +
			"- Each step can be shipped and rolled back on its own, behind a flag.\n\n" +
			"What I would not do is change everything in one release. A first step that returns `Vec<String>` instead of `Option<Box<dyn Error>>` from the parser is small and safe.",
		"I would wait one quarter.\n\n" +
			"The risk is not the code but the operations around it: on-call, dashboards and runbooks all change at once. Before we switch I want:\n\n" +
			"1. a load test at twice today's peak,\n" +
			"2. a rollback that takes minutes, not hours,\n" +
			"3. one engineer who owns the migration end to end.",
		"Both sides have a point; the deciding question is measurement.\n\n" +
			"If we cannot say *which number* tells us the new path is safe, we are not ready. Define it first — for example p99 latency under 200 ms and an error rate below 0.1% for a week — then move, in the steps the first position describes.",
	},
	{
		"Yes. Two outages last quarter cost about three engineer-weeks of firefighting; the first step of the change costs one week. At our size we cannot afford to keep paying the incident tax.",
		"The arithmetic leaves out the learning curve: every engineer on the team has to relearn the deploy path. Counted honestly, the first step costs two weeks, not one — still less than the outages, I concede.",
		"The cost question settles itself once we write the numbers down: incidents in hours per month before and after. I expect the change to pay for itself within a year, but I want the table, not the hunch.",
	},
	{
		"Two things before the switch: the flag, and a load test at twice the peak on the staging copy. I will run the test myself; the results go in the pull request.",
		"A runbook first, reviewed by whoever is on call that week. Without it the first page at 3 a.m. lands on someone who has never seen the new path.",
		"Whatever the list, someone has to check it against a number. I would name the on-call lead as the person who signs off, with the dashboard as evidence.",
	},
	{
		"p99 latency on the checkout path: it is the number customers feel first. Under 200 ms for a week at 10% of traffic is enough.",
		"Error rate, not latency: a fast wrong answer is worse than a slow right one. Below 0.1% for a week, and no new alert of severity two or higher.",
		"Both numbers, and a week is too short: one release cycle, which is two weeks here. A single number invites gaming the dashboard.",
	},
}

var demoRebuttals = [][]string{
	{
		"The load test is a fair demand and I accept it. A whole quarter of waiting is not: the two outages will not wait with us. I revise my proposal: first step behind a flag this month, load test before the flag reaches 100%.",
		"A flag does limit the blast radius, I grant that. My concern stands for the on-call side: the runbook has to exist **before** the first step ships, not after the first page at 3 a.m.",
		"We agree more than it looks. The open point is who decides that the numbers are good enough; I propose the on-call lead signs off, with the dashboard as evidence.",
	},
	{
		"Two weeks instead of one is a fair correction, and the change still pays: I accept the larger estimate.",
		"With the estimate corrected I have no objection on cost; my doubts are about readiness, not price.",
		"The table now exists in outline and it favours the change; I withdraw my request for more figures on cost.",
	},
	{
		"A reviewed runbook before the first step is cheap; I add it to my list. I still want the load test before the flag moves.",
		"The load test is welcome, but it checks the code, not the people. I keep the runbook as a precondition.",
		"Both lists are preconditions; neither says when the switch is done. That is the question left open.",
	},
	{
		"Latency catches the slow path, the error rate the broken one; I would accept both, but a week at 10% is enough.",
		"A week of latency alone misses silent failures. Two weeks and the error rate, or I cannot sign off.",
		"We keep disagreeing about the window, one week or two; the judge should decide, since both sides have argued it fully.",
	},
}

// Demo returns an in-memory fake (use it through HTTPClient; it has no
// socket) that plays a plausible debate on any topic: debaters argue in
// turn, the judge splits the root into two divergences, one converges, the
// other splits again and is settled by forced verdicts at the round limit;
// the model opt.Failing fails every call, so that its participant falls
// back. On any motion the opponent raises issues, the proposer revises once
// and then appeals, and the arbitrator's ruling closes the debate. Answers
// come after a short delay so that a person can watch the progress.
func Demo(opt DemoOptions) *Server {
	return New(WithScript(func(c Call) Reply {
		r := demoReply(c, opt)
		r.Delay = opt.Pace * time.Duration(2+c.Seq%3)
		return r
	}))
}

func demoReply(c Call, opt DemoOptions) Reply {
	if opt.Failing != "" && c.Model == opt.Failing {
		return Status(503, "The model is overloaded. Please try again later.")
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
		return Fenced(demoPanelVerdicts(c, opt))
	case strings.Contains(system, "forcedVerdicts"):
		return Fenced(demoJudgment(c, opt, true))
	case strings.Contains(system, `"divergences"`):
		return Fenced(demoJudgment(c, opt, false))
	case strings.Contains(system, "shared-context documents") || strings.Contains(system, "共享"):
		return Text(demoEdits(c.Last()))
	case strings.Contains(system, "independent judge") || strings.Contains(system, "裁判"):
		return Text(demoSynthesis(c.Last()))
	}
	node, voice := demoNode(c), demoVoice(c, opt)
	if len(c.Messages) > 1 && isRebuttal(c) {
		return Text(demoRebuttals[node][voice])
	}
	return Text(demoPositions[node][voice])
}

// demoNodes is the number of demoDivergences that become nodes; the last
// is only ever decided by a forced verdict.
const demoNodes = 3

// demoNode returns the node a call is about: 0 for the root, i+1 for
// demoDivergences[i]. A child's prompt recalls its parent's divergence, so
// the deepest is looked for first.
func demoNode(c Call) int {
	for i := demoNodes - 1; i >= 0; i-- {
		if c.Contains(demoDivergences[i].title) {
			return i + 1
		}
	}
	return 0
}

// demoVoice returns the voice of the debater a call is for: its place in
// opt.Debaters, modulo the voices. Every debater prompt ends by telling the
// debater who it is ("You are Party A.", "你是Party A。"), with its label or,
// when the prompt is blind, its alias, whose number gives the place.
func demoVoice(c Call, opt DemoOptions) int {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		text := c.Messages[i].Content
		for j, id := range opt.Debaters {
			label := id
			if j < len(opt.Labels) && opt.Labels[j] != "" {
				label = opt.Labels[j]
			}
			for _, name := range []string{label, fmt.Sprintf("Debater %d", j+1), fmt.Sprintf("辩手 %d", j+1)} {
				if strings.Contains(text, "You are "+name+".") || strings.Contains(text, "你是"+name+"。") {
					return j % len(demoPositions[0])
				}
			}
		}
	}
	return 0
}

// isRebuttal tells a rebuttal request from a position request: it shows the
// other parties' positions (in either prompt language).
func isRebuttal(c Call) bool {
	return c.Contains("other parties' positions") || c.Contains("其他各方") || c.Contains("其他方")
}

// shownIDs returns the party ids a judge prompt names: the debaters' own,
// or, when the prompt is blind, their aliases debater-1, debater-2, ….
func shownIDs(c Call, debaters []string) []string {
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
func demoJudgment(c Call, opt DemoOptions, forced bool) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	uninvolved := []string{}
	if len(ids) > 2 {
		uninvolved = ids[2:]
	}
	var open []int // indexes into demoDivergences
	consensus := []map[string]string{
		{"point": "Measure before and after the change", "detail": "p99 latency and error rate, on the existing dashboard."},
		{"point": "Keep a way back for one release", "detail": "The old path stays deployable until the switch is complete."},
	}
	switch demoNode(c) {
	case 3:
		consensus = []map[string]string{{"point": "Both numbers decide, on the dashboard", "detail": "p99 under 200 ms and errors below 0.1%, checked by the on-call lead."}}
		if forced {
			open = []int{3}
		}
	case 2:
		consensus = []map[string]string{{"point": "A written runbook before the first step", "detail": "Reviewed by on-call."}}
		open = []int{2}
	case 1:
		consensus = []map[string]string{{"point": "The change pays for itself within a year", "detail": "Counting the incidents of last quarter."}}
	default:
		open = []int{0, 1}
	}
	divs, verdicts := []map[string]any{}, []map[string]string{}
	for k, i := range open {
		id := fmt.Sprintf("d%d", k+1)
		d := demoDivergences[i]
		sides := map[string]string{}
		for n, claim := range []string{d.yes, d.no} {
			if n < len(ids) {
				sides[ids[n]] = claim
			}
		}
		divs = append(divs, map[string]any{"id": id, "title": d.title, "sides": sides, "uninvolved": uninvolved})
		verdicts = append(verdicts, demoVerdict(id, i, ids))
	}
	out := map[string]any{"consensus": consensus, "divergences": divs}
	if forced {
		out["forcedVerdicts"] = verdicts
	}
	return out
}

// demoVerdict is the demo judge's verdict, under the divergence id, on
// demoDivergences[i], naming the party whose side it takes among the ids
// shown.
func demoVerdict(id string, i int, ids []string) map[string]string {
	d := demoDivergences[i]
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
// it is asked to decide.
func demoPanelVerdicts(c Call, opt DemoOptions) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	verdicts := []map[string]string{}
	for _, m := range demoQuestion.FindAllStringSubmatch(c.Last(), -1) {
		i := len(demoDivergences) - 1
		for k, d := range demoDivergences {
			if strings.TrimSpace(m[2]) == d.title {
				i = k
			}
		}
		verdicts = append(verdicts, demoVerdict(m[1], i, ids))
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
func demoMotionReply(c Call, system string) (r Reply, ok bool) {
	switch {
	case strings.Contains(system, "You are the opponent") || strings.Contains(system, "你是本场辩论的反对方"):
		if c.Contains(demoRevision) {
			return Text("The revision settles C1 and M1. **m1** stays open: customers cannot see what failed without a page of their own."), true
		}
		return Text(demoIssues), true
	case strings.Contains(system, "You are the proposer") || strings.Contains(system, "你是本场辩论的提议方"):
		if c.Contains(demoRevision) || c.Contains("This is your last allowed reply") || c.Contains("这是你最后一次可以回复") {
			return Fenced(map[string]string{"action": "appeal", "content": demoAppeal}), true
		}
		return Fenced(map[string]string{"action": "claim", "content": demoRevision}), true
	case strings.Contains(system, "You are the arbitrator") || strings.Contains(system, "你是本场辩论的仲裁方"):
		return Fenced(map[string]any{"close": true, "content": demoRuling}), true
	}
	return Reply{}, false
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

// demoEdits proposes one edit to each shared-context document the prompt
// quotes, naming the topics whose conclusions support it.
func demoEdits(prompt string) string {
	docs := demoHeadings(demoSection(prompt, "Shared-context documents", "共享上下文文档"))
	if len(docs) == 0 {
		return "No shared-context document was given, so none needs a change."
	}
	var topics []string
	for _, h := range demoHeadings(demoSection(prompt, "Conclusions of the topics", "各议题结论")) {
		if m := demoTopicID.FindStringSubmatch(h); m != nil {
			topics = append(topics, "`"+m[1]+"`")
		}
	}
	from := ""
	if len(topics) > 0 {
		from = " (from " + strings.Join(topics, ", ") + ")"
	}
	var b strings.Builder
	for i, doc := range docs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "## %s\n\n- Section *Rollouts*, new%s: \"Every change of this size ships behind a flag; the flag passes 10%% only after a load test at twice the peak and a runbook reviewed by on-call.\"", doc, from)
	}
	return b.String()
}

// demoSynthesis concludes the topic the prompt names from the agreed points
// and verdicts it lists, so that each topic gets a conclusion of its own.
func demoSynthesis(prompt string) string {
	title := ""
	for _, line := range demoSection(prompt, "Topic", "议题") {
		if title = strings.TrimSpace(line); title != "" {
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** Decision: make the change in small steps; the first one ships this month behind a flag.", title)
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
	b.WriteString("\n\nRevisit the decision if the numbers on the dashboard do not hold at 10% of traffic.")
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
