package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/prefix"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// Preview is what a run would send first, without calling any model: the
// exact messages of every round-1 position call of the selected topics.
type Preview struct {
	Debaters []tree.Participant
	Judge    tree.Participant   // the panel's chair
	Judges   []tree.Participant // the panel, chair first
	Topics   []TopicPreview
	// CacheEligibleTokens are the previewed calls' prompt tokens in a
	// prefix an earlier one of them sent to the same model and endpoint.
	CacheEligibleTokens int
	// WorstCase is the most a topic of the run may take.
	WorstCase WorstCase
	// WorstCost bounds what the whole run may cost.
	WorstCost CostBound
	// Repository is the shared repository whose files the debaters may
	// quote, as it is now; nil when none is quoted.
	Repository *RepositoryPreview
}

// RepositoryPreview is the state of a shared repository a run would start
// from, and what listing its files adds to each root position.
type RepositoryPreview struct {
	Root string
	tree.Repository
	// ListingTokens estimates the tokens of the listing in each root
	// position prompt (four characters a token).
	ListingTokens int
}

// CostBound is the most a run may cost, in the currency of the pricing, or
// the models whose price is unknown, which leave it unknown.
type CostBound struct {
	Cost     float64
	Unpriced []string
}

// worstCost bounds what a run of the preview could cost: every call of the
// worst case of every topic at the highest price among the participants'
// models (fallbacks included), its prompt the average round-1 prompt plus
// every answer a node and its parent can show, its answer at the token
// limit.
func (pv *Preview) worstCost(cfg *configs.Config) CostBound {
	var b CostBound
	var price configs.Price
	for _, p := range append(slices.Clone(pv.Debaters), pv.Judges...) {
		for _, m := range []string{p.Model, p.Fallback} {
			pr, ok := cfg.Pricing[m]
			switch {
			case m == "":
			case !ok:
				if !slices.Contains(b.Unpriced, m) {
					b.Unpriced = append(b.Unpriced, m)
				}
			default:
				price.Input, price.Output = max(price.Input, pr.Input), max(price.Output, pr.Output)
			}
		}
	}
	limit := float64(cfg.Params.MaxTokensPerResponse)
	prompt := float64(pv.RoundOneTokens())/float64(max(pv.RoundOneCalls(), 1)) + float64(2*len(pv.Debaters)+2)*limit
	b.Cost = float64(pv.WorstCase.Calls*len(pv.Topics)) * (prompt*price.Input + limit*price.Output) / 1e6
	return b
}

// WorstCase is the most nodes and calls one topic may take: every node
// splits into Branching divergences, the most a node debates
// (params.maxDivergences; the rest are left undebated), down to the round
// limit, and every call needs a repair.
type WorstCase struct {
	Rounds    int
	Branching int
	Nodes     int
	// Calls counts, per topic, every node's positions and rebuttals, the
	// inner nodes' triage, the last round's verdict calls, each with a
	// repair, and the synthesis.
	Calls int
	// VerdictCalls is how many verdict calls a node of the last round makes:
	// one per judge, twice when the order check asks again.
	VerdictCalls int
}

// worstCase computes the worst case of the engine's run.
func (e *Engine) worstCase() WorstCase {
	w := WorstCase{Rounds: e.maxRounds, Branching: max(e.cfg.Params.MaxDivergences, 1)}
	leaves := 0
	for r, level := 0, 1; r < w.Rounds; r, level = r+1, level*w.Branching {
		w.Nodes += level
		leaves = level
	}
	w.VerdictCalls = len(e.judges)
	if e.cfg.Params.VerdictCheck == configs.VerdictCheckSwap {
		w.VerdictCalls += len(e.judges)
	}
	synth := 0
	if e.cfg.Synthesis() {
		synth = 1
	}
	n := len(e.debaters)
	// Every call may need a repair: each node's debaters and judge, and at
	// the last round every judge's verdicts.
	w.Calls = w.Nodes*2*n + (w.Nodes-leaves)*2 + leaves*2*w.VerdictCalls + synth
	return w
}

// TopicPreview holds one topic's round-1 position calls, in config order,
// with the debaters' aliases (when blind) and the order in which the chair
// reads them at the root.
type TopicPreview struct {
	ID, Title string
	Calls     []CallPreview
	Aliases   []tree.Alias
	// JudgeOrder lists the debaters as the chair's round-1 prompt shows
	// them: by alias when blind, else by label.
	JudgeOrder []string
}

// CallPreview is one call as it would be sent.
type CallPreview struct {
	Participant tree.Participant
	Model       string
	Messages    []providers.Message
}

