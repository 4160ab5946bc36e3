package quality

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/store"
	"github.com/debatehq/debate/tree"
)

// The arms, in the order of the report.
const (
	ArmSingle     = "single"
	ArmVote       = "vote"
	ArmDebate     = "debate"
	ArmDebateVote = "debate-vote"
)

var arms = []string{ArmSingle, ArmVote, ArmDebate, ArmDebateVote}

// Options tune a quality run.
type Options struct {
	// Task names the problems in the report: "arithmetic" or the file.
	Task string
	Seed uint64
	// Concurrency caps the model calls in flight.
	Concurrency int
	// Chunk is how many problems are measured between two looks at the
	// budget (0: a default).
	Chunk int
	// Dir, when set, is the work folder: the journal of the lone answers
	// and, for each chunk of problems, the debates' folder with its
	// reports and journal. Without it nothing is kept.
	Dir string
	// Resume reuses every call the journals in Dir hold, from an earlier
	// run of the same command, so a stopped run goes on without paying
	// again for what it measured.
	Resume bool
	// Progress learns how many problems are measured, after each chunk.
	Progress func(done, total int)
	Logger   *slog.Logger
}

// askJournal is the journal of the lone answers in the work folder.
const askJournal = "answers.db"

// completer makes one model call; *providers.Client is one.
type completer interface {
	Complete(ctx context.Context, r providers.Request) (providers.Response, error)
}

// defaultChunk is how many problems a chunk holds unless told otherwise.
const defaultChunk = 20

// outcome is one problem's answer in one arm.
type outcome struct {
	answer string
	read   bool
	usage  tree.Usage
}

// Run measures every arm on the problems with cfg's models and returns the
// report. It stops before a chunk once the run has spent cfg's
// budget.maxTokens, or when ctx ends, and reports what it measured.
func Run(ctx context.Context, cfg *configs.Config, problems []Problem, opt Options) (*Report, error) {
	log := cmp.Or(opt.Logger, slog.New(slog.DiscardHandler))
	if len(cfg.Debaters) == 0 {
		return nil, errors.New("debaters: the config has none: add at least one debater")
	}
	client, err := providers.New(cfg, providers.Options{Concurrency: opt.Concurrency, Logger: log})
	if err != nil {
		return nil, err
	}
	var asker completer = client
	if opt.Dir != "" {
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("the work folder: %w", err)
		}
		j, err := store.OpenJournal(ctx, filepath.Join(opt.Dir, askJournal), !opt.Resume)
		if err != nil {
			return nil, err
		}
		defer j.Close()
		asker = orchestrator.NewJournaled(client, j, log)
	}
	chunk := cmp.Or(opt.Chunk, defaultChunk)
	m := newMeasure(arms)
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
		asked, err := ask(ctx, cfg, asker, part, opt)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		debated, err := debate(ctx, cfg, part, lo, opt, log)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		for i, p := range part {
			m.add(p, opt.Seed, asked[i], debated[i])
		}
		if opt.Progress != nil {
			opt.Progress(lo+len(part), len(problems))
		}
	}
	if stopped == "" && ctx.Err() != nil {
		stopped = "interrupted"
	}
	rep := m.report(opt.Seed)
	rep.Task, rep.Problems, rep.WallMS, rep.Stopped = opt.Task, len(problems), float64(time.Since(start))/float64(time.Millisecond), stopped
	return rep, nil
}

