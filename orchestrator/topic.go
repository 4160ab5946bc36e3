package orchestrator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sourcegraph/conc/panics"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/tree"
)

// topicRun is the state of one topic while its tree runs: its roster of
// participants, shared by all of the topic's nodes.
type topicRun struct {
	e        *Engine
	topic    configs.Topic
	seed     uint64 // the aliases and orders are drawn from
	r        *roster
	debaters []*member // in config order
	judges   []*member // the panel, chair first
	judge    *member   // the chair
	// aliases are the debaters' neutral names in blind prompts, in config
	// order; aliasOrder lists the debaters' indices by alias number.
	aliases    []prompts.Party
	aliasOrder []int
	quotes     *checker // of the documents the topic's debaters see; nil when quotes are off
}

func (e *Engine) newTopicRun(t configs.Topic) *topicRun {
	tr := &topicRun{e: e, topic: t, seed: e.seedOf(t), r: e.newRoster(t.ID), quotes: e.topicChecker(t)}
	for _, d := range e.debaters {
		tr.debaters = append(tr.debaters, tr.r.add(d))
	}
	for _, j := range e.judges {
		tr.judges = append(tr.judges, tr.r.add(j))
	}
	if len(tr.judges) > 0 {
		tr.judge = tr.judges[0]
	}
	tr.assignAliases()
	return tr
}

// runTopic runs one topic's whole tree and, when asked for, its synthesis.
func (e *Engine) runTopic(ctx context.Context, ct configs.Topic) tree.Topic {
	// The topic's calls hang their deadlines on a context of the topic's
	// own: on the run's, shared by every call in flight, adding and
	// removing them queued for its one lock.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tr := e.newTopicRun(ct)
	started := e.opt.Now()
	e.emit(tree.Event{Kind: tree.TopicStarted, Topic: ct.ID})
	root := tree.NewNode(tree.RootID, ct.Title, ct.Background)
	e.emit(tree.Event{Kind: tree.NodeStarted, Topic: ct.ID, Node: root.ID})
	tr.runNode(ctx, root, lineage{})
	out := tree.Topic{
		ID: ct.ID, Title: ct.Title, Background: ct.Background,
		Annotations: ct.Annotations, CoreQuestions: ct.CoreQuestions,
		Root: root, Status: root.Summarize(), Aliases: tr.aliasRecord(), Seed: tr.seed,
	}
	if tr.quoting() {
		out.Quotes = tree.TallyQuotes(root)
	}
	if e.cfg.Synthesis() && root.Judgment != nil && root.Status != tree.Failed && ctx.Err() == nil {
		if p := panics.Try(func() { out.Synthesis = tr.synthesize(ctx, root) }); p != nil {
			e.log.Error("synthesis panicked", "topic", ct.ID, "panic", p.String())
			msg, why := e.opt.Say.said(panicReason(p))
			root.Errors = append(root.Errors, tree.NodeError{Participant: tr.judge.p.ID, Step: tree.StepSynthesis, Message: msg, Because: why})
		}
	}
	out.Fallbacks = tr.r.sortedFallbacks()
	out.Usage = tr.r.book.total(e.cfg.Pricing)
	out.ByModel = tr.r.book.priced(e.cfg.Pricing)
	out.StartedAt, out.FinishedAt = started, e.opt.Now()
	out.Settle()
	e.log.Info("topic finished", tree.EventKey, tree.TopicFinished, "topic", ct.ID, "status", out.Status, "decision", out.DecisionText(),
		"nodes", root.Stats().Nodes, "tokens", out.Usage.Total())
	e.emit(tree.Event{Kind: tree.TopicFinished, Topic: ct.ID, Status: out.Status, Decision: out.Decision, Cause: out.Cause, Verdicts: out.Verdicts, Usage: out.Usage})
	return out
}

