package quality

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// The arms, in the order of the report.
const (
	ArmSingle     = "single"
	ArmVote       = "vote"
	ArmDebate     = "debate"
	ArmDebateVote = "debate-vote"
	// ArmJudgeAlone is the judge answering alone, without the passage the
	// debaters read: measured when a problem has a passage.
	ArmJudgeAlone = "judge-alone"
)

var arms = []string{ArmSingle, ArmVote, ArmDebate, ArmDebateVote}

// armsFor returns the arms measured on the problems: the four, and
// judge-alone when a problem has a passage.
func armsFor(problems []Problem) []string {
	if hasPassages(problems) {
		return append(slices.Clone(arms), ArmJudgeAlone)
	}
	return arms
}

// hasPassages reports whether a problem has a passage.
func hasPassages(problems []Problem) bool {
	return slices.ContainsFunc(problems, func(p Problem) bool { return p.Passage != "" })
}

// Options tune a quality run.
type Options struct {
	// Task names the problems in the report: "arithmetic", "passage" or
	// the file.
	Task string
	Seed uint64
	// Concurrency caps the model calls in flight.
	Concurrency int
	// Chunk is how many problems are measured between two looks at the
	// budget (0: a default).
	Chunk int
	// Dir, when set, is the work folder: for each chunk of problems and
	// each run (single, vote, debate), a folder with the run's reports and
	// journal. Without it nothing is kept.
	Dir string
	// Resume reuses every call the journals in Dir hold, from an earlier
	// run of the same command, so a stopped run goes on without paying
	// again for what it measured.
	Resume bool
	// Progress learns how far the run has come: as each arm's run starts
	// and as it finishes each problem. It is called one call at a time.
	Progress func(Progress)
	Logger   *slog.Logger
}

// Progress is how far a quality run has come.
type Progress struct {
	// Measured problems have been measured in every arm, of Problems.
	Measured, Problems int
	// Arm is the arm whose run is playing ("" between chunks); it has
	// finished Played of the Chunk problems it is putting.
	Arm           string
	Played, Chunk int
}

// tracker passes a run's progress to Options.Progress, one call at a time.
type tracker struct {
	mu sync.Mutex
	f  func(Progress)
	p  Progress
}

// update changes the progress and reports it.
func (t *tracker) update(change func(*Progress)) {
	if t.f == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	change(&t.p)
	t.f(t.p)
}

// defaultChunk is how many problems a chunk holds unless told otherwise.
const defaultChunk = 20

// outcome is one problem's answer in one arm, or why there is none.
type outcome struct {
	answer string
	read   bool
	usage  tree.Usage
	// quotes counts the quotes the answer (or the run) made of a passage.
	quotes tree.QuoteCount
	// failure is why a debater gave no answer at all.
	failure string
	// sample is, when no answer could be read, what there was instead.
	sample string
}

// Run measures every arm on the problems with cfg's models and returns the
// report. Every arm is a batch run of cfg: the lone answers are runs whose
// topics stop after the position step, so that every call has the run's
// retries, fallback, journal and pricing. Run stops before a chunk once the
// arms have spent cfg's budget.maxTokens together, or when ctx ends, and
// reports what it measured; within a chunk no arm is cut short by the
// budget, which would bias it.
func Run(ctx context.Context, cfg *configs.Config, problems []Problem, opt Options) (*Report, error) {
	log := cmp.Or(opt.Logger, slog.New(slog.DiscardHandler))
	if len(cfg.Debaters) == 0 {
		return nil, errors.New("debaters: the config has none: add at least one debater")
	}
	chunk := cmp.Or(opt.Chunk, defaultChunk)
	m := newMeasure(armsFor(problems))
	tr := &tracker{f: opt.Progress, p: Progress{Problems: len(problems)}}
	start := time.Now()
	var stopped string
	for lo := 0; lo < len(problems); lo += chunk {
		if b := cfg.Budget.MaxTokens; b > 0 && m.tokens >= b {
			stopped = fmt.Sprintf("budget.maxTokens (%d) spent", b)
			break
		}
		if ctx.Err() != nil {
			break
		}
		part := problems[lo:min(lo+chunk, len(problems))]
		asked, err := ask(ctx, cfg, part, lo, opt, tr, log)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		debated, err := debate(ctx, cfg, part, lo, opt, tr, log)
		if err == nil && m.has(ArmJudgeAlone) {
			err = judgeAlone(ctx, cfg, part, lo, opt, tr, log, debated)
		}
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		for i, p := range part {
			m.add(p, opt.Seed, asked[i], debated[i])
		}
		tr.update(func(p *Progress) { p.Measured, p.Arm = lo+len(part), "" })
	}
	if stopped == "" && ctx.Err() != nil {
		stopped = "interrupted"
	}
	rep := m.report(opt.Seed)
	rep.Task, rep.Problems, rep.WallMS, rep.Stopped = opt.Task, len(problems), float64(time.Since(start))/float64(time.Millisecond), stopped
	return rep, nil
}

