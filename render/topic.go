// Package render turns finished debate trees into reports: a Markdown report
// per topic, a run summary, the path overview as a Mermaid graph and as an
// indented text tree, and HTML pages of any of them. It is pure: no I/O, and
// the same input always yields the same bytes.
package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/debatehq/debate/tree"
)

// Topic returns the Markdown report of one topic of a run: a header with the
// date, debaters and the models they actually used, judge, limits, depth,
// usage and status; then every node depth first with its positions,
// rebuttals, the judge's triage or forced verdict and its status; then the
// conclusion with every consensus point, every verdict, the synthesis and the
// path overview.
func Topic(run *tree.Run, t *tree.Topic) []byte {
	r := &report{run: run, w: wordsFor(run)}
	r.topic(t)
	return r.bytes()
}

// report accumulates one Markdown document.
type report struct {
	run *tree.Run
	w   *words
	b   strings.Builder
	// reports maps a topic or motion id to its report's file name, for links.
	reports map[string]string
	// html is set when the Markdown becomes an HTML page, whose quote badges
	// link to the documents' pages rather than their copies.
	html bool
	// nonce, on a page, marks the quote badges the report writes (see
	// badges).
	nonce string
}

// bytes returns the document, ending in exactly one newline, with control
// characters made visible.
func (r *report) bytes() []byte {
	return []byte(visible(strings.TrimRight(r.b.String(), "\n")) + "\n")
}

func (r *report) printf(format string, args ...any) {
	fmt.Fprintf(&r.b, format, args...)
}

// block writes embedded Markdown text followed by a blank line.
func (r *report) block(text string, level int) {
	if s := embedText(text, level); s != "" {
		r.b.WriteString(s)
		r.b.WriteString("\n\n")
	}
}

func (r *report) topic(t *tree.Topic) {
	w := r.w
	r.printf("# %s\n\n", w.topicHeading(inlineText(t.ID), inlineText(t.Title)))
	r.demoLine()
	r.topicIntro(t)

	t.Root.Walk(r.node)
	r.ledger(t)

	r.printf("---\n\n## %s\n\n", w.conclusion)
	r.topicEnd(t, true)
}

// topicEnd writes what follows a topic's "Conclusion" heading: every
// consensus point and verdict, the synthesis, and the path overview as a
// text tree, after a Mermaid graph when withMermaid is set.
func (r *report) topicEnd(t *tree.Topic, withMermaid bool) {
	w := r.w
	r.conclusion(t.Root)
	if strings.TrimSpace(t.Synthesis) != "" {
		r.printf("### %s\n\n", w.synthesis)
		r.block(t.Synthesis, 3)
	}
	r.printf("### %s\n\n", w.pathOverview)
	if t.Root == nil {
		r.printf("*%s*\n", w.notReached)
		return
	}
	if withMermaid {
		r.b.WriteString(fenced("mermaid", mermaid(t.Root, w)))
		r.b.WriteString("\n")
	}
	r.b.WriteString(fenced("text", textTree(t.Root, w)))
}

// topicIntro writes what comes before a topic's nodes: its header lines,
// the decision paragraph, background, annotations and core questions. A
// page opens with the decision, above the header lines, so that a phone's
// first screen shows it.
func (r *report) topicIntro(t *tree.Topic) {
	w := r.w
	if r.html {
		r.printf("%s\n\n", r.decisionParagraph(t))
		r.topicHeader(t)
		r.b.WriteString("\n")
	} else {
		r.topicHeader(t)
		r.b.WriteString("\n")
		r.printf("%s\n\n", r.decisionParagraph(t))
	}
	if strings.TrimSpace(t.Background) != "" {
		r.printf("**%s%s**\n\n", w.background, w.colon)
		r.block(t.Background, 4)
	}
	r.list(w.annotations, t.Annotations)
	r.list(w.coreQuestions, t.CoreQuestions)
}

