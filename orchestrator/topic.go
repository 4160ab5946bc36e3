package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/tree"
)

// topicRun is the state of one topic while its tree runs: the participants'
// fallback state, shared by all of the topic's nodes, and its usage.
type topicRun struct {
	e     *Engine
	topic configs.Topic
	book  usageBook

	mu        sync.Mutex // guards the members' counters and fallbacks
	debaters  []*member  // in config order
	judge     *member
	members   []*member // debaters then the judge
	fallbacks []tree.Fallback
}

func (e *Engine) newTopicRun(t configs.Topic) *topicRun {
	tr := &topicRun{e: e, topic: t}
	for i, d := range e.debaters {
		m := &member{p: d, order: i, probe: make(chan struct{}, 1)}
		tr.debaters = append(tr.debaters, m)
		tr.members = append(tr.members, m)
	}
	tr.judge = &member{p: e.judge, order: len(e.debaters), probe: make(chan struct{}, 1)}
	tr.members = append(tr.members, tr.judge)
	return tr
}

// runTopic runs one topic's whole tree and, when asked for, its synthesis.
func (e *Engine) runTopic(ctx context.Context, ct configs.Topic) tree.Topic {
	tr := e.newTopicRun(ct)
	started := e.opt.Now()
	e.emit(tree.Event{Kind: tree.TopicStarted, Topic: ct.ID})
	root := tree.NewNode(tree.RootID, ct.Title, ct.Background)
	e.emit(tree.Event{Kind: tree.NodeStarted, Topic: ct.ID, Node: root.ID})
	tr.runNode(ctx, root, lineage{})
	out := tree.Topic{
		ID: ct.ID, Title: ct.Title, Background: ct.Background,
		Annotations: ct.Annotations, CoreQuestions: ct.CoreQuestions,
		Root: root, Status: root.Summarize(),
	}
	if e.cfg.Synthesis() && root.Judgment != nil && root.Status != tree.Failed && ctx.Err() == nil {
		out.Synthesis = tr.synthesize(ctx, root)
	}
	out.Fallbacks = tr.sortedFallbacks()
	out.Usage = tr.book.total(e.cfg.Pricing)
	out.StartedAt, out.FinishedAt = started, e.opt.Now()
	e.log.Info("topic finished", "topic", ct.ID, "status", out.Status, "nodes", root.Stats().Nodes, "tokens", out.Usage.Total())
	e.emit(tree.Event{Kind: tree.TopicFinished, Topic: ct.ID, Status: out.Status, Usage: out.Usage})
	return out
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
// when the whole subtree has ended.
func (t *topicRun) runNode(ctx context.Context, n *tree.Node, lin lineage) {
	t.steps(ctx, n, lin)
	if n.Status == tree.Pending {
		t.stop(ctx, n, tree.Failed, "node ended without a status")
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
	var wg sync.WaitGroup
	for _, c := range n.Children {
		wg.Go(func() { t.runNode(ctx, c, next) })
	}
	wg.Wait()
}

func errText(n *tree.Node) string {
	if n.Status == tree.Failed {
		return n.StopReason
	}
	return ""
}

// stop ends a node with status and reason. When ctx has ended, a node that
// would fail or is still open is interrupted instead; one that reached an
// outcome (converged, forced, split) keeps it.
func (t *topicRun) stop(ctx context.Context, n *tree.Node, s tree.Status, reason string) {
	if err := ctx.Err(); err != nil && s != tree.Converged && s != tree.Forced && s != tree.Split {
		s, reason = tree.Interrupted, interruption(ctx)
	}
	n.Status, n.StopReason = s, reason
}

// interruption says in words why ctx ended.
func interruption(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return "interrupted: deadline exceeded"
	}
	return "interrupted by the user"
}

// steps runs position, rebuttal and judge for one node and sets its status.
func (t *topicRun) steps(ctx context.Context, n *tree.Node, lin lineage) {
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted, "")
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
		t.stop(ctx, n, tree.Interrupted, "")
		return
	}
	if len(posed) == 0 {
		t.stop(ctx, n, tree.Failed, "no debater answered the position step")
		return
	}
	rebutted := t.debaterStep(ctx, n, tree.StepRebuttal, posed, n.Rebuttals, func(i int) ([]prompts.Message, error) {
		return t.e.p.Rebuttal(t.rebuttal(n, posed, i))
	})
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted, "")
		return
	}
	if len(rebutted) == 0 {
		t.stop(ctx, n, tree.Failed, "no debater answered the rebuttal step")
		return
	}
	t.decide(ctx, n, posed)
}