// brokenTopic is what remains of a topic whose work panicked outside any
// node: a failed root that says why. Its end is announced as a finished
// topic's is; since the panic may have come from the events' consumer, a
// panic in that announcement is logged rather than passed on.
func (e *Engine) brokenTopic(ct configs.Topic, p *panics.Recovered) tree.Topic {
	why := panicReason(p)
	msg := e.opt.Say(why)
	e.log.Error("topic panicked", "topic", ct.ID, "panic", p.String())
	root := tree.NewNode(tree.RootID, ct.Title, ct.Background)
	root.Status, root.StopReason, root.Because = tree.Failed, msg, []tree.Reason{why}
	if p := panics.Try(func() {
		e.emit(tree.Event{Kind: tree.TopicFinished, Topic: ct.ID, Status: tree.Failed, Decision: tree.Undecided, Cause: tree.CauseFailed, Err: msg})
	}); p != nil {
		e.log.Error("announcing a panicked topic's end panicked", "topic", ct.ID, "panic", p.String())
	}
	return tree.Topic{
		ID: ct.ID, Title: ct.Title, Background: ct.Background,
		Annotations: ct.Annotations, CoreQuestions: ct.CoreQuestions,
		Root: root, Status: tree.Failed, Decision: tree.Undecided, Cause: tree.CauseFailed, Fallbacks: []tree.Fallback{},
	}
}

// lineage is what a node inherits from its parent: the titles of the
// divergences above it and each debater's own position and rebuttal at the
// parent. Nothing of sibling nodes.
type lineage struct {
	path      []string
	positions map[string]string
	rebuttals map[string]string
}

// runNode runs a node's steps, then its children in parallel, and returns
// when the whole subtree has ended. A panic in the node's work fails the node
// with the panic's message and opens none of its children.
func (t *topicRun) runNode(ctx context.Context, n *tree.Node, lin lineage) {
	if p := panics.Try(func() { t.steps(ctx, n, lin) }); p != nil {
		why := panicReason(p)
		t.e.log.Error("node panicked", "topic", t.topic.ID, "node", n.ID, "panic", p.String())
		n.Children = []*tree.Node{}
		n.Errors = append(n.Errors, tree.NodeError{Message: t.e.opt.Say(why), Because: []tree.Reason{why}})
		t.setStop(n, tree.Failed, why)
	}
	if n.Status == tree.Pending {
		t.stop(ctx, n, tree.Failed, tree.Because(tree.NoStatus))
	}
	for _, c := range n.Children {
		t.e.emit(tree.Event{Kind: tree.NodeStarted, Topic: t.topic.ID, Node: c.ID})
	}
	t.e.emit(tree.Event{Kind: tree.NodeFinished, Topic: t.topic.ID, Node: n.ID, Status: n.Status, Err: errText(n)})
	if len(n.Children) == 0 {
		return
	}
	next := lineage{positions: n.Positions, rebuttals: n.Rebuttals}
	if n.Divergence != nil {
		next.path = append(append(next.path, lin.path...), n.Title)
	}
	for i, p := range each(len(n.Children), true, func(i int) { t.runNode(ctx, n.Children[i], next) }) {
		if p != nil { // runNode catches its own panics; this is the last net
			c := n.Children[i]
			t.setStop(c, tree.Failed, panicReason(p))
		}
	}
}

func errText(n *tree.Node) string {
	if n.Status == tree.Failed {
		return n.StopReason
	}
	return ""
}

// stop ends a node with status and reason. When ctx has ended, a node that
// would fail or is still open is interrupted instead; one that reached an
// outcome (converged, partial, forced, split) keeps it.
func (t *topicRun) stop(ctx context.Context, n *tree.Node, s tree.Status, why ...tree.Reason) {
	if err := ctx.Err(); err != nil && s != tree.Converged && s != tree.Partial && s != tree.Forced && s != tree.Split {
		s, why = tree.Interrupted, []tree.Reason{interruption(ctx)}
	}
	t.setStop(n, s, why...)
}

