package render

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/debatehq/debate/tree"
)

// Summary returns summary.md for a run: a header, each topic's decision
// (what it decided, how, and what stays in dispute), then the statistics:
// usage and a table with one row per topic (linked to its report, decision,
// status, rounds reached, consensus points, divergences, verdicts given,
// missing and dropped by the order check, failed nodes, failed calls,
// fallbacks, tokens, cost) and a total row, every fallback with its reason, every change made to the requests a
// server refused (as sentences; none without), each topic's
// conclusion (its synthesis if present, else its consensus points and
// verdicts), the motions (see motions) and, for a run with shared documents,
// the proposed edits to them. A run of motions only gets the header and the motions. reports
// maps a topic id to the file name of its report, relative to the summary;
// a topic without one is not linked.
func Summary(run *tree.Run, reports map[string]string) []byte {
	r := &report{run: run, w: wordsFor(run), reports: reports}
	r.summary()
	return r.bytes()
}

// summaryPage is the Markdown of the summary's HTML page: the decisions
// come before the header lines, so that a phone's first screen shows them.
func summaryPage(run *tree.Run, reports map[string]string) []byte {
	r := &report{run: run, w: wordsFor(run), reports: reports, html: true}
	r.summary()
	return r.bytes()
}

func (r *report) summary() {
	w := r.w
	r.printf("# %s\n\n", w.summaryHeading)
	r.demoLine()
	decisionsFirst := r.html && len(r.run.Topics) > 0
	if decisionsFirst {
		r.decisionList()
	}
	r.headerLine(w.date, r.date(r.run.StartedAt, r.run.FinishedAt))
	if len(r.run.Topics) == 0 && len(r.run.Motions) > 0 {
		r.usageLines(r.run.Usage)
		r.cacheLine(r.run.Cache)
		r.modelLines(r.run.ByModel)
		r.b.WriteString("\n")
		r.motions()
		return
	}
	var debaters []string
	for _, p := range r.run.Debaters {
		debaters = append(debaters, fmt.Sprintf("%s — %s", inlineText(p.Name()), inlineText(p.Model)))
	}
	r.headerLine(w.debaters, strings.Join(debaters, "; "))
	r.headerLine(w.judge, fmt.Sprintf("%s — %s", inlineText(r.run.Judge.Name()), inlineText(r.run.Judge.Model)))
	r.quoteLine(r.run.Quotes)
	r.headerLine(w.maxRounds, fmt.Sprint(r.run.MaxRounds))
	r.stanceLine(r.run.Stances)
	r.b.WriteString("\n")
	if !decisionsFirst {
		r.decisionList()
	}
	fallbacks := r.statistics()
	r.audit(r.run.Audit)
	r.fallbackList(fallbacks)
	r.adaptationList()
	r.conclusions()
	r.motions()
	r.proposedEdits()
}

// proposedEdits writes the judge's proposed edits to the shared documents,
// or that none were proposed; nothing for a run without shared documents
// and without edits.
func (r *report) proposedEdits() {
	edits := strings.TrimSpace(r.run.Edits) != ""
	if !edits && len(r.run.Documents) == 0 {
		return
	}
	r.printf("## %s\n\n", r.w.proposedEdits)
	if !edits {
		r.printf("%s\n", r.w.noEdits)
		return
	}
	r.block(r.run.Edits, 2)
}

// cacheLine says what the call cache answered, and that the run paid
// nothing when it answered every call; nothing without a cache.
func (r *report) cacheLine(c *tree.CacheUse) {
	if c == nil || c.Cached == 0 {
		return
	}
	w := r.w
	s := w.cacheSomeFmt(c.Cached, c.Cached+c.Fresh, Thousands(c.CachedUsage.Total()), c.Fresh)
	if c.Fresh == 0 {
		s = w.cacheAllFmt(c.Cached, Thousands(c.CachedUsage.Total()))
	}
	if c.CachedUsage.Cost > 0 {
		s += w.cacheCostFmt(formatCost(c.CachedUsage.Cost))
	}
	r.headerLine(w.callCache, s)
}

