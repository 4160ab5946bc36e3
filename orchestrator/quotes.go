package orchestrator

import (
	"sync"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// checker verifies the quotes of the debaters of the topics that see the
// same documents, and remembers each answer it marked.
type checker struct {
	v      *quote.Verifier
	marked sync.Map // an answer's text → the same with its quotes marked, each made once
}

// newChecker returns the checker of quotes from docs, or nil when cfg's
// quotes are off or there is nothing to quote.
func newChecker(cfg *configs.Config, docs []configs.Document) *checker {
	if !cfg.Quotes() || len(docs) == 0 {
		return nil
	}
	qd := make([]quote.Document, len(docs))
	for i, d := range docs {
		qd[i] = quote.Document{Name: d.Path, Text: d.Content}
	}
	return &checker{v: quote.New(qd, cfg.Params.MaxQuoteChars)}
}

// topicChecker returns the checker of topic t's quotes: the run's, unless t
// has documents of its own.
func (e *Engine) topicChecker(t configs.Topic) *checker {
	if t.SharedContext == nil || len(t.SharedContext.Documents) == 0 {
		return e.quotes
	}
	return newChecker(e.cfg, e.cfg.Documents(t))
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