// setStop ends n with status s for the reasons why, kept as codes and in
// words.
func (t *topicRun) setStop(n *tree.Node, s tree.Status, why ...tree.Reason) {
	n.Status, n.StopReason, n.Because = s, t.e.opt.Say(why...), why
}

// interruption says why ctx ended.
func interruption(ctx context.Context) tree.Reason {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return tree.Because(tree.DeadlineExceeded)
	}
	return tree.Because(tree.InterruptedByUser)
}

// steps runs position, rebuttal and judge for one node and sets its status.
func (t *topicRun) steps(ctx context.Context, n *tree.Node, lin lineage) {
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted)
		return
	}
	all := make([]int, len(t.debaters))
	for i := range all {
		all[i] = i
	}
	posed := t.debaterStep(ctx, n, tree.StepPosition, all, n.Positions, func(i int) ([]prompts.Message, error) {
		return t.position(n, lin, i)
	})
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted)
		return
	}
	if len(posed) == 0 {
		t.stop(ctx, n, tree.Failed, tree.Because(tree.NoPositions))
		return
	}
	if t.e.opt.PositionsOnly {
		t.posedOnly(ctx, n, posed)
		return
	}
	rebutted := t.debaterStep(ctx, n, tree.StepRebuttal, posed, n.Rebuttals, func(i int) ([]prompts.Message, error) {
		return t.e.p.Rebuttal(t.rebuttal(n, posed, i))
	})
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted)
		return
	}
	if len(rebutted) == 0 {
		t.stop(ctx, n, tree.Failed, tree.Because(tree.NoRebuttals))
		return
	}
	n.Missing = t.absences(n, posed, rebutted)
	t.decide(ctx, n, posed)
}

// posedOnly ends a node of a positions-only run after its position step:
// converged when every debater answered, partial otherwise.
func (t *topicRun) posedOnly(ctx context.Context, n *tree.Node, posed []int) {
	n.Missing = t.absences(n, posed, posed)
	if len(n.Missing) == 0 {
		t.stop(ctx, n, tree.Converged, tree.Because(tree.PositionsOnlyAll))
		return
	}
	t.stop(ctx, n, tree.Partial, tree.Because(tree.PositionsOnlySome, len(posed), len(t.debaters)))
}

// absences lists, in config order, the debaters missing from the position
// step (not in posed) or the rebuttal step (not in rebutted), each with its
// last error at that step.
func (t *topicRun) absences(n *tree.Node, posed, rebutted []int) []tree.Absence {
	var out []tree.Absence
	for i, m := range t.debaters {
		step := tree.StepPosition
		switch {
		case !slices.Contains(posed, i):
		case !slices.Contains(rebutted, i):
			step = tree.StepRebuttal
		default:
			continue
		}
		a := tree.Absence{Participant: m.p.ID, Step: step, Reason: "no answer", Because: []tree.Reason{tree.Because(tree.NoAnswer)}}
		for _, e := range n.Errors {
			if e.Participant == m.p.ID && e.Step == step {
				a.Reason, a.Because = e.Message, e.Because
			}
		}
		out = append(out, a)
	}
	return out
}

// agreed ends a node whose judge found no divergence: converged when every
// debater took part, partial otherwise, naming who was missing.
func (t *topicRun) agreed(ctx context.Context, n *tree.Node) {
	if len(n.Missing) == 0 {
		t.stop(ctx, n, tree.Converged, tree.Because(tree.AllAgreed))
		return
	}
	names := make([]string, len(n.Missing))
	for i, a := range n.Missing {
		for _, m := range t.debaters {
			if m.p.ID == a.Participant {
				names[i] = name(party(m.p))
			}
		}
	}
	t.stop(ctx, n, tree.Partial, tree.Because(tree.NoDivergenceAmong), tree.Because(tree.MissingDebaters, anys(names)...))
}