// topicHeader writes a topic's header lines: date and the topic's own
// duration, debaters, judge, limits, depth, usage and status.
func (r *report) topicHeader(t *tree.Topic) {
	w := r.w
	stats := t.Root.Stats()
	r.headerLine(w.date, r.date(t.StartedAt, t.FinishedAt))
	r.headerLine(w.debaters, r.debaters(t))
	if len(r.run.Judges) > 1 {
		var parts []string
		for _, j := range r.run.Judges {
			parts = append(parts, r.participant(j, t))
		}
		r.headerLine(w.judges, strings.Join(parts, "; "))
	} else {
		r.headerLine(w.judge, r.participant(r.run.Judge, t))
	}
	if len(t.Aliases) > 0 {
		var parts []string
		for _, a := range t.Aliases {
			parts = append(parts, w.aliasFmt(inlineText(a.Alias), inlineText(r.name(a.Participant))))
		}
		r.headerLine(w.aliases, strings.Join(parts, "; "))
	}
	r.quoteLine(t.Quotes)
	r.headerLine(w.maxRounds, fmt.Sprint(r.run.MaxRounds))
	r.headerLine(w.depthReached, w.depthFmt(stats.Depth, stats.Rounds))
	r.usageLines(t.Usage)
	r.stanceLine(t.Stances)
	r.headerLine(w.status, w.statusWord(topicStatus(t)))
}

// demoLine says, for a run played against the built-in scripted model, that
// nothing in the report comes from a real model.
func (r *report) demoLine() {
	if r.run.Demo {
		r.printf("> **%s**\n\n", r.w.demo)
	}
}

// headerLine writes one "> - **key:** value" line of a report header.
func (r *report) headerLine(key, value string) {
	r.printf("%s\n", headerItem(r.w, key, value))
}

// usageLines writes the token and cost lines when anything was spent.
func (r *report) usageLines(u tree.Usage) {
	if u.Total() > 0 || u.Calls > 0 {
		s := r.w.tokensFmt(Thousands(u.Total()), Thousands(u.PromptTokens), Thousands(u.CompletionTokens), u.Calls)
		if u.Failures > 0 {
			s += r.w.failedCallsFmt(u.Failures)
		}
		if u.CachedPromptTokens > 0 {
			s += r.w.cachedFmt(Thousands(u.CachedPromptTokens))
		}
		if u.CacheEligiblePromptTokens > 0 {
			s += r.w.eligibleFmt(Thousands(u.CacheEligiblePromptTokens), 100*u.CacheShare())
		}
		if u.ReasoningTokens > 0 {
			s += r.w.reasoningTokensFmt(Thousands(u.ReasoningTokens))
		}
		if u.EstimatedCalls > 0 {
			s += r.w.estimatedFmt(u.EstimatedCalls)
		}
		r.headerLine(r.w.tokens, s)
	}
	if u.Cost > 0 {
		c := formatCost(u.Cost)
		if u.ProviderCost > 0 && u.ProviderCost != u.Cost {
			c += r.w.providerCostFmt(formatCost(u.ProviderCost))
		}
		r.headerLine(r.w.cost, c)
	}
}

// date returns the run's start in UTC, with the duration from start to end
// when both are known.
func (r *report) date(start, end time.Time) string {
	if r.run.StartedAt.IsZero() {
		return "—"
	}
	s := r.run.StartedAt.UTC().Format("2006-01-02 15:04 UTC")
	if d := end.Sub(start); !start.IsZero() && !end.IsZero() && d > 0 {
		s += fmt.Sprintf(" (%s %s)", strings.ToLower(r.w.duration), d.Round(time.Second))
	}
	return s
}

// list writes a titled bullet list of user text, if there is any.
func (r *report) list(title string, items []string) {
	if len(items) == 0 {
		return
	}
	r.printf("**%s%s**\n\n", title, r.w.colon)
	for _, it := range items {
		r.printf("- %s\n", inlineText(it))
	}
	r.b.WriteString("\n")
}

// debaters lists the run's debaters with the models they ended the topic on.
func (r *report) debaters(t *tree.Topic) string {
	var parts []string
	for _, p := range r.run.Debaters {
		parts = append(parts, r.participant(p, t))
	}
	return strings.Join(parts, "; ")
}