// debaterStep calls the debaters at indices who for one step, at once or one
// after the other as configured, and records their answers in into (by
// debater id), their models, and their errors in config order. It returns the
// indices of the debaters that answered.
func (t *topicRun) debaterStep(ctx context.Context, n *tree.Node, step tree.Step, who []int, into map[string]string, build func(i int) ([]prompts.Message, error)) []int {
	type answer struct {
		text, model string
		err         error
	}
	answers := make([]answer, len(who))
	one := func(k int) {
		m := t.debaters[who[k]]
		pm, err := build(who[k])
		if err != nil {
			answers[k].err = fmt.Errorf("build %s prompt: %w", step, err)
			return
		}
		resp, model, err := t.call(ctx, call{node: n.ID, step: step, who: m, msgs: messages(pm)})
		answers[k] = answer{text: resp.Text, model: model, err: err}
	}
	if t.e.cfg.ParallelCalls() {
		var wg sync.WaitGroup
		for k := range who {
			wg.Go(func() { one(k) })
		}
		wg.Wait()
	} else {
		for k := range who {
			one(k)
		}
	}
	var ok []int
	for k, a := range answers {
		id := t.debaters[who[k]].p.ID
		switch {
		case a.err == nil:
			into[id] = a.text
			n.Models[id] = a.model
			ok = append(ok, who[k])
		case ctx.Err() == nil:
			n.Errors = append(n.Errors, tree.NodeError{Participant: id, Step: step, Message: a.err.Error()})
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
		docs := make([]prompts.Document, len(t.e.cfg.SharedContext.Documents))
		for k, d := range t.e.cfg.SharedContext.Documents {
			docs[k] = prompts.Document{Path: d.Path, Content: d.Content}
		}
		return t.e.p.RootPosition(prompts.RootPosition{
			Party:         party(me),
			Parties:       t.parties(),
			Documents:     docs,
			Inline:        t.e.cfg.SharedContext.Inline,
			Title:         t.topic.Title,
			Background:    t.topic.Background,
			Annotations:   t.topic.Annotations,
			CoreQuestions: t.topic.CoreQuestions,
		})
	}
	sides, uninvolved := t.sides(n.Divergence)
	return t.e.p.ChildPosition(prompts.ChildPosition{
		Party:            party(me),
		Involved:         hasKey(n.Divergence.Sides, me.ID),
		RootTitle:        t.topic.Title,
		Path:             lin.path,
		Title:            n.Title,
		Sides:            sides,
		Uninvolved:       uninvolved,
		PreviousPosition: lin.positions[me.ID],
		PreviousRebuttal: lin.rebuttals[me.ID],
	})
}

// rebuttal is debater i's rebuttal data: its own position and those of the
// other debaters that answered, in config order.
func (t *topicRun) rebuttal(n *tree.Node, posed []int, i int) prompts.Rebuttal {
	me := t.debaters[i].p
	r := prompts.Rebuttal{Party: party(me), Title: n.Title, Own: n.Positions[me.ID]}
	for _, k := range posed {
		if k == i {
			continue
		}
		o := t.debaters[k].p
		r.Others = append(r.Others, prompts.PartyText{Party: party(o), Text: n.Positions[o.ID]})
	}
	return r
}

func (t *topicRun) parties() []prompts.Party {
	out := make([]prompts.Party, len(t.debaters))
	for i, m := range t.debaters {
		out[i] = party(m.p)
	}
	return out
}

func (t *topicRun) partyIDs() []string {
	out := make([]string, len(t.debaters))
	for i, m := range t.debaters {
		out[i] = m.p.ID
	}
	return out
}

// sides returns a divergence's sides in config order and every debater on
// none of them (listed as uninvolved or not named at all).
func (t *topicRun) sides(d *tree.Divergence) ([]prompts.Side, []prompts.Party) {
	var sides []prompts.Side
	var uninvolved []prompts.Party
	for _, m := range t.debaters {
		if claim, ok := d.Sides[m.p.ID]; ok {
			sides = append(sides, prompts.Side{Party: party(m.p), Claim: claim})
		} else {
			uninvolved = append(uninvolved, party(m.p))
		}
	}
	return sides, uninvolved
}

// sidesText renders a divergence's sides as a child node's context.
func (t *topicRun) sidesText(d *tree.Divergence) string {
	sides, uninvolved := t.sides(d)
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
		RootTitle:   t.topic.Title,
		Annotations: t.topic.Annotations,
		Title:       n.Title,
		PartyIDs:    t.partyIDs(),
		Round:       n.Round,
		MaxRounds:   e.maxRounds,
	}
	if n.Divergence == nil {
		data.Context = n.Context
	} else {
		// A child's context is its divergence's sides, given as such.
		data.Sides, _ = t.sides(n.Divergence)
	}
	for _, i := range posed {
		m := t.debaters[i].p
		data.Entries = append(data.Entries, prompts.Entry{Party: party(m), Position: n.Positions[m.ID], Rebuttal: n.Rebuttals[m.ID]})
	}
	budgetReason := fmt.Sprintf("budget of %d tokens reached: verdicts forced", e.cfg.Budget.MaxTokens)
	reason, forced := fmt.Sprintf("round limit %d reached: verdicts forced", e.maxRounds), n.Round >= e.maxRounds
	if !forced && e.overBudget() {
		reason, forced = budgetReason, true
		data.BudgetSpent = true
	}
	if !t.judgeNode(ctx, n, data, forced) {
		return
	}
	j := n.Judgment
	switch {
	case len(j.Divergences) == 0:
		t.stop(ctx, n, tree.Converged, "all debaters agreed")
	case forced:
		t.stop(ctx, n, tree.Forced, reason)
	case e.overBudget():
		// The budget ran out while this node ran: no child is opened, the
		// judge forces verdicts on what it just found disputed.
		data.BudgetSpent = true
		if t.judgeNode(ctx, n, data, true) {
			if len(n.Judgment.Divergences) == 0 {
				t.stop(ctx, n, tree.Converged, "all debaters agreed")
			} else {
				t.stop(ctx, n, tree.Forced, budgetReason)
			}
		}
	default:
		for _, d := range j.Divergences {
			c := tree.NewNode(d.ID, d.Title, "")
			c.Divergence = &d
			c.Context = t.sidesText(c.Divergence)
			n.Children = append(n.Children, c)
		}
		t.stop(ctx, n, tree.Split, fmt.Sprintf("%d divergences: split into child debates", len(j.Divergences)))
	}
}