// debaterStep calls the debaters at indices who for one step, at once or one
// after the other as configured, and records their answers in into (by
// debater id), their models, and their errors in config order. It returns the
// indices of the debaters that answered.
func (t *topicRun) debaterStep(ctx context.Context, n *tree.Node, step tree.Step, who []int, into map[string]string, build func(i int) ([]prompts.Message, error)) []int {
	type answer struct {
		text, reasoning, model, finish string
		cut                            bool
		err                            error
	}
	answers := make([]answer, len(who))
	one := func(k int) {
		m := t.debaters[who[k]]
		pm, err := build(who[k])
		if err != nil {
			answers[k].err = fmt.Errorf("build %s prompt: %w", step, err)
			return
		}
		resp, model, err := t.r.call(ctx, call{node: n.ID, step: step, who: m, msgs: messages(pm)})
		answers[k] = answer{text: resp.Text, reasoning: resp.Reasoning, model: model, finish: resp.FinishReason, cut: resp.Cut(), err: err}
	}
	if p := firstPanic(each(len(who), t.e.cfg.ParallelCalls(), one)); p != nil {
		panic(p) // the node fails with it
	}
	models := n.Models // the model credited with each text of this step
	if step == tree.StepRebuttal {
		models = n.RebuttalModels
	}
	var ok []int
	for k, a := range answers {
		id := t.debaters[who[k]].p.ID
		switch {
		case a.err == nil:
			into[id] = a.text
			t.recordQuotes(n, id, step, a.text)
			models[id] = a.model
			n.SetReasoning(id, step, a.reasoning)
			if a.finish != "" && a.finish != "stop" && !a.cut {
				n.Finishes = append(n.Finishes, tree.Finish{Participant: id, Step: step, Reason: a.finish})
			}
			if a.cut {
				msg, why := t.e.opt.Say.said(t.cutWarning())
				n.Warnings = append(n.Warnings, tree.Warning{Participant: id, Step: step, Message: msg, Because: why})
			}
			ok = append(ok, who[k])
		case ctx.Err() == nil:
			n.Errors = append(n.Errors, nodeError(id, step, a.err))
		}
	}
	return ok
}

// position builds debater i's position prompt: the root prompt, or a child
// prompt for a debater on one of the divergence's sides or for one that took
// no side.
func (t *topicRun) position(n *tree.Node, lin lineage, i int) ([]prompts.Message, error) {
	me := t.debaters[i].p
	if n.Divergence == nil {
		var parties []prompts.Party
		for _, k := range t.byAlias() {
			parties = append(parties, t.party(k))
		}
		shared := t.e.cfg.Documents(t.topic)
		docs := make([]prompts.Document, len(shared))
		for k, d := range shared {
			docs[k] = prompts.Document{Path: d.Path, Content: d.Content}
		}
		return t.e.p.RootPosition(prompts.RootPosition{
			Party:         t.party(i),
			Parties:       parties,
			Documents:     docs,
			Inline:        t.e.cfg.Inline(t.topic),
			Title:         t.topic.Title,
			Background:    t.topic.Background,
			Annotations:   t.topic.Annotations,
			CoreQuestions: t.topic.CoreQuestions,
			Quotes:        t.quoting(),
			Repository:    t.repository(),
		})
	}
	sides, uninvolved := t.sides(n.Divergence, t.shuffle(t.all(), n.ID, tree.StepPosition, me.ID), t.party)
	return t.e.p.ChildPosition(prompts.ChildPosition{
		Party:            t.party(i),
		Involved:         hasKey(n.Divergence.Sides, me.ID),
		RootTitle:        t.topic.Title,
		Path:             lin.path,
		Title:            n.Title,
		Sides:            sides,
		Uninvolved:       uninvolved,
		PreviousPosition: lin.positions[me.ID],
		PreviousRebuttal: lin.rebuttals[me.ID],
		Quotes:           t.quoting(),
		Repository:       t.repository(),
	})
}