// statistics writes the run's usage and the table of the topics, with the
// motions' and the run's own calls and a total row; it returns the number
// of fallbacks.
func (r *report) statistics() int {
	w, dw := r.w, r.decisionWords()
	r.printf("## %s\n\n", dw.statistics)
	if u := r.run.Usage; u.Total() > 0 || u.Calls > 0 || u.Cost > 0 {
		r.usageLines(u)
		r.cacheLine(r.run.Cache)
		r.modelLines(r.run.ByModel)
		r.b.WriteString("\n")
	}
	cols := []string{w.colID, w.colTopic, dw.heading, w.colRounds, w.colConsensus, w.colDivergences, dw.colVerdicts,
		w.colFailures, w.colFailedCalls, w.colFallbacks, w.colTokens, w.colCost}
	r.printf("| %s |\n|", strings.Join(cols, " | "))
	for i := range cols {
		if i < 3 {
			r.b.WriteString("---|")
		} else {
			r.b.WriteString("--:|")
		}
	}
	r.b.WriteString("\n")
	var sum tree.Stats
	var usage tree.Usage
	var verdicts tree.VerdictCount
	fallbacks, dropped := 0, 0
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		s := t.Root.Stats()
		o, _, v := topicDecision(t)
		sum.Consensus += s.Consensus
		sum.Divergences += s.Divergences
		sum.Failed += s.Failed
		verdicts = verdicts.Add(v)
		d := OrderCheckDropped(t)
		dropped += d
		usage = usage.Add(t.Usage)
		fallbacks += len(t.Fallbacks)
		r.printf("| %s | %s | %s | %d | %d | %d | %s | %d | %d | %d | %s | %s |\n",
			inlineText(t.ID), r.reportLink(t.ID, inlineText(t.Title)), r.decisionWords().outcomes[o], s.Rounds,
			s.Consensus, s.Divergences, r.verdictCell(v, d), s.Failed, t.Usage.Failures, len(t.Fallbacks),
			Thousands(t.Usage.Total()), CostText(t.Usage.Cost))
	}
	rows := len(r.run.Topics)
	// The header's total counts calls no topic made: the motions' and the
	// run's own (the proposed edits). A row each, so the table adds up.
	var motions tree.Usage
	for _, m := range r.run.Motions {
		motions = motions.Add(m.Usage)
	}
	for _, other := range []struct {
		label string
		u     tree.Usage
	}{{w.motionCalls, motions}, {w.runCalls, rest(r.run.Usage, usage.Add(motions))}} {
		if other.u.Total() <= 0 && other.u.Failures <= 0 {
			continue
		}
		r.printf("| | %s | | | | | | | %d | | %s | %s |\n", other.label, other.u.Failures, Thousands(other.u.Total()), CostText(other.u.Cost))
		usage = usage.Add(other.u)
		rows++
	}
	if rows > 1 {
		r.printf("| **%s** | | | | %d | %d | %s | %d | %d | %d | %s | %s |\n", w.total,
			sum.Consensus, sum.Divergences, r.verdictCell(verdicts, dropped), sum.Failed, usage.Failures, fallbacks,
			Thousands(usage.Total()), CostText(usage.Cost))
	}
	r.b.WriteString("\n")
	return fallbacks
}

// fallbackList writes every fallback of the topics with its reason.
func (r *report) fallbackList(fallbacks int) {
	w := r.w
	r.printf("## %s\n\n", w.fallbacks)
	if fallbacks == 0 {
		r.printf("%s\n\n", w.noFallbacks)
	}
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		for _, f := range t.Fallbacks {
			r.printf("- %s", w.fallbackFmt(inlineText(t.ID), inlineText(r.name(f.Participant)), inlineText(f.From), inlineText(f.To), inlineText(f.Node)))
			if f.Reason != "" || len(f.Because) > 0 {
				r.printf(" — %s", inlineText(w.say(f.Because, f.Reason)))
			}
			r.b.WriteString("\n")
		}
	}
	if fallbacks > 0 {
		r.b.WriteString("\n")
	}
}

// adaptationList writes, when a server refused a parameter, what was sent
// instead for the rest of the run, one sentence per model and endpoint.
func (r *report) adaptationList() {
	if len(r.run.Adaptations) == 0 {
		return
	}
	w := r.w
	r.printf("## %s\n\n", w.adaptations)
	for _, a := range r.run.Adaptations {
		r.printf("- %s\n", w.adaptedFmt(inlineText(a.Model), inlineText(host(a.Endpoint)), inlineText(w.adapted(a)), inlineText(a.Reason)))
	}
	r.b.WriteString("\n")
}

