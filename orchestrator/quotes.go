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
	files, err := repo.Open(ctx, cfg.RepositoryDir(), repo.Options{Secrets: cfg.Secrets(), Exclude: []string{cfg.Output.Dir, cfg.Cache.Dir}})
	if err != nil {
		return nil, fmt.Errorf("sharedContext.repository: %w", err)
	}
	return files, nil
}

// indexes are the run's shared documents by name, each indexed for quotes
// once, when a quote first needs it, whichever topics share it.
type indexes map[string]func() *quote.Index

// newIndexes returns the indexes of every document of cfg's run.
func newIndexes(cfg *configs.Config) indexes {
	out := indexes{}
	for _, d := range cfg.AllDocuments() {
		out[d.Path] = sync.OnceValue(func() *quote.Index {
			return quote.NewIndex(quote.Document{Name: d.Path, Text: d.Content})
		})
	}
	return out
}

// checker verifies the quotes of the debaters of the topics that see the
// same documents, and remembers each answer it checked.
type checker struct {
	verifier func() *quote.Verifier // made when a quote is first checked
	shared   map[string]bool        // the names of the shared documents; any other a quote is verified in is a repository file
	checked  sync.Map               // an answer's text → *checked, each made once
}

// checked is an answer with its quotes marked, and its quotes.
type checked struct {
	marked string
	quotes []quote.Quote
}

// newChecker returns the checker of quotes from docs, found in idx, and,
// when files is set, from the repository's files; nil when cfg's quotes are
// off or there is nothing to quote.
func newChecker(cfg *configs.Config, docs []configs.Document, idx indexes, files *repo.Files) *checker {
	if !cfg.Quotes() || len(docs) == 0 && files == nil {
		return nil
	}
	c := &checker{shared: make(map[string]bool, len(docs))}
	for _, d := range docs {
		c.shared[d.Path] = true
	}
	c.verifier = sync.OnceValue(func() *quote.Verifier {
		ix := make([]*quote.Index, len(docs))
		for i, d := range docs {
			ix[i] = idx[d.Path]()
		}
		v := quote.New(ix, cfg.Params.MaxQuoteChars)
		if files != nil {
			v = v.WithOpener(files.Document)
		}
		return v
	})
	return c
}

// check returns text checked, checking it the first time it is asked.
func (c *checker) check(text string) *checked {
	if a, ok := c.checked.Load(text); ok {
		return a.(*checked)
	}
	marked, qs := c.verifier().Mark(text)
	a, _ := c.checked.LoadOrStore(text, &checked{marked: marked, quotes: qs})
	return a.(*checked)
}

// topicChecker returns the checker of topic t's quotes: the run's, unless t
// has documents of its own.
func (e *Engine) topicChecker(t configs.Topic) *checker {
	if t.SharedContext == nil || len(t.SharedContext.Documents) == 0 {
		return e.quotes
	}
	return newChecker(e.cfg, e.cfg.Documents(t), e.indexes, e.opt.Repository)
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
// answer is checked once, however many read it.
func (t *topicRun) shown(text string) string {
	if t.quotes == nil {
		return text
	}
	return t.quotes.check(text).marked
}

// recordQuotes records at n the quotes of a debater's answer at step, when
// quotes are on and the answer made any.
func (t *topicRun) recordQuotes(n *tree.Node, id string, step tree.Step, text string) {
	if t.quotes == nil {
		return
	}
	found := t.quotes.check(text).quotes
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
		why := tree.Reason{Code: tree.ReasonCode(q.Reason.Code), Args: q.Reason.Args}
		return tree.Quote{Text: q.Text, Status: tree.QuoteUnverified, Reason: q.Reason.String(), Because: []tree.Reason{why}}
	}
	return tree.Quote{Text: q.Text, Status: tree.QuoteVerified, Document: q.Document, FirstLine: q.First, LastLine: q.Last}
}
