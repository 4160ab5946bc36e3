package orchestrator

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/tree"
)

// voting reports whether forced verdicts are put to the panel's vote: a
// panel of more than one judge, recusal, or the order check.
func (t *topicRun) voting() bool {
	return len(t.judges) > 1 || t.e.cfg.Params.Recuse || t.swap()
}

// swap reports whether each judge is asked again with the sides reversed.
func (t *topicRun) swap() bool { return t.e.cfg.Params.VerdictCheck == configs.VerdictCheckSwap }

// ballot is what the vote on a node's forced verdicts starts from: which
// judge chaired (answered the forced-verdict call), with which model and in
// which order it read the debaters, and the failures of the judges before it.
type ballot struct {
	chair  int
	model  string
	order  []int
	failed []error
}

// answer is one judge's verdicts on a node's divergences, by divergence id,
// with the model that gave them.
type answer struct {
	verdicts map[string]tree.Verdict
	model    string
	err      error
}

// vote asks every judge but the chair, in parallel, for its own forced
// verdicts on the divergences the chair listed at n, and with the order
// check each judge again with the debaters in reverse order; it then counts
// the votes into n's verdicts (tally).
func (t *topicRun) vote(ctx context.Context, n *tree.Node, base prompts.Judge, posed []int, b ballot) {
	j := n.Judgment
	firsts := make([]answer, len(t.judges))
	swaps := make([]answer, len(t.judges))
	orders := make([][]int, len(t.judges))
	one := func(k int) {
		m := t.judges[k]
		order := t.shuffle(t.all(), n.ID, tree.StepVerdict, m.p.ID)
		defer func() { orders[k] = order }()
		switch {
		case k < b.chair:
			firsts[k].err = b.failed[k]
			return
		case k == b.chair:
			firsts[k] = answer{verdicts: map[string]tree.Verdict{}, model: b.model}
			for _, v := range j.ForcedVerdicts {
				if !v.Missing {
					firsts[k].verdicts[v.DivergenceID] = v
				}
			}
			order = b.order
		default:
			firsts[k] = t.panelVerdicts(ctx, m, n, base, posed, order)
		}
		if t.swap() && firsts[k].err == nil {
			swaps[k] = t.panelVerdicts(ctx, m, n, base, posed, reversed(order))
		}
	}
	if p := firstPanic(each(len(t.judges), true, one)); p != nil {
		panic(p) // the node fails with it
	}
	for k, m := range t.judges {
		for _, a := range []answer{firsts[k], swaps[k]} {
			if a.err != nil && k >= b.chair && ctx.Err() == nil {
				n.Errors = append(n.Errors, tree.NodeError{Participant: m.p.ID, Step: tree.StepVerdict, Message: a.err.Error()})
			}
		}
	}
	for i := range j.ForcedVerdicts {
		v := &j.ForcedVerdicts[i]
		if v.OverLimit {
			continue
		}
		var votes []tree.Vote
		for k := range t.judges {
			vote := t.ballotOf(k, v.DivergenceID, n, firsts[k], swaps[k])
			if vote.Favors != "" && vote.Favors != favorsNone {
				vote.Read = t.readIDs(posed, orders[k])
			}
			votes = append(votes, vote)
		}
		tally(v, votes)
	}
}

// ballotOf is judge k's vote on the divergence id of j from its answer and,
// with the order check, its answer to the reversed order.
func (t *topicRun) ballotOf(k int, id string, n *tree.Node, first, swapped answer) tree.Vote {
	m := t.judges[k]
	vote := tree.Vote{Judge: m.p.ID, Model: cmp.Or(first.model, m.model()), Status: tree.VoteCounted}
	v, ok := first.verdicts[id]
	switch {
	case first.err != nil:
		vote.Status, vote.Reason, vote.Because = tree.VoteDropped, first.err.Error(), reasonOf(first.err)
		return vote
	case !ok:
		vote.Status = tree.VoteDropped
		vote.Reason, vote.Because = t.e.opt.Say.said(tree.Because(tree.NoVerdictHere))
		return vote
	}
	vote.Favors = cmp.Or(v.Favors, favorsNone)
	vote.Recommendation, vote.Reasoning = v.Recommendation, v.Reasoning
	if t.swap() {
		w, ok := swapped.verdicts[id]
		switch {
		case swapped.err != nil:
			vote.Status = tree.VoteDropped
			vote.Reason, vote.Because = t.e.opt.Say.said(append([]tree.Reason{tree.Because(tree.OrderCheckFailed)}, reasonOf(swapped.err)...)...)
			return vote
		case !ok:
			vote.Status = tree.VoteDropped
			vote.Reason, vote.Because = t.e.opt.Say.said(tree.Because(tree.OrderCheckNone))
			return vote
		}
		vote.SwapFavors = cmp.Or(w.Favors, favorsNone)
	}
	if t.e.cfg.Params.Recuse {
		if reason, ok := t.recused(n, id, first.model, swapped.model); ok {
			vote.Status = tree.VoteRecused
			vote.Reason, vote.Because = t.e.opt.Say.said(reason)
			return vote
		}
	}
	if t.swap() && vote.SwapFavors != vote.Favors {
		vote.Status = tree.VoteUnstable
		vote.Reason, vote.Because = t.e.opt.Say.said(tree.Because(tree.FavouredThen, vote.Favors, vote.SwapFavors))
	}
	return vote
}