// rebuttal is debater i's rebuttal data: its own position and those of the
// other debaters that answered, in the order drawn for i at this node.
func (t *topicRun) rebuttal(n *tree.Node, posed []int, i int) prompts.Rebuttal {
	me := t.debaters[i].p
	r := prompts.Rebuttal{Party: t.party(i), Title: n.Title, Own: n.Positions[me.ID], Quotes: t.quoting(), Repository: t.repository()}
	for _, k := range t.shuffle(posed, n.ID, tree.StepRebuttal, me.ID) {
		if k == i {
			continue
		}
		o := t.debaters[k].p
		r.Others = append(r.Others, prompts.PartyText{Party: t.party(k), Text: t.shown(n.Positions[o.ID])})
	}
	return r
}

// all returns the indices of every debater, in config order.
func (t *topicRun) all() []int {
	out := make([]int, len(t.debaters))
	for i := range out {
		out[i] = i
	}
	return out
}

// sides returns a divergence's sides and every debater on none of them
// (listed as uninvolved or not named at all), both in the order of the
// debater indices order, each debater named by as.
func (t *topicRun) sides(d *tree.Divergence, order []int, as func(int) prompts.Party) ([]prompts.Side, []prompts.Party) {
	var sides []prompts.Side
	var uninvolved []prompts.Party
	for _, i := range order {
		if claim, ok := d.Sides[t.debaters[i].p.ID]; ok {
			sides = append(sides, prompts.Side{Party: as(i), Claim: claim})
		} else {
			uninvolved = append(uninvolved, as(i))
		}
	}
	return sides, uninvolved
}

// named returns debater i by its own id and label, as reports show it.
func (t *topicRun) named(i int) prompts.Party { return party(t.debaters[i].p) }