// participant returns "Label — model", with the model the participant fell
// back to during the topic and the one it fell back from.
func (r *report) participant(p tree.Participant, t *tree.Topic) string {
	for _, f := range t.Fallbacks {
		if f.Participant == p.ID {
			s := fmt.Sprintf("%s — %s (%s %s", inlineText(p.Name()), inlineText(f.To),
				r.w.fellBackFrom(inlineText(f.From)), r.w.atNode(inlineText(f.Node)))
			if f.Reason != "" || len(f.Because) > 0 {
				s += r.w.colonSep + inlineText(r.w.say(f.Because, f.Reason))
			}
			return s + ")"
		}
	}
	return fmt.Sprintf("%s — %s", inlineText(p.Name()), inlineText(p.Model))
}

// topicStatus returns the topic's recorded status, or the one its tree sums to.
func topicStatus(t *tree.Topic) tree.Status {
	if t.Status != "" {
		return t.Status
	}
	return t.Root.Summarize()
}

// name returns the label of a party id.
func (r *report) name(id string) string {
	for _, p := range r.run.Debaters {
		if p.ID == id {
			return p.Name()
		}
	}
	if r.run.Judge.ID == id {
		return r.run.Judge.Name()
	}
	return id
}

// parties returns the debater ids for a node's sections: the run's debaters in
// order, then any other id found in the given maps, sorted.
func (r *report) parties(maps ...map[string]string) []string {
	var ids []string
	known := map[string]bool{}
	for _, p := range r.run.Debaters {
		ids = append(ids, p.ID)
		known[p.ID] = true
	}
	var extra []string
	for _, m := range maps {
		for id := range m {
			if !known[id] {
				known[id] = true
				extra = append(extra, id)
			}
		}
	}
	slices.Sort(extra)
	return append(ids, extra...)
}

// sideIDs returns the ids that hold a side, in the order of parties.
func (r *report) sideIDs(sides map[string]string) []string {
	var out []string
	for _, id := range r.parties(sides) {
		if _, ok := sides[id]; ok {
			out = append(out, id)
		}
	}
	return out
}

// names joins the labels of party ids.
func (r *report) names(ids []string, sep string) string {
	var out []string
	for _, id := range ids {
		out = append(out, inlineText(r.name(id)))
	}
	return strings.Join(out, sep)
}

// debaterModel returns the model a debater is configured with.
func (r *report) debaterModel(id string) string {
	for _, p := range r.run.Debaters {
		if p.ID == id {
			return p.Model
		}
	}
	return ""
}

func (r *report) node(n *tree.Node) {
	w := r.w
	heading := w.roundRoot(n.Round)
	if n.ID != tree.RootID {
		heading = w.roundChild(n.Round, n.ID, inlineText(n.Title))
	}
	switch n.Status {
	case tree.Converged, tree.Partial, tree.Forced, tree.Failed, tree.Interrupted:
		heading += " (" + w.statusWord(n.Status) + ")"
	}
	r.printf("---\n\n## %s\n\n", heading)
	if d := n.Divergence; d != nil && len(d.Sides) > 0 {
		r.printf("*%s", w.between(r.names(r.sideIDs(d.Sides), " vs ")))
		if len(d.Uninvolved) > 0 {
			r.printf("%s", w.uninvolvedFmt(r.names(d.Uninvolved, w.listSep)))
		}
		r.b.WriteString("*\n\n")
	}

	r.printf("### %s\n\n", w.positions)
	r.answers(n, n.Positions, tree.StepPosition, func(id string) string {
		return inlineText(r.name(id)) + " — " + r.nodeModel(n.Models, id)
	})
	r.printf("### %s\n\n", w.rebuttals)
	r.answers(n, n.Rebuttals, tree.StepRebuttal, func(id string) string {
		return r.rebuttalTitle(n, id)
	})

	forced := n.Judgment != nil && len(n.Judgment.ForcedVerdicts) > 0 || n.Status == tree.Forced
	if forced {
		r.printf("### %s\n\n", w.forcedTriage)
	} else {
		r.printf("### %s\n\n", w.triage)
	}
	r.judgment(n)
	r.status(n)
}