// judgeNode makes the judge's call for n and records the judgment with the
// program's divergence ids. On failure it ends the node and returns false.
func (t *topicRun) judgeNode(ctx context.Context, n *tree.Node, data prompts.Judge, forced bool) bool {
	j, model, raw, err := t.judgment(ctx, n.ID, data, forced)
	if ctx.Err() != nil {
		t.stop(ctx, n, tree.Interrupted, "")
		return false
	}
	if err != nil {
		n.RawJudgment = raw
		n.Errors = append(n.Errors, tree.NodeError{Participant: t.judge.p.ID, Step: tree.StepJudge, Message: err.Error()})
		t.stop(ctx, n, tree.Failed, err.Error())
		return false
	}
	renumber(j, n.ID)
	n.Judgment = j
	n.RawJudgment = ""
	n.Models[t.judge.p.ID] = model
	return true
}

// judgment asks the judge for a triage (or forced verdicts) and returns it
// validated. An invalid answer is sent back once for repair; when that fails
// too, or the call failed, the judge's fallback model gets the original
// prompt once, unless it is already in use. raw is the last answer received.
func (t *topicRun) judgment(ctx context.Context, node string, data prompts.Judge, forced bool) (j *tree.Judgment, model, raw string, err error) {
	build := t.e.p.Triage
	if forced {
		build = t.e.p.ForcedVerdict
	}
	pm, err := build(data)
	if err != nil {
		return nil, "", "", fmt.Errorf("build judge prompt: %w", err)
	}
	msgs := messages(pm)
	c := call{node: node, step: tree.StepJudge, who: t.judge, msgs: msgs, json: true}
	resp, model, err := t.call(ctx, c)
	var problem error
	if err != nil {
		problem = fmt.Errorf("judge call failed: %w", err)
	} else {
		raw = resp.Text
		j, problem = parseJudgment(raw, forced, data.PartyIDs)
		if problem == nil {
			return j, model, raw, nil
		}
		problem = t.repair(ctx, c, model, &raw, &j, problem, forced, data.PartyIDs)
		if problem == nil {
			return j, model, raw, nil
		}
	}
	if ctx.Err() != nil {
		return nil, model, raw, ctx.Err()
	}
	if fb := t.judge.p.Fallback; fb != "" && fb != model {
		c.model = fb
		resp, _, err := t.call(ctx, c)
		if err != nil {
			return nil, model, raw, fmt.Errorf("%w; fallback %s failed too: %w", problem, fb, err)
		}
		raw = resp.Text
		j, err := parseJudgment(raw, forced, data.PartyIDs)
		if err != nil {
			return nil, fb, raw, fmt.Errorf("%w; fallback %s answer invalid: %w", problem, fb, err)
		}
		return j, fb, raw, nil
	}
	return nil, model, raw, problem
}