// ask puts each problem to every debater once, alone: the first debater's
// answer is the single arm's, all of them the vote's.
func ask(ctx context.Context, cfg *configs.Config, client completer, part []Problem, opt Options) ([][]outcome, error) {
	out := make([][]outcome, len(part))
	p := pool.New().WithContext(ctx).WithMaxGoroutines(max(1, opt.Concurrency))
	for i, pr := range part {
		out[i] = make([]outcome, len(cfg.Debaters))
		for j, d := range cfg.Debaters {
			p.Go(func(ctx context.Context) error {
				var err error
				out[i][j], err = askOne(ctx, cfg, client, d, pr)
				return err
			})
		}
	}
	if err := p.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// attempts is how often a lone question is tried when its failures may
// pass (server errors, rate limits, timeouts) before its answer counts as
// unreadable.
const attempts = 3

// askOne puts p to the debater d alone. A failure that no retry mends (a
// refused request, a filtered answer) is an unreadable answer; one that
// says the model cannot answer at all (key refused, model unknown) ends
// the run with the error.
func askOne(ctx context.Context, cfg *configs.Config, client completer, d configs.Participant, p Problem) (outcome, error) {
	req := providers.Request{
		Participant: d.ID, Model: d.Model,
		Messages: []providers.Message{
			{Role: "system", Content: instruction(cfg.Prompts.Language, false)},
			{Role: "user", Content: p.Question},
		},
		Origin: providers.Origin{Topic: p.ID, Step: "quality"},
	}
	delay := time.Duration(cmp.Or(cfg.Fallback.RetryDelay, 1000)) * time.Millisecond
	var o outcome
	for a := 1; a <= attempts; a++ {
		req.Attempt = a
		r, err := client.Complete(ctx, req)
		o.usage = o.usage.Add(usageOf(cfg, r, err == nil))
		if err == nil {
			o.answer, o.read = ReadAnswer(r.Text)
			return o, nil
		}
		var pe *providers.Error
		if !errors.As(err, &pe) {
			return o, err
		}
		switch pe.Kind.Class() {
		case providers.Unusable:
			return o, fmt.Errorf("debater %s: %w", d.ID, err)
		case providers.Permanent:
			return o, ctx.Err()
		}
		if err := ctxwait.Sleep(ctx, max(pe.RetryAfter, delay<<(a-1))); err != nil {
			return o, err
		}
	}
	return o, nil
}

// usageOf is a call's usage, priced from cfg's pricing when it has the
// model's price, else at what the provider reported.
func usageOf(cfg *configs.Config, r providers.Response, ok bool) tree.Usage {
	u := tree.Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens,
		CachedPromptTokens: r.Usage.CachedPromptTokens, Calls: 1, Cost: r.Usage.Cost}
	if !ok {
		u.Failures = 1
	}
	if p, found := cfg.Pricing[r.Model]; found {
		cached := min(u.CachedPromptTokens, u.PromptTokens)
		u.Cost = (float64(u.PromptTokens-cached)*p.Input + float64(cached)*cmp.Or(p.CachedInput, p.Input) +
			float64(u.CompletionTokens)*p.Output) / 1e6
	}
	return u
}

// debated is one problem's outcomes in the tree run: what the run
// concluded, and the majority of the debaters' last answers.
type debated struct{ concluded, lastVote outcome }

// debate runs the part's problems as the topics of one batch run of cfg's
// debate, through batch.Run, and reads each topic's answers.
func debate(ctx context.Context, cfg *configs.Config, part []Problem, offset int, opt Options, log *slog.Logger) ([]debated, error) {
	c := *cfg
	c.Topics = make([]configs.Topic, len(part))
	for i, p := range part {
		c.Topics[i] = topicOf(p, offset+i, cfg.Prompts.Language)
	}
	c.Motions, c.Protocol, c.Budget = nil, nil, configs.Budget{}
	off := false
	c.Params.Synthesis, c.Params.Seed = &off, &opt.Seed
	if opt.Concurrency > 0 {
		c.Params.Concurrency = opt.Concurrency
	}
	bopt := batch.Options{JSON: io.Discard, Logger: log}
	if opt.Dir != "" {
		c.Output.Dir = filepath.Join(opt.Dir, fmt.Sprintf("debates-%05d", offset+1))
		bopt = batch.Options{Resume: opt.Resume, Logger: log}
	}
	res, err := batch.Run(ctx, &c, bopt)
	if err != nil {
		return nil, fmt.Errorf("the debate arm: %w", err)
	}
	if res.Err != nil {
		return nil, fmt.Errorf("the debate arm: %w", res.Err)
	}
	out := make([]debated, len(part))
	for i := range part {
		if i >= len(res.Run.Topics) {
			break
		}
		t := &res.Run.Topics[i]
		var ids []string
		for _, d := range cfg.Debaters {
			ids = append(ids, d.ID)
		}
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
		out[i] = debated{
			concluded: outcome{answer: concluded, read: read, usage: t.Usage},
			lastVote:  outcome{answer: vote, read: voted, usage: t.Usage},
		}
	}
	return out, nil
}

// topicOf is the topic a problem is debated as: its question as the title
// (or as the background, when it does not fit on one line), and the
// instruction to end with an answer line.
func topicOf(p Problem, i int, lang string) configs.Topic {
	t := configs.Topic{ID: fmt.Sprintf("q%05d", i+1), Title: p.Question, Annotations: []string{instruction(lang, true)}}
	if len(p.Question) > 200 || strings.ContainsAny(p.Question, "\r\n") {
		t.Title, t.Background = fmt.Sprintf("Question %s", p.ID), p.Question
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