// rebuttalTitle is the heading of a debater's rebuttal at n, naming the
// model that wrote it.
func (r *report) rebuttalTitle(n *tree.Node, id string) string {
	models := n.RebuttalModels
	if models == nil { // a run.json written before rebuttals carried their model
		models = n.Models
	}
	return r.w.rebuttalBy(inlineText(r.name(id))) + " — " + r.nodeModel(models, id)
}

// nodeModel returns the model that wrote a debater's text, as recorded in
// models, noting a fallback.
func (r *report) nodeModel(models map[string]string, id string) string {
	primary := r.debaterModel(id)
	m, ok := models[id]
	switch {
	case !ok || m == "":
		return inlineText(primary)
	case primary != "" && m != primary:
		return inlineText(m) + " (" + r.w.fellBackFrom(inlineText(primary)) + ")"
	}
	return inlineText(m)
}

// answers writes one subsection per debater for a step: its text, or a mark
// saying it gave none and why.
func (r *report) answers(n *tree.Node, texts map[string]string, step tree.Step, title func(id string) string) {
	list := r.answerList(n, texts, step, title)
	if list == nil {
		r.printf("*%s*\n\n", r.w.notReached)
		return
	}
	for _, a := range list {
		r.printf("#### %s\n\n%s\n\n", a.title, a.body)
	}
}

// answer is one debater's part of a step, as Markdown.
type answer struct {
	id, title, body string
	missing         bool   // no text: body says why
	reasoning       string // what the model gave as its reasoning, as written; "" if none
}

// reasoningOf returns the reasoning participant gave with its answer at step
// of n, "" if none.
func reasoningOf(n *tree.Node, participant string, step tree.Step) string {
	for _, r := range n.Reasoning {
		if r.Participant == participant && r.Step == step {
			return r.Text
		}
	}
	return ""
}

// answerList returns each debater's part of a step in party order, or nil
// when the step was not reached.
func (r *report) answerList(n *tree.Node, texts map[string]string, step tree.Step, title func(id string) string) []answer {
	errs := r.w.stepErrors(n, step)
	if len(texts) == 0 && len(errs) == 0 {
		return nil
	}
	list := []answer{}
	for _, id := range r.parties(texts) {
		text, ok := texts[id]
		if ok && strings.TrimSpace(text) != "" {
			body := embedText(r.withQuotes(text, quotesOf(n, id, step)), 4)
			for _, w := range n.Warnings {
				if w.Participant == id && w.Step == step {
					body += "\n\n> ⚠ " + inlineText(r.w.say(w.Because, w.Message))
				}
			}
			list = append(list, answer{id: id, title: title(id), body: body, reasoning: reasoningOf(n, id, step)})
			continue
		}
		msgs := errs[id]
		if len(msgs) == 0 {
			if !slices.ContainsFunc(r.run.Debaters, func(p tree.Participant) bool { return p.ID == id }) {
				continue
			}
			msgs = []string{r.w.noAnswer}
			if n.Status == tree.Interrupted {
				msgs = []string{r.w.statusWord(tree.Interrupted)}
			}
		}
		body := "> ⚠ " + r.w.noAnswerFmt(r.w.stepWord(step), inlineText(strings.Join(msgs, r.w.reasonSep)))
		list = append(list, answer{id: id, title: title(id), body: body, missing: true})
	}
	return list
}

// stepErrors returns the error messages of a node's step by participant.
func (w *words) stepErrors(n *tree.Node, step tree.Step) map[string][]string {
	out := map[string][]string{}
	for _, e := range n.Errors {
		if e.Step == step {
			out[e.Participant] = append(out[e.Participant], w.say(e.Because, e.Message))
		}
	}
	return out
}

