package orchestrator

import (
	"context"
	"fmt"
	"sync"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/quote/repo"
	"github.com/debatehq/debate/tree"
)

// ListingBytes caps the listing of a shared repository's files in the
// debaters' root prompts: about 2,000 tokens, sent once per debater and
// topic in the part of the prompt providers cache. A longer list is folded
// into folders with their number of files (repo.Files.Listing).
const ListingBytes = 8 << 10

// OpenRepository opens the repository cfg shares with its debaters, as it
// is now, for a run starting now (Options.Repository); nil when cfg shares
// none or its quotes are off.
func OpenRepository(ctx context.Context, cfg *configs.Config) (*repo.Files, error) {
	if cfg.RepositoryDir() == "" || !cfg.Quotes() {
		return nil, nil
	}
	files, err := repo.Open(ctx, cfg.RepositoryDir(), repo.Options{Secrets: cfg.Secrets()})
	if err != nil {
		return nil, fmt.Errorf("sharedContext.repository: %w", err)
	}
	return files, nil
}

// checker verifies the quotes of the debaters of the topics that see the
// same documents, and remembers each answer it marked.
type checker struct {
	v      *quote.Verifier
	shared map[string]bool // the names of the shared documents; any other a quote is verified in is a repository file
	marked sync.Map        // an answer's text → the same with its quotes marked, each made once
}

// newChecker returns the checker of quotes from docs and, when files is
// set, from the repository's files; nil when cfg's quotes are off or there
// is nothing to quote.
func newChecker(cfg *configs.Config, docs []configs.Document, files *repo.Files) *checker {
	if !cfg.Quotes() || len(docs) == 0 && files == nil {
		return nil
	}
	qd := make([]quote.Document, len(docs))
	c := &checker{shared: make(map[string]bool, len(docs))}
	for i, d := range docs {
		qd[i] = quote.Document{Name: d.Path, Text: d.Content}
		c.shared[d.Path] = true
	}
	c.v = quote.New(qd, cfg.Params.MaxQuoteChars)
	if files != nil {
		c.v = c.v.WithOpener(files.Document)
	}
	return c
}

// topicChecker returns the checker of topic t's quotes: the run's, unless t
// has documents of its own.
func (e *Engine) topicChecker(t configs.Topic) *checker {
	if t.SharedContext == nil || len(t.SharedContext.Documents) == 0 {
		return e.quotes
	}
	return newChecker(e.cfg, e.cfg.Documents(t), e.opt.Repository)
}

// repository is the shared repository as topic t's debaters are told of
// it; nil when they quote none.
func (t *topicRun) repository() *prompts.Repository {
	if t.quotes == nil || t.e.opt.Repository == nil {
		return nil
	}
	return &prompts.Repository{Files: t.e.listing}
}

// quoting reports whether the topic's debaters are asked to quote.
func (t *topicRun) quoting() bool { return t.quotes != nil }

// shown is a debater's answer as another reader sees it: with every quote
// marked verified or unverified by the engine when quotes are on. An
// answer is marked once, however many read it.
func (t *topicRun) shown(text string) string {
	if t.quotes == nil {
		return text
	}
	if m, ok := t.quotes.marked.Load(text); ok {
		return m.(string)
	}
	marked, _ := t.quotes.v.Mark(text)
	t.quotes.marked.Store(text, marked)
	return marked
}

// recordQuotes records at n the quotes of a debater's answer at step, when
// quotes are on and the answer made any.
func (t *topicRun) recordQuotes(n *tree.Node, id string, step tree.Step, text string) {
	if t.quotes == nil {
		return
	}
	found := t.quotes.v.Find(text)
	if len(found) == 0 {
		return
	}
	a := tree.AnswerQuotes{Participant: id, Step: step, Quotes: make([]tree.Quote, len(found))}
	for i, q := range found {
		a.Quotes[i] = treeQuote(q)
		a.Quotes[i].Repository = q.Verified && !t.quotes.shared[q.Document]
	}
	n.Quotes = append(n.Quotes, a)
}

// treeQuote is a checked quote as run.json records it.
func treeQuote(q quote.Quote) tree.Quote {
	if !q.Verified {
		return tree.Quote{Text: q.Text, Status: tree.QuoteUnverified, Reason: q.Reason}
	}
	return tree.Quote{Text: q.Text, Status: tree.QuoteVerified, Document: q.Document, FirstLine: q.First, LastLine: q.Last}
}