// ask puts each problem of the part to every debater once, alone, in two
// positions-only runs: the first debater's (the single arm), then the
// others' (with the first, the vote). It returns, per problem, each
// debater's outcome; the usage of each run is on its first debater's.
func ask(ctx context.Context, cfg *configs.Config, part []Problem, offset int, opt Options, tr *tracker, log *slog.Logger) ([][]outcome, error) {
	out := make([][]outcome, len(part))
	for i := range out {
		out[i] = make([]outcome, len(cfg.Debaters))
	}
	groups := []struct {
		name     string
		debaters []configs.Participant
		at       int
	}{{ArmSingle, cfg.Debaters[:1], 0}, {ArmVote, cfg.Debaters[1:], 1}}
	for _, g := range groups {
		if len(g.debaters) == 0 {
			continue
		}
		c := *cfg
		c.Debaters = g.debaters
		topics, err := play(ctx, &c, part, offset, g.name, opt, tr, log)
		if err != nil {
			return nil, err
		}
		for i, t := range topics {
			for j, d := range g.debaters {
				out[i][g.at+j] = answered(t.Root, d.ID)
				if t.Quotes != nil {
					out[i][g.at+j].quotes = t.Quotes.ByDebater[d.ID]
				}
			}
			out[i][g.at].usage = t.Usage
		}
		if err := silent(g.debaters, out, g.at); err != nil {
			return nil, fmt.Errorf("the %s arm: %w", g.name, err)
		}
	}
	return out, nil
}

// answered is a debater's outcome at a positions-only root.
func answered(root *tree.Node, id string) outcome {
	text, ok := root.Positions[id]
	if !ok {
		o := outcome{failure: "no answer"}
		for _, e := range root.Errors {
			if e.Participant == id {
				o.failure = e.Message
			}
		}
		o.sample = "(" + cut(o.failure) + ")"
		return o
	}
	a, read := ReadAnswer(text)
	o := outcome{answer: a, read: read}
	if !read {
		o.sample = sample(text)
	}
	return o
}

// sampleRunes bounds a sample of an unreadable answer.
const sampleRunes = 48

// sample is what a reader is shown of an answer without an answer line:
// its last line that is not blank, cut to sampleRunes.
func sample(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return "(an empty answer)"
	}
	return strconv.Quote(cut(last))
}

// cut shortens s to sampleRunes, marking the cut with "…".
func cut(s string) string {
	if r := []rune(s); len(r) > sampleRunes {
		return string(r[:sampleRunes-1]) + "…"
	}
	return s
}

// concludedSample is what a debate concluded instead of an answer line:
// the root's first consensus point or verdict, else why the topic ended.
func concludedSample(t *tree.Topic) string {
	if j := t.Root.Judgment; j != nil {
		switch {
		case len(j.Consensus) > 0:
			return sample(j.Consensus[0].Point)
		case len(j.ForcedVerdicts) > 0:
			return sample(j.ForcedVerdicts[0].Recommendation)
		}
	}
	return fmt.Sprintf("(topic %s: %s)", t.Status, t.Root.StopReason)
}