// judgment writes the judge's consensus, divergences and forced verdicts.
func (r *report) judgment(n *tree.Node) {
	w := r.w
	var judgeErrs []string
	for _, e := range n.Errors {
		if e.Step == tree.StepJudge {
			judgeErrs = append(judgeErrs, w.say(e.Because, e.Message))
		}
	}
	if len(judgeErrs) > 0 {
		r.printf("**%s%s**\n\n", w.judgeErrors, w.colon)
		for _, m := range judgeErrs {
			r.printf("- %s\n", inlineText(m))
		}
		r.b.WriteString("\n")
	}
	j := n.Judgment
	if j == nil {
		if raw := strings.TrimSpace(n.RawJudgment); raw != "" {
			r.printf("%s\n\n%s\n", w.rawJudgment, fenced("text", raw))
		} else if len(judgeErrs) == 0 {
			r.printf("*%s*\n\n", w.notReached)
		}
		return
	}
	r.printf("**%s%s**\n\n", w.consensus, w.colon)
	if len(j.Consensus) == 0 {
		r.printf("- %s\n", w.none)
	}
	for _, c := range j.Consensus {
		r.printf("- %s\n", r.point(c))
	}
	r.b.WriteString("\n")
	if len(j.Divergences) > 0 {
		r.printf("**%s%s**\n\n", w.divergencesFmt(len(j.Divergences)), w.colon)
		for i, d := range j.Divergences {
			// A divergence names its child node; one decided here by a
			// forced verdict has none, and its title alone names it.
			title := inlineText(d.Title)
			if i < len(n.Children) {
				title = inlineText(n.Children[i].ID) + w.colonSep + title
			}
			involved := r.sideIDs(d.Sides)
			r.printf("%d. **%s** — %s", i+1, title, r.names(involved, " vs "))
			if len(d.Uninvolved) > 0 {
				r.printf(" (%s%s%s)", w.uninvolved, w.colonSep, r.names(d.Uninvolved, w.listSep))
			}
			r.b.WriteString("\n")
			for _, p := range involved {
				r.printf("   - %s%s%s\n", inlineText(r.name(p)), w.colonSep, inlineText(d.Sides[p]))
			}
		}
		r.b.WriteString("\n")
	}
	if len(j.ForcedVerdicts) > 0 {
		r.printf("**%s%s**\n\n", w.forcedVerdicts, w.colon)
		for i, v := range j.ForcedVerdicts {
			title := v.DivergenceID
			for _, d := range j.Divergences {
				if d.ID == v.DivergenceID {
					title = d.Title
				}
			}
			r.printf("%d. **%s**\n", i+1, inlineText(title))
			r.printf("   - **%s%s** %s\n", w.recommendation, w.colon, r.recommendation(v))
			if !v.Missing && !v.OverLimit && !v.Split {
				r.printf("   - **%s%s** %s\n", w.reasoning, w.colon, inlineText(v.Reasoning))
			}
			r.votes(v)
		}
		r.b.WriteString("\n")
	}
}

// recommendation is a verdict's recommendation, or says that it is missing
// or split; an unstable verdict says so after it.
func (r *report) recommendation(v tree.Verdict) string {
	s := inlineText(v.Recommendation)
	switch {
	case v.Split:
		s = r.w.verdictSplit
	case v.OrderCheckDropped():
		s = r.w.verdictDropped
	case v.Missing:
		s = r.w.verdictMissing
	case v.OverLimit:
		return r.w.verdictOverLimit
	}
	if v.Unstable {
		s += " " + r.w.verdictUnstable
	}
	return s
}

// favored names the debater a vote favors, or says it took no side.
func (r *report) favored(id string) string {
	if id == "" || id == "none" {
		return r.w.noSide
	}
	return inlineText(r.name(id))
}