// recused returns why a judge whose votes on the divergence id of n were
// given by the models voters is recused, and whether it is: a debater taking
// a side wrote a text the judge read (its position or rebuttal at n) with
// one of those models. Fallbacks count, on either side; a debater without a
// text at n counts by its configured model.
func (t *topicRun) recused(n *tree.Node, id string, voters ...string) (tree.Reason, bool) {
	sides := divergenceSides(n.Judgment, id)
	for _, d := range t.debaters {
		if !hasKey(sides, d.p.ID) {
			continue
		}
		writers := []string{n.Models[d.p.ID], n.RebuttalModels[d.p.ID]}
		if writers[0] == "" && writers[1] == "" {
			writers[0] = d.p.Model
		}
		for _, w := range writers {
			for _, v := range voters {
				if w != "" && v != "" && configs.SameModel(w, v) {
					return tree.Because(tree.RecusedFor, d.p.ID, w, v), true
				}
			}
		}
	}
	return tree.Reason{}, false
}

// divergenceSides returns the sides of the divergence id of j.
func divergenceSides(j *tree.Judgment, id string) map[string]string {
	for _, d := range j.Divergences {
		if d.ID == id {
			return d.Sides
		}
	}
	return nil
}

// tally sets v from the votes: the majority of the counted votes' favors
// decides, with the recommendation of the first judge in panel order (the
// chair when it is in the majority) of that majority; a tie is split, with
// no recommendation of its own; no counted vote leaves the verdict missing.
// A judge that changed its choice with the order makes the verdict unstable.
func tally(v *tree.Verdict, votes []tree.Vote) {
	v.Votes = votes
	v.Favors, v.Recommendation, v.Reasoning = "", "", ""
	v.Missing, v.Split, v.Unstable = false, false, false
	count := map[string]int{}
	var sides []string // favors in order of the first vote for each
	for _, x := range votes {
		if x.Status == tree.VoteUnstable {
			v.Unstable = true
		}
		if x.Status != tree.VoteCounted {
			continue
		}
		if count[x.Favors] == 0 {
			sides = append(sides, x.Favors)
		}
		count[x.Favors]++
	}
	if len(sides) == 0 {
		v.Missing = true
		return
	}
	most := 0
	for _, s := range sides {
		most = max(most, count[s])
	}
	var top []string
	for _, s := range sides {
		if count[s] == most {
			top = append(top, s)
		}
	}
	if len(top) > 1 {
		v.Split = true
		return
	}
	for _, x := range votes {
		if x.Status == tree.VoteCounted && x.Favors == top[0] {
			v.Favors, v.Recommendation, v.Reasoning = x.Favors, x.Recommendation, x.Reasoning
			return
		}
	}
}