// silent reports the first debater (of those at out[·][at:]) that answered
// none of the problems, with why: a model that cannot answer at all (its
// key refused, the model unknown) ends the run rather than score every
// problem as unreadable.
func silent(debaters []configs.Participant, out [][]outcome, at int) error {
	for j, d := range debaters {
		why := ""
		for _, row := range out {
			if row[at+j].failure == "" {
				why = ""
				break
			}
			why = cmp.Or(why, row[at+j].failure)
		}
		if why != "" {
			return fmt.Errorf("debater %s answered none of %d problems: %s", d.ID, len(out), why)
		}
	}
	return nil
}

// play runs the part's problems as the topics of one batch run of c and
// returns the topics, in the part's order. With a work folder, the run's
// reports and journal are kept in its sub-folder name-NNNNN.
func play(ctx context.Context, c *configs.Config, part []Problem, offset int, name string, opt Options, tr *tracker, log *slog.Logger) ([]tree.Topic, error) {
	alone := name != ArmDebate
	c.Topics = make([]configs.Topic, len(part))
	for i, p := range part {
		c.Topics[i] = topicOf(p, offset+i, c.Prompts.Language, alone)
		if name == ArmJudgeAlone {
			c.Topics[i].SharedContext = nil
		}
	}
	c.Motions, c.Protocol, c.Budget = nil, nil, configs.Budget{}
	off := false
	c.Params.Synthesis, c.Params.Seed = &off, &opt.Seed
	if opt.Concurrency > 0 {
		c.Params.Concurrency = opt.Concurrency
	}
	bopt := batch.Options{JSON: io.Discard, Logger: log, PositionsOnly: alone, Events: func(ev tree.Event) {
		if ev.Kind == tree.TopicFinished {
			tr.update(func(p *Progress) { p.Played++ })
		}
	}}
	tr.update(func(p *Progress) { p.Arm, p.Played, p.Chunk = name, 0, len(part) })
	if opt.Dir != "" {
		c.Output.Dir = filepath.Join(opt.Dir, fmt.Sprintf("%s-%05d", name, offset+1))
		bopt.JSON, bopt.Resume = nil, opt.Resume
	}
	res, err := batch.Run(ctx, c, bopt)
	if err == nil {
		err = res.Err
	}
	if err != nil {
		return nil, fmt.Errorf("the %s arm: %w", name, err)
	}
	if len(res.Run.Topics) != len(part) {
		return nil, fmt.Errorf("the %s arm: %d topics played of %d", name, len(res.Run.Topics), len(part))
	}
	return res.Run.Topics, nil
}

// debated is one problem's outcomes in the tree run: what the run
// concluded, and the majority of the debaters' last answers; and the
// judge's answer alone, when that arm is measured.
type debated struct {
	concluded, lastVote, judge outcome
	// topic is the problem's tree, ids the debaters.
	topic *tree.Topic
	ids   []string
}

// judgeAlone puts each problem of the part to the judge (the panel's
// chair) alone, without its passage, in a positions-only run, and records
// its outcomes in out.
func judgeAlone(ctx context.Context, cfg *configs.Config, part []Problem, offset int, opt Options, tr *tracker, log *slog.Logger, out []debated) error {
	panel := cfg.Panel()
	if len(panel) == 0 {
		return errors.New("reviewer: the config has no judge to answer alone: add a reviewer")
	}
	c := *cfg
	c.Debaters = panel[:1]
	c.SharedContext = configs.SharedContext{} // a judge never reads the documents
	topics, err := play(ctx, &c, part, offset, ArmJudgeAlone, opt, tr, log)
	if err != nil {
		return err
	}
	answers := make([][]outcome, len(part))
	for i, t := range topics {
		answers[i] = []outcome{answered(t.Root, panel[0].ID)}
		answers[i][0].usage = t.Usage
		out[i].judge = answers[i][0]
	}
	if err := silent(panel[:1], answers, 0); err != nil {
		return fmt.Errorf("the %s arm: %w", ArmJudgeAlone, err)
	}
	return nil
}