// NewPreview builds the round-1 position calls of the selected topics (all
// when sel is nil) with the same code a run uses, so a dry run shows exactly
// what would be sent.
func NewPreview(cfg *configs.Config, p *prompts.Set, sel *tree.Selection) (*Preview, error) {
	files, err := OpenRepository(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	e := newEngine(cfg, nil, p, Options{Selection: sel, Repository: files})
	selected, err := e.selected()
	if err != nil {
		return nil, err
	}
	pv := &Preview{Judge: participant(e.judge), WorstCase: e.worstCase()}
	if e.quotes != nil && files != nil {
		st := files.State()
		n := 0
		for _, l := range e.listing {
			n += len(l) + len("- \n")
		}
		pv.Repository = &RepositoryPreview{Root: st.Root, Repository: tree.Repository{Head: st.Head, Dirty: st.Dirty, Files: len(files.Names())}, ListingTokens: providers.EstimateTokens(n)}
	}
	for _, j := range e.judges {
		pv.Judges = append(pv.Judges, participant(j))
	}
	for _, d := range e.debaters {
		pv.Debaters = append(pv.Debaters, participant(d))
	}
	var book prefix.Book
	for _, ct := range selected {
		tr := e.newTopicRun(ct)
		root := tree.NewNode(tree.RootID, ct.Title, ct.Background)
		tp := TopicPreview{ID: ct.ID, Title: ct.Title, Aliases: tr.aliasRecord()}
		for _, i := range tr.shuffle(tr.all(), root.ID, tree.StepJudge, tr.judge.p.ID) {
			tp.JudgeOrder = append(tp.JudgeOrder, name(tr.party(i)))
		}
		for i, m := range tr.debaters {
			msgs, err := tr.position(root, lineage{}, i)
			if err != nil {
				return nil, err
			}
			c := CallPreview{Participant: participant(m.p), Model: m.model(), Messages: messages(msgs)}
			tp.Calls = append(tp.Calls, c)
			pv.CacheEligibleTokens += book.Add(cacheKey(cfg, m.p.ID, c.Model), promptParts(c.Messages)...) / providers.BytesPerToken
		}
		pv.Topics = append(pv.Topics, tp)
	}
	pv.WorstCost = pv.worstCost(cfg)
	return pv, nil
}

// RoundOneCalls counts the previewed calls.
func (pv *Preview) RoundOneCalls() int {
	n := 0
	for _, t := range pv.Topics {
		n += len(t.Calls)
	}
	return n
}

// RoundOneTokens estimates the prompt tokens of the previewed calls as
// providers.EstimateTokens does, by characters rather than bytes.
func (pv *Preview) RoundOneTokens() int {
	chars := 0
	for _, t := range pv.Topics {
		for _, c := range t.Calls {
			for _, m := range c.Messages {
				chars += utf8.RuneCountInString(m.Content)
			}
		}
	}
	return providers.EstimateTokens(chars)
}

// MotionPreview is how a motion would start, without a database or a model:
// the MOTION the proposer opens with and the exact messages of the opponent's
// first call. Documents are not stored yet, so placeholders stand for their
// ids.
type MotionPreview struct {
	ID, Title string
	Motion    string // the MOTION's text
	Opponent  tree.Participant
	Model     string
	Messages  []providers.Message
}

// NewMotionPreviews builds the previews of the selected motions (all when sel
// is nil), in the selection's order, with the code a run uses.
func NewMotionPreviews(cfg *configs.Config, roles RolePrompts, sel *tree.Selection) ([]MotionPreview, error) {
	if cfg.Protocol == nil {
		return nil, nil
	}
	e := newEngine(cfg, nil, nil, Options{})
	var ids []string
	if sel != nil {
		if len(sel.Motions) == 0 {
			return nil, nil
		}
		ids = sel.Motions
	}
	motions, err := e.selectedMotions(ids)
	if err != nil {
		return nil, err
	}
	var out []MotionPreview
	for _, m := range motions {
		mr := e.newMotionRun(m, MotionOptions{Roles: roles, RunID: "preview"})
		for i, d := range m.Docs {
			mr.docs = append(mr.docs, prompts.StoredDocument{ID: fmt.Sprintf("<doc-id-%d>", i+1), Version: 1, Path: d.Path, Content: d.Content})
		}
		text, err := roles.Motion(prompts.MotionText{Title: m.Title, Text: m.Motion, Documents: mr.docs})
		if err != nil {
			return nil, fmt.Errorf("motion %s: %w", m.ID, err)
		}
		first := protocol.Argument{Seq: 1, Type: protocol.Motion, Role: protocol.Proposer, Content: text}
		msgs, err := roles.Opponent(mr.turnData([]protocol.Argument{first}, 1))
		if err != nil {
			return nil, fmt.Errorf("motion %s: %w", m.ID, err)
		}
		out = append(out, MotionPreview{
			ID: m.ID, Title: m.Title, Motion: text, Opponent: participant(mr.opponent.p),
			Model: mr.opponent.model(), Messages: messages(msgs),
		})
	}
	return out, nil
}