// reversed returns a reversed copy of s.
func reversed(s []int) []int {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// questions returns the divergences of n's judgment as a panel judge reads
// them, the debaters on each in the order order.
func (t *topicRun) questions(j *tree.Judgment, order []int) []prompts.Question {
	var out []prompts.Question
	for _, v := range j.ForcedVerdicts {
		if v.OverLimit {
			continue
		}
		for _, d := range j.Divergences {
			if d.ID != v.DivergenceID {
				continue
			}
			q := prompts.Question{ID: d.ID, Title: d.Title}
			q.Sides, q.Uninvolved = t.sides(&d, order, t.party)
			out = append(out, q)
		}
	}
	return out
}

// panelVerdicts asks judge m for its forced verdicts on the divergences of
// n's judgment, the debaters shown in the order order. An invalid answer is
// sent back once for repair; when it is still invalid the judge switches to
// its fallback, which gets the prompt once.
func (t *topicRun) panelVerdicts(ctx context.Context, m *member, n *tree.Node, base prompts.Judge, posed, order []int) answer {
	data := prompts.PanelVerdict{Judge: t.readerData(base, n, posed, order), Questions: t.questions(n.Judgment, order)}
	data.Sides = nil // the questions carry them
	pm, err := t.e.p.PanelVerdict(data)
	if err != nil {
		return answer{err: fmt.Errorf("build panel verdict prompt: %w", err)}
	}
	ids := make([]string, len(data.Questions))
	for i, q := range data.Questions {
		ids[i] = q.ID
	}
	c := call{node: n.ID, step: tree.StepVerdict, who: m, msgs: messages(pm), json: true, schema: panelSchema(base.PartyIDs), reaskCut: true}
	var got map[string]tree.Verdict
	sent := quotesOf(c.msgs)
	check := func(s string) error {
		vs, err := parseVerdicts(s, sent, ids, base.PartyIDs)
		if err == nil {
			got = t.unaliasVerdicts(vs)
		}
		return err
	}
	resp, model, err := t.r.call(ctx, c)
	if err != nil {
		return answer{model: model, err: fmt.Errorf("judge call failed: %w", err)}
	}
	problem := check(resp.Text)
	if problem == nil {
		return answer{verdicts: got, model: model}
	}
	_, m2, problem := t.r.repair(ctx, c, t.e.p.Repair, resp, problem, check)
	model = cmp.Or(m2, model)
	switch {
	case problem == nil:
		return answer{verdicts: got, model: model}
	case ctx.Err() != nil:
		return answer{model: model, err: ctx.Err()}
	case !t.r.switchTo(c, reasonOf(problem)...):
		return answer{model: model, err: fmt.Errorf("judge %w", problem)}
	}
	resp, model, err = t.r.call(ctx, c)
	if err != nil {
		return answer{model: model, err: fmt.Errorf("judge %w; fallback %s failed too: %w", problem, model, err)}
	}
	if err := check(resp.Text); err != nil {
		return answer{model: model, err: fmt.Errorf("judge %w; fallback %s answer invalid: %w", problem, model, err)}
	}
	return answer{verdicts: got, model: model}
}

// unaliasVerdicts maps the favors of verdicts given with the ids the judge
// was shown back to debater ids, keyed by divergence id.
func (t *topicRun) unaliasVerdicts(vs []tree.Verdict) map[string]tree.Verdict {
	j := &tree.Judgment{ForcedVerdicts: vs}
	t.unalias(j)
	out := make(map[string]tree.Verdict, len(vs))
	for _, v := range j.ForcedVerdicts {
		out[v.DivergenceID] = v
	}
	return out
}

// parseVerdicts reads a panel judge's answer: the first candidate object
// (see candidates), objects of what it was sent left out, holding exactly one verdict for each of the divergences
// ids, each naming the party it favors among parties, or "none", with a
// recommendation. Otherwise the error is that of the first candidate.
func parseVerdicts(answer string, sent quotes, ids, parties []string) ([]tree.Verdict, error) {
	objs := candidates(answer, sent)
	if len(objs) == 0 {
		return nil, errNoJSON
	}
	var first error
	for _, obj := range objs {
		vs, err := decodeVerdicts(obj, ids, parties)
		if err == nil {
			return vs, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// decodeVerdicts decodes and validates one JSON object as a panel judge's
// verdicts.
func decodeVerdicts(obj string, ids, parties []string) ([]tree.Verdict, error) {
	var a struct {
		ForcedVerdicts []struct {
			DivergenceID   string `json:"divergenceId"`
			Favors         string `json:"favors"`
			Recommendation string `json:"recommendation"`
			Reasoning      string `json:"reasoning"`
		} `json:"forcedVerdicts"`
	}
	dec := json.NewDecoder(strings.NewReader(obj))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("decode verdicts: %w", err)
	}
	j := tree.Judgment{}
	for _, v := range a.ForcedVerdicts {
		j.ForcedVerdicts = append(j.ForcedVerdicts, tree.Verdict{DivergenceID: v.DivergenceID, Favors: v.Favors, Recommendation: v.Recommendation, Reasoning: v.Reasoning})
	}
	canonicalParties(&j, parties)
	var errs []error
	seen := map[string]int{}
	for i, v := range j.ForcedVerdicts {
		if !slices.Contains(ids, v.DivergenceID) {
			errs = append(errs, fmt.Errorf("forcedVerdicts[%d].divergenceId: unknown divergence %q (known: %s)", i, v.DivergenceID, strings.Join(ids, ", ")))
		}
		seen[v.DivergenceID]++
		if strings.TrimSpace(v.Recommendation) == "" {
			errs = append(errs, fmt.Errorf("forcedVerdicts[%d].recommendation: must not be empty", i))
		}
		if v.Favors != favorsNone && !slices.Contains(parties, v.Favors) {
			errs = append(errs, fmt.Errorf("forcedVerdicts[%d].favors: %q is not a party (known: %s, or %q)", i, v.Favors, strings.Join(parties, ", "), favorsNone))
		}
	}
	for _, id := range ids {
		if n := seen[id]; n != 1 {
			errs = append(errs, fmt.Errorf("forcedVerdicts: divergence %q has %d verdicts, want one", id, n))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return j.ForcedVerdicts, nil
}
