package scripted

import (
	"fmt"
	"regexp"
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
// first converges, the second splits into the third, which is forced at the
// round limit or converges below it.
var demoDivergences = []struct{ id, title string }{
	{"d1", "Is the change worth its cost at the team's current size?"},
	{"d2", "What has to be true before the switch, and who checks it?"},
	{"d2.1", "Which measurement decides that the switch is safe?"},
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
		"Yes. Two outages last quarter cost about three engineer-weeks of firefighting; the first step of the change costs one week. At five engineers we cannot afford to keep paying the incident tax.",
		"The arithmetic leaves out the learning curve: every one of the five engineers has to relearn the deploy path. Counted honestly, the first step costs two weeks, not one — still less than the outages, I concede.",
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
		return Text("## docs/decisions.md\n\n- Add under *Rollouts*: \"Every migration ships behind a flag; the flag passes 10% only after a load test at twice the peak.\"")
	case strings.Contains(system, "independent judge") || strings.Contains(system, "裁判"):
		return Text("**Move now, in small steps.** Ship the first step this month behind a flag, with a written runbook and a load test before the flag passes 10%; keep the old path deployable for a release. The on-call lead decides from the dashboard (p99 under 200 ms for a week) when the switch is complete.")
	}
	node, voice := demoNode(c), demoVoice(system, opt)
	if len(c.Messages) > 1 && isRebuttal(c) {
		return Text(demoRebuttals[node][voice])
	}
	return Text(demoPositions[node][voice])
}

// demoNode returns the node a call is about: 0 for the root, i+1 for
// demoDivergences[i]. A child's prompt recalls its parent's divergence, so
// the deepest is looked for first.
func demoNode(c Call) int {
	for i := len(demoDivergences) - 1; i >= 0; i-- {
		if c.Contains(demoDivergences[i].title) {
			return i + 1
		}
	}
	return 0
}

// demoVoice returns the voice of the debater a call is for: its place in
// opt.Debaters, modulo the voices. Every debater prompt names its own label
// (the id unless the config gives one) before any other debater's, so the
// label found first in the system prompt is the caller's; a blind prompt
// names its alias instead, whose number gives the voice.
func demoVoice(system string, opt DemoOptions) int {
	voice, at := 0, -1
	for i, id := range opt.Debaters {
		label := id
		if i < len(opt.Labels) && opt.Labels[i] != "" {
			label = opt.Labels[i]
		}
		if j := strings.Index(system, label); j >= 0 && (at < 0 || j < at) {
			voice, at = i, j
		}
		for _, alias := range []string{fmt.Sprintf("Debater %d", i+1), fmt.Sprintf("辩手 %d", i+1)} {
			if j := strings.Index(system, alias); j >= 0 && (at < 0 || j < at) {
				voice, at = i, j
			}
		}
	}
	return voice % len(demoPositions[0])
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

// demoJudgment answers the judge for the node the prompt is about.
func demoJudgment(c Call, opt DemoOptions, forced bool) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	sides := func(a, b string) map[string]string {
		m := map[string]string{}
		if len(ids) > 0 {
			m[ids[0]] = a
		}
		if len(ids) > 1 {
			m[ids[1]] = b
		}
		return m
	}
	uninvolved := []string{}
	if len(ids) > 2 {
		uninvolved = ids[2:]
	}
	divergence := func(i int) map[string]any {
		return map[string]any{
			"id": demoDivergences[i].id, "title": demoDivergences[i].title,
			"sides":      sides("Yes: ship the first step this month behind a flag.", "Not yet: the runbook and a load test come first."),
			"uninvolved": uninvolved,
		}
	}
	consensus := []map[string]string{
		{"point": "Measure before and after the change", "detail": "p99 latency and error rate, on the existing dashboard."},
		{"point": "Keep a way back for one release", "detail": "The old path stays deployable until the new one has run a week."},
	}
	var divs []map[string]any
	switch demoNode(c) {
	case 3:
		consensus = []map[string]string{{"point": "p99 under 200 ms for a week decides", "detail": "Checked by the on-call lead on the dashboard."}}
		if forced {
			divs = []map[string]any{divergence(2)}
		}
	case 2:
		consensus = []map[string]string{{"point": "A written runbook before the first step", "detail": "Reviewed by on-call."}}
		divs = []map[string]any{divergence(2)}
	case 1:
		consensus = []map[string]string{{"point": "The change pays for itself within a year", "detail": "Counting the two outages of last quarter."}}
	default:
		divs = []map[string]any{divergence(0), divergence(1)}
	}
	if divs == nil {
		divs = []map[string]any{}
	}
	out := map[string]any{"consensus": consensus, "divergences": divs}
	if forced {
		verdicts := []map[string]string{}
		for _, d := range divs {
			verdicts = append(verdicts, demoVerdict(d["id"].(string), ids))
		}
		out["forcedVerdicts"] = verdicts
	}
	return out
}

// demoVerdict is the demo judge's verdict on the divergence id, favouring
// the first of the party ids shown.
func demoVerdict(id string, ids []string) map[string]string {
	favors := "none"
	if len(ids) > 0 {
		favors = ids[0]
	}
	return map[string]string{
		"divergenceId":   id,
		"favors":         favors,
		"recommendation": "Ship the first step behind a flag now; raise the flag past 10% only after the load test passes.",
		"reasoning":      "It keeps the benefit of moving now and bounds the risk both sides named.",
	}
}

// demoQuestion finds the divergences a panel judge is asked to decide, in
// either prompt language: "### `id`: title".
var demoQuestion = regexp.MustCompile("(?m)^### `([^`]+)`: ")

// demoPanelVerdicts answers a panel judge with a verdict on each divergence
// it is asked to decide.
func demoPanelVerdicts(c Call, opt DemoOptions) map[string]any {
	ids := shownIDs(c, opt.Debaters)
	verdicts := []map[string]string{}
	for _, m := range demoQuestion.FindAllStringSubmatch(c.Last(), -1) {
		verdicts = append(verdicts, demoVerdict(m[1], ids))
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