// sidesText renders a divergence's sides as a child node's context.
func (t *topicRun) sidesText(d *tree.Divergence) string {
	sides, uninvolved := t.sides(d, t.all(), t.named)
	var b strings.Builder
	for _, s := range sides {
		fmt.Fprintf(&b, "- %s: %s\n", name(s.Party), s.Claim)
	}
	if len(uninvolved) > 0 {
		names := make([]string, len(uninvolved))
		for i, p := range uninvolved {
			names[i] = name(p)
		}
		fmt.Fprintf(&b, "- no clear side: %s\n", strings.Join(names, ", "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func name(p prompts.Party) string {
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

// decide asks the judge about node n and ends it: converged, forced, failed,
// or split with its children made.
func (t *topicRun) decide(ctx context.Context, n *tree.Node, posed []int) {
	e := t.e
	data := prompts.Judge{
		RootTitle:      t.topic.Title,
		Annotations:    t.topic.Annotations,
		Title:          n.Title,
		PartyIDs:       t.shownIDs(),
		Round:          n.Round,
		MaxRounds:      e.maxRounds,
		MaxDivergences: e.cfg.Params.MaxDivergences,
		Favors:         t.blind() || t.voting(),
		Quotes:         t.quoting(),
	}
	if n.Divergence == nil {
		data.Context = n.Context
	}
	reason, forced := tree.Because(tree.RoundLimit, e.maxRounds), n.Round >= e.maxRounds
	if !forced && e.overBudget() {
		reason, forced = e.budgetReason(), true
		data.BudgetSpent, n.Budget = true, true
	}
	if !t.judgeNode(ctx, n, data, posed, forced) {
		return
	}
	j := n.Judgment
	switch {
	case len(j.Divergences) == 0:
		t.agreed(ctx, n)
	case forced:
		t.stop(ctx, n, tree.Forced, append([]tree.Reason{reason}, missingNote(j)...)...)
	case e.overBudget():
		// The budget ran out while this node ran: no child is opened, the
		// judge forces verdicts on what it just found disputed.
		data.BudgetSpent = true
		if t.judgeNode(ctx, n, data, posed, true) {
			if len(n.Judgment.Divergences) == 0 {
				t.agreed(ctx, n)
			} else {
				n.Budget = true
				t.stop(ctx, n, tree.Forced, append([]tree.Reason{e.budgetReason()}, missingNote(n.Judgment)...)...)
			}
		}
	default:
		t.split(ctx, n)
	}
}

// split opens a child debate for each of the judgment's divergences, up to
// params.maxDivergences; those beyond the limit are recorded at n as forced
// verdicts marked over the limit, and the stop reason counts them.
func (t *topicRun) split(ctx context.Context, n *tree.Node) {
	j := n.Judgment
	open := j.Divergences
	limit := t.e.cfg.Params.MaxDivergences
	if limit > 0 && len(open) > limit {
		open = open[:limit]
		for _, d := range j.Divergences[limit:] {
			j.ForcedVerdicts = append(j.ForcedVerdicts, tree.Verdict{DivergenceID: d.ID, OverLimit: true})
		}
	}
	for _, d := range open {
		c := tree.NewNode(d.ID, d.Title, "")
		c.Divergence = &d
		c.Context = t.sidesText(c.Divergence)
		n.Children = append(n.Children, c)
	}
	reason := tree.Because(tree.SplitInto, len(open))
	if over := len(j.Divergences) - len(open); over > 0 {
		reason = tree.Because(tree.SplitOverLimit, len(j.Divergences), len(open), over, limit)
	}
	t.stop(ctx, n, tree.Split, reason)
}

// missingNote says how many of a judgment's verdicts are missing, if any.
func missingNote(j *tree.Judgment) []tree.Reason {
	n := 0
	for _, v := range j.ForcedVerdicts {
		if v.Missing {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []tree.Reason{tree.Because(tree.VerdictsMissing, n)}
}

// readerData completes the judge data base for one reader at node n: the
// divergence's sides (for a child node) and the entries of the debaters
// posed, in the order order.
func (t *topicRun) readerData(base prompts.Judge, n *tree.Node, posed, order []int) prompts.Judge {
	data := base
	if n.Divergence != nil {
		// A child's context is its divergence's sides, given as such.
		data.Sides, _ = t.sides(n.Divergence, t.inOrder(t.all(), order), t.party)
	}
	data.Entries = nil
	for _, i := range t.inOrder(posed, order) {
		m := t.debaters[i].p
		data.Entries = append(data.Entries, prompts.Entry{Party: t.party(i), Position: t.shown(n.Positions[m.ID]), Rebuttal: t.shown(n.Rebuttals[m.ID])})
	}
	return data
}

// readIDs returns the ids of the debaters posed in the order order.
func (t *topicRun) readIDs(posed, order []int) []string {
	var out []string
	for _, i := range t.inOrder(posed, order) {
		out = append(out, t.debaters[i].p.ID)
	}
	return out
}

// judgeNode asks the panel's chair for n's judgment and records it with the
// program's divergence ids; a chair that fails, even on its fallback, hands
// the call to the next judge. Forced verdicts are then put to the panel's
// vote when it votes. When no judge answers it ends the node and returns
// false.
func (t *topicRun) judgeNode(ctx context.Context, n *tree.Node, base prompts.Judge, posed []int, forced bool) bool {
	var failed []error // the failure of each judge before the one that answered
	for k, m := range t.judges {
		order := t.shuffle(t.all(), n.ID, tree.StepJudge, m.p.ID)
		got := t.judgment(ctx, m, n.ID, t.readerData(base, n, posed, order), forced)
		if ctx.Err() != nil {
			t.stop(ctx, n, tree.Interrupted)
			return false
		}
		if got.err != nil {
			n.RawJudgment = got.raw
			n.Errors = append(n.Errors, nodeError(m.p.ID, tree.StepJudge, got.err))
			failed = append(failed, got.err)
			continue
		}
		j := got.judgment
		t.unalias(j)
		renumber(j, n.ID)
		for i, v := range j.ForcedVerdicts {
			if v.Favors != "" && v.Favors != favorsNone {
				j.ForcedVerdicts[i].Read = t.readIDs(posed, order)
			}
		}
		n.Judgment = j
		n.RawJudgment = ""
		n.Models[m.p.ID] = got.model
		n.SetReasoning(m.p.ID, tree.StepJudge, got.reasoning)
		if forced && t.voting() {
			t.vote(ctx, n, base, posed, ballot{chair: k, model: got.model, order: order, failed: failed})
		}
		return true
	}
	why := reasonOf(failed[len(failed)-1])
	if len(t.judges) > 1 {
		why = append([]tree.Reason{tree.Because(tree.NoJudgeOfPanel)}, why...)
	}
	t.stop(ctx, n, tree.Failed, why...)
	return false
}

// judged is what asking a judge for a node's judgment came to: the reading
// of the answer used (its judgment, the verdicts it misses, or the error),
// the model that gave it or failed last, the last answer received and the
// reasoning that came with the answer used.
type judged struct {
	reading
	model, raw, reasoning string
}

// judgment asks the judge for a triage (or forced verdicts) and returns it
// validated. An invalid answer is sent back once for repair. When the
// repaired answer is still invalid, a forced-verdict answer whose only fault
// is missing verdicts is kept with those verdicts marked missing; otherwise
// the judge switches to its fallback for the rest of the topic, which gets
// the original prompt once. An answer cut at the token limit is asked again
// once with a larger limit (reaskCut).
func (t *topicRun) judgment(ctx context.Context, judge *member, node string, data prompts.Judge, forced bool) judged {
	build := t.e.p.Triage
	if forced {
		build = t.e.p.ForcedVerdict
	}
	pm, err := build(data)
	if err != nil {
		return judged{reading: reading{err: fmt.Errorf("build judge prompt: %w", err)}}
	}
	c := call{node: node, step: tree.StepJudge, who: judge, msgs: messages(pm), json: true, schema: judgmentSchema(forced, data.PartyIDs), reaskCut: true}
	var last, partial reading // the last reading, and the first whose only fault is missing verdicts
	sent := quotesOf(c.msgs)
	check := func(s string) error {
		last = parseJudgment(s, sent, forced, data.PartyIDs)
		if last.err != nil && last.usable() && !partial.usable() {
			partial = last
		}
		return last.err
	}
	resp, model, err := t.r.call(ctx, c)
	if err != nil {
		return judged{reading: reading{err: fmt.Errorf("judge call failed: %w", err)}, model: model}
	}
	out := judged{model: model, raw: resp.Text, reasoning: resp.Reasoning}
	problem := check(out.raw)
	if problem == nil {
		out.reading = last
		return out
	}
	resp, m, problem := t.r.repair(ctx, c, t.e.p.Repair, resp, problem, check)
	out.raw, out.reasoning, out.model = resp.Text, resp.Reasoning, cmp.Or(m, model)
	switch {
	case problem == nil:
		out.reading = last
		return out
	case ctx.Err() != nil:
		return judged{reading: reading{err: ctx.Err()}, model: out.model, raw: out.raw}
	case partial.usable():
		out.reading = keepConsensus(partial)
		return out
	case !t.r.switchTo(c, reasonOf(problem)...):
		return judged{reading: reading{err: fmt.Errorf("judge %w", problem)}, model: out.model, raw: out.raw}
	}
	resp, model, err = t.r.call(ctx, c)
	if err != nil {
		return judged{reading: reading{err: fmt.Errorf("judge %w; fallback %s failed too: %w", problem, model, err)}, model: model, raw: out.raw}
	}
	out = judged{model: model, raw: resp.Text, reasoning: resp.Reasoning}
	if err := check(out.raw); err != nil {
		if partial.usable() {
			out.reading = keepConsensus(partial)
			return out
		}
		return judged{reading: reading{err: fmt.Errorf("judge %w; fallback %s answer invalid: %w", problem, model, err)}, model: model, raw: out.raw}
	}
	out.reading = last
	return out
}

// keepConsensus completes the judgment of a reading whose only fault is
// missing verdicts: each divergence without one gets a verdict marked
// missing, and the reading is then usable as it is.
func keepConsensus(r reading) reading {
	return reading{judgment: markMissing(r.judgment), missing: r.missing}
}

// markMissing gives each divergence of j without a verdict one marked
// missing.
func markMissing(j *tree.Judgment) *tree.Judgment {
	decided := map[string]bool{}
	for _, v := range j.ForcedVerdicts {
		decided[v.DivergenceID] = true
	}
	for _, d := range j.Divergences {
		if !decided[d.ID] {
			j.ForcedVerdicts = append(j.ForcedVerdicts, tree.Verdict{DivergenceID: d.ID, Missing: true})
		}
	}
	return j
}

// synthesize asks the judge for the topic's conclusion from every consensus
// point and verdict of the tree. A failure is logged and leaves it empty.
func (t *topicRun) synthesize(ctx context.Context, root *tree.Node) string {
	data := prompts.Synthesis{Title: t.topic.Title, Background: t.topic.Background, Annotations: t.topic.Annotations}
	for _, p := range root.AllConsensus() {
		data.Consensus = append(data.Consensus, prompts.Point{Point: p.Point, Detail: p.Detail})
	}
	for _, v := range root.AllVerdicts() {
		data.Verdicts = append(data.Verdicts, prompts.VerdictPoint{Divergence: v.Divergence.Title, Recommendation: shownRecommendation(v.Verdict), Reasoning: v.Reasoning})
	}
	pm, err := t.e.p.Synthesis(data)
	if err != nil {
		t.e.log.Error("synthesis prompt", "topic", t.topic.ID, "err", err)
		return ""
	}
	resp, _, err := t.r.call(ctx, call{node: root.ID, step: tree.StepSynthesis, who: t.judge, msgs: messages(pm), reaskCut: true})
	if err != nil {
		t.e.log.Warn("synthesis failed", "topic", t.topic.ID, "err", err)
		return ""
	}
	return resp.Text
}

// shownRecommendation is a verdict's recommendation, or for a split verdict
// each side's, one per line.
func shownRecommendation(v tree.Verdict) string {
	if !v.Split {
		return v.Recommendation
	}
	var recs []string
	for _, x := range v.Votes {
		if x.Status == tree.VoteCounted && !slices.Contains(recs, x.Recommendation) {
			recs = append(recs, x.Recommendation)
		}
	}
	return strings.Join(recs, "\n")
}

// edits asks the judge, once per run, for concrete edits to the shared
// documents from every topic's conclusion. It is skipped without documents
// or conclusions; a failure is logged and leaves it empty.
func (e *Engine) edits(ctx context.Context, run *tree.Run) (string, map[string]tree.Usage) {
	if !e.cfg.Synthesis() || len(e.cfg.SharedContext.Documents) == 0 || ctx.Err() != nil {
		return "", nil
	}
	var data prompts.Edits
	for _, d := range e.cfg.SharedContext.Documents {
		data.Documents = append(data.Documents, prompts.Document{Path: d.Path, Content: d.Content})
	}
	for _, t := range run.Topics {
		if t.Synthesis != "" {
			data.Topics = append(data.Topics, prompts.TopicConclusion{ID: t.ID, Title: t.Title, Conclusion: t.Synthesis})
		}
	}
	if len(data.Topics) == 0 {
		return "", nil
	}
	pm, err := e.p.Edits(data)
	if err != nil {
		e.log.Error("edits prompt", "err", err)
		return "", nil
	}
	// The edits call belongs to no topic: it gets a roster of its own, so it
	// starts on the judge's primary model and may fall back.
	r := e.newRoster("")
	resp, _, err := r.call(ctx, call{step: tree.StepEdits, who: r.add(e.judge), msgs: messages(pm), reaskCut: true})
	u := r.book.priced(e.cfg.Pricing)
	if err != nil {
		e.log.Warn("edits failed", "err", err)
		return "", u
	}
	return resp.Text, u
}