// debate runs the part's problems as the topics of one batch run of cfg's
// debate and reads each topic's answers.
func debate(ctx context.Context, cfg *configs.Config, part []Problem, offset int, opt Options, tr *tracker, log *slog.Logger) ([]debated, error) {
	c := *cfg
	topics, err := play(ctx, &c, part, offset, ArmDebate, opt, tr, log)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, d := range cfg.Debaters {
		ids = append(ids, d.ID)
	}
	out := make([]debated, len(part))
	for i := range part {
		t := &topics[i]
		concluded, read := Concluded(t)
		last := LastAnswers(t, ids)
		if !read && t.Status == tree.Converged && len(last) == len(ids) && count(sameAs(last, last[0])) == len(last) {
			// The judge found no divergence but wrote no answer line: the
			// answer all the debaters gave last is what they agreed on.
			concluded, read = last[0], true
		}
		vote, voted := "", len(last) > 0
		if voted {
			vote = Plurality(last, tieSeed(opt.Seed, part[i].ID, ArmDebateVote))
		}
		var quotes tree.QuoteCount
		if t.Quotes != nil {
			quotes = t.Quotes.Total
		}
		out[i] = debated{
			concluded: outcome{answer: concluded, read: read, usage: t.Usage, quotes: quotes},
			lastVote:  outcome{answer: vote, read: voted, usage: t.Usage, quotes: quotes},
		}
		if !read {
			out[i].concluded.sample = concludedSample(t)
		}
		if !voted {
			out[i].lastVote.sample = sample(t.Root.Positions[ids[0]])
		}
		out[i].topic, out[i].ids = t, ids
	}
	return out, nil
}

// topicOf is the topic a problem is put as: its question as the title (or
// as the background, when it does not fit on one line), the instruction
// to end with an answer line, to a debater alone or to a debate, and its
// passage as the topic's own document, named after the topic.
func topicOf(p Problem, i int, lang string, alone bool) configs.Topic {
	t := configs.Topic{ID: fmt.Sprintf("q%05d", i+1), Title: p.Question, Annotations: []string{instruction(lang, !alone)}}
	if len(p.Question) > 200 || strings.ContainsAny(p.Question, "\r\n") {
		t.Title, t.Background = fmt.Sprintf("Question %s", p.ID), p.Question
	}
	if p.Passage != "" {
		t.SharedContext = &configs.SharedContext{Documents: []configs.Document{{Path: "passage-" + t.ID + ".txt", Content: p.Passage}}}
	}
	return t
}

// Concluded reads the answer a topic's run concluded: the last answer line
// of the judges' consensus points and forced verdicts, walking the tree from
// the root, so a deeper node's conclusion wins.
func Concluded(t *tree.Topic) (string, bool) {
	var answer string
	var found bool
	t.Root.Walk(func(n *tree.Node) {
		if n.Judgment == nil {
			return
		}
		for _, c := range n.Judgment.Consensus {
			if a, ok := ReadAnswer(c.Point + "\n" + c.Detail); ok {
				answer, found = a, true
			}
		}
		for _, v := range n.Judgment.ForcedVerdicts {
			if a, ok := ReadAnswer(v.Recommendation); ok {
				answer, found = a, true
			}
		}
	})
	return answer, found
}

// LastAnswers returns each debater's last stated answer in a topic's
// run, in the order of ids: its rebuttal's, else its position's, at the
// last node (walking from the root) where it stated one.
func LastAnswers(t *tree.Topic, ids []string) []string {
	last := map[string]string{}
	t.Root.Walk(func(n *tree.Node) {
		for _, id := range ids {
			for _, text := range []string{n.Positions[id], n.Rebuttals[id]} {
				if a, ok := ReadAnswer(text); ok {
					last[id] = a
				}
			}
		}
	})
	var out []string
	for _, id := range ids {
		if a, ok := last[id]; ok {
			out = append(out, a)
		}
	}
	return out
}

// sameAs reports, for each answer, whether it is the same as a.
func sameAs(answers []string, a string) []bool {
	out := make([]bool, len(answers))
	for i, b := range answers {
		out[i] = Same(a, b)
	}
	return out
}