// repair sends an invalid answer back to the model that gave it, with the
// problem, once. It updates raw and j and returns nil when the new answer is
// valid.
func (t *topicRun) repair(ctx context.Context, c call, model string, raw *string, j **tree.Judgment, problem error, forced bool, parties []string) error {
	pm, err := t.e.p.Repair(prompts.Repair{Previous: *raw, Error: problem.Error()})
	if err != nil {
		return fmt.Errorf("judge answer invalid (%w) and no repair prompt: %w", problem, err)
	}
	c.msgs = append(c.msgs[:len(c.msgs):len(c.msgs)], messages(pm)...)
	c.model = model
	resp, _, err := t.call(ctx, c)
	if err != nil {
		return fmt.Errorf("judge answer invalid (%w) and the repair call failed: %w", problem, err)
	}
	*raw = resp.Text
	fixed, err := parseJudgment(*raw, forced, parties)
	if err != nil {
		return fmt.Errorf("judge answer invalid after repair: %w", err)
	}
	*j = fixed
	return nil
}

// synthesize asks the judge for the topic's conclusion from every consensus
// point and verdict of the tree. A failure is logged and leaves it empty.
func (t *topicRun) synthesize(ctx context.Context, root *tree.Node) string {
	data := prompts.Synthesis{Title: t.topic.Title, Background: t.topic.Background, Annotations: t.topic.Annotations}
	for _, p := range root.AllConsensus() {
		data.Consensus = append(data.Consensus, prompts.Point{Point: p.Point, Detail: p.Detail})
	}
	for _, v := range root.AllVerdicts() {
		data.Verdicts = append(data.Verdicts, prompts.VerdictPoint{Divergence: v.Divergence.Title, Recommendation: v.Recommendation, Reasoning: v.Reasoning})
	}
	pm, err := t.e.p.Synthesis(data)
	if err != nil {
		t.e.log.Error("synthesis prompt", "topic", t.topic.ID, "err", err)
		return ""
	}
	resp, _, err := t.call(ctx, call{node: root.ID, step: tree.StepSynthesis, who: t.judge, msgs: messages(pm)})
	if err != nil {
		t.e.log.Warn("synthesis failed", "topic", t.topic.ID, "err", err)
		return ""
	}
	return resp.Text
}

// edits asks the judge, once per run, for concrete edits to the shared
// documents from every topic's conclusion. It is skipped without documents
// or conclusions; a failure is logged and leaves it empty.
func (e *Engine) edits(ctx context.Context, run *tree.Run) (string, tree.Usage) {
	if !e.cfg.Synthesis() || len(e.cfg.SharedContext.Documents) == 0 || ctx.Err() != nil {
		return "", tree.Usage{}
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
		return "", tree.Usage{}
	}
	pm, err := e.p.Edits(data)
	if err != nil {
		e.log.Error("edits prompt", "err", err)
		return "", tree.Usage{}
	}
	// The edits call belongs to no topic: it gets a fresh judge state, so it
	// starts on the primary model and may fall back once.
	tr := e.newTopicRun(configs.Topic{})
	resp, model, err := tr.call(ctx, call{step: tree.StepEdits, who: tr.judge, msgs: messages(pm)})
	if err != nil && ctx.Err() == nil && tr.judge.p.Fallback != "" && model != tr.judge.p.Fallback {
		resp, _, err = tr.call(ctx, call{step: tree.StepEdits, who: tr.judge, msgs: messages(pm), model: tr.judge.p.Fallback})
	}
	u := tr.book.total(e.cfg.Pricing)
	if err != nil {
		e.log.Warn("edits failed", "err", err)
		return "", u
	}
	return resp.Text, u
}