// votes writes a panel verdict's tally, then each judge's vote: whom it
// favored and its recommendation, or why it did not count.
func (r *report) votes(v tree.Verdict) {
	if len(v.Votes) == 0 {
		return
	}
	w := r.w
	count := map[string]int{}
	var order []string
	for _, x := range v.Votes {
		if x.Status != tree.VoteCounted {
			continue
		}
		if count[x.Favors] == 0 {
			order = append(order, x.Favors)
		}
		count[x.Favors]++
	}
	var tally []string
	for _, f := range order {
		tally = append(tally, fmt.Sprintf("%s %d", r.favored(f), count[f]))
	}
	r.printf("   - **%s%s** %s\n", w.votes, w.colon, strings.Join(tally, ", "))
	for _, x := range v.Votes {
		who := inlineText(r.judgeName(x.Judge)) + " — " + inlineText(x.Model)
		if x.Status == tree.VoteCounted {
			r.printf("     - %s%s%s — %s\n", who, w.colonSep, r.favored(x.Favors), inlineText(x.Recommendation))
			continue
		}
		r.printf("     - %s%s%s — %s\n", who, w.colonSep, w.voteStatus[x.Status], inlineText(w.say(x.Because, x.Reason)))
	}
}

// judgeName returns the label of a judge of the run's panel.
func (r *report) judgeName(id string) string {
	for _, j := range r.run.Judges {
		if j.ID == id {
			return j.Name()
		}
	}
	return r.name(id)
}

// point formats a consensus point as "**point** — detail".
func (r *report) point(c tree.Consensus) string {
	s := "**" + inlineText(c.Point) + "**"
	if d := inlineText(c.Detail); d != "" {
		s += " — " + d
	}
	return s
}

// status writes a node's status mark and, for a node that did not finish,
// its cause, the debaters missing from a step and any error not shown with
// a step.
func (r *report) status(n *tree.Node) {
	w := r.w
	line := fmt.Sprintf("**%s%s** %s", w.status, w.colon, w.statusWord(n.Status))
	if n.StopReason != "" || len(n.Because) > 0 {
		line += " — " + inlineText(w.say(n.Because, n.StopReason))
	}
	r.printf("%s\n\n", line)
	if len(n.Missing) > 0 {
		r.printf("**%s%s**\n\n", w.missing, w.colon)
		for _, a := range n.Missing {
			r.printf("- %s (%s)%s%s\n", inlineText(r.name(a.Participant)), w.stepWord(a.Step), w.colonSep, inlineText(w.say(a.Because, a.Reason)))
		}
		r.b.WriteString("\n")
	}
	var other []string
	for _, e := range n.Errors {
		switch e.Step {
		case tree.StepPosition, tree.StepRebuttal, tree.StepJudge:
		default:
			other = append(other, fmt.Sprintf("%s (%s)%s%s", inlineText(r.name(e.Participant)), w.stepWord(e.Step), w.colonSep, inlineText(e.Message)))
		}
	}
	if len(other) > 0 {
		r.printf("**%s%s**\n\n", w.otherErrors, w.colon)
		for _, s := range other {
			r.printf("- %s\n", s)
		}
		r.b.WriteString("\n")
	}
}

// conclusion writes every consensus point and verdict of the tree.
func (r *report) conclusion(root *tree.Node) {
	r.printf("### %s\n\n", r.w.consensusPoints)
	r.points(root)
	r.printf("\n### %s\n\n", r.w.verdicts)
	r.decisions(root, true)
	r.b.WriteString("\n")
}

// points writes every consensus point of the tree as a list, each with the
// node it was reached at.
func (r *report) points(root *tree.Node) {
	points := root.AllConsensus()
	if len(points) == 0 {
		r.printf("- %s\n", r.w.none)
	}
	for _, p := range points {
		r.printf("- %s *(%s)*\n", r.point(p.Consensus), inlineText(p.Node))
	}
}

// decisions writes every forced verdict of the tree as a list, each with the
// node it was forced at, and its reasoning when asked.
func (r *report) decisions(root *tree.Node, reasoning bool) {
	verdicts := root.AllVerdicts()
	if len(verdicts) == 0 {
		r.printf("- %s\n", r.w.none)
	}
	for _, v := range verdicts {
		title := v.Divergence.Title
		if title == "" {
			title = v.DivergenceID
		}
		r.printf("- **%s** *(%s)*%s%s", inlineText(title), inlineText(v.Node), r.w.colonSep, r.recommendation(v.Verdict))
		if reasoning && strings.TrimSpace(v.Reasoning) != "" {
			r.printf(" — %s", inlineText(v.Reasoning))
		}
		r.b.WriteString("\n")
	}
}