// adapted says what the requests of an adaptation carry: without the
// parameter, another in its place, or the system message as a user's.
func (w *words) adapted(a tree.Adaptation) string {
	switch a.How {
	case tree.LeftOut:
		return w.withoutFmt(a.Param + w.leftOutNotes[a.Param])
	case tree.NoStreaming:
		return w.withoutFmt(a.Param)
	case tree.Replaced:
		if a.Param == "response_format" {
			// The one change of format: a schema where a JSON object was
			// refused.
			return w.insteadFmt("response_format "+a.Change, "json_object")
		}
		return w.insteadFmt(a.Change, a.Param)
	case tree.SystemAsUser:
		return w.systemAsUser
	}
	return w.legacyAdapted(a)
}

// host is the host of an endpoint's base URL, or the URL when it has none.
func host(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" {
		return u.Host
	}
	return endpoint
}

// conclusions writes each topic's conclusion: its synthesis, else its
// consensus points and verdicts.
func (r *report) conclusions() {
	w := r.w
	r.printf("## %s\n\n", w.conclusions)
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		r.printf("### %s%s%s — %s\n\n", inlineText(t.ID), w.colonSep, r.reportLink(t.ID, inlineText(t.Title)), r.decisionWord(t))
		if s := t.Root.Stats(); s.Failed > 0 || s.Interrupted > 0 {
			r.printf("> ⚠ %s\n\n", w.incompleteFmt(s.Failed, s.Interrupted))
		}
		if f := t.Stances; f != nil && f.Moved.Of > 0 {
			r.printf("%s%s %s\n\n", w.stances, w.colon, w.stanceSummary(f))
		}
		if strings.TrimSpace(t.Synthesis) != "" {
			r.block(t.Synthesis, 3)
			continue
		}
		r.printf("**%s%s**\n\n", w.consensus, w.colon)
		r.points(t.Root)
		r.printf("\n**%s%s**\n\n", w.verdicts, w.colon)
		r.decisions(t.Root, false)
		r.b.WriteString("\n")
	}
}

// rest is the part of the run's usage that part does not count, in the
// fields the summary table shows.
func rest(run, part tree.Usage) tree.Usage {
	u := tree.Usage{
		PromptTokens:     run.PromptTokens - part.PromptTokens,
		CompletionTokens: run.CompletionTokens - part.CompletionTokens,
		Failures:         run.Failures - part.Failures,
		Cost:             run.Cost - part.Cost,
	}
	if u.Cost < 1e-9 {
		u.Cost = 0 // rounding left over from the sums
	}
	return u
}

// CostText formats a cost as the reports do, "—" when unpriced.
func CostText(c float64) string {
	if c == 0 {
		return "—"
	}
	return formatCost(c)
}

// reportLink returns text as a Markdown link to the report of the topic or
// motion id, or text alone when there is none.
func (r *report) reportLink(id, text string) string {
	name, ok := r.reports[id]
	if !ok || text == "" {
		return text
	}
	text = strings.NewReplacer("[", `\[`, "]", `\]`).Replace(text)
	return "[" + text + "](" + linkDest(name) + ")"
}

// plainDest matches a file name that is a Markdown link destination as it is.
var plainDest = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// linkDest writes a file name as a Markdown link destination.
func linkDest(name string) string {
	if plainDest.MatchString(name) {
		return name
	}
	return "<" + strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "").Replace(name) + ">"
}

// modelLines writes each model's prompt tokens, cache-eligible and cached,
// in model order, when the prompts shared any prefix.
func (r *report) modelLines(byModel map[string]tree.Usage) {
	models := make([]string, 0, len(byModel))
	eligible := false
	for m, u := range byModel {
		models = append(models, m)
		eligible = eligible || u.CacheEligiblePromptTokens > 0
	}
	if !eligible {
		return
	}
	slices.Sort(models)
	for _, m := range models {
		u := byModel[m]
		if u.PromptTokens == 0 && u.Failures > 0 {
			// A model every call of which failed (its participant fell
			// back) sent nothing that a cache could hold.
			r.printf("> - %s\n", r.w.unansweredFmt(inlineText(m), u.Failures))
			continue
		}
		r.printf("> - %s\n", r.w.byModelFmt(inlineText(m), Thousands(u.PromptTokens),
			Thousands(u.CacheEligiblePromptTokens), 100*u.CacheShare(), Thousands(u.CachedPromptTokens)))
	}
}
