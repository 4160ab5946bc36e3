package orchestrator

import (
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// verifier returns the checker of quotes from cfg's shared documents, or nil
// when quotes are off or there is nothing to quote.
func verifier(cfg *configs.Config) *quote.Verifier {
	if !cfg.Quotes() {
		return nil
	}
	docs := make([]quote.Document, len(cfg.SharedContext.Documents))
	for i, d := range cfg.SharedContext.Documents {
		docs[i] = quote.Document{Name: d.Path, Text: d.Content}
	}
	return quote.New(docs, cfg.Params.MaxQuoteChars)
}

// quoting reports whether the run's debaters are asked to quote.
func (t *topicRun) quoting() bool { return t.e.quotes != nil }

// shown is a debater's answer as another reader sees it: with every quote
// marked verified or unverified by the engine when quotes are on. An
// answer is marked once, however many read it.
func (t *topicRun) shown(text string) string {
	if t.e.quotes == nil {
		return text
	}
	if m, ok := t.e.marked.Load(text); ok {
		return m.(string)
	}
	marked, _ := t.e.quotes.Mark(text)
	t.e.marked.Store(text, marked)
	return marked
}

// recordQuotes records at n the quotes of a debater's answer at step, when
// quotes are on and the answer made any.
func (t *topicRun) recordQuotes(n *tree.Node, id string, step tree.Step, text string) {
	if t.e.quotes == nil {
		return
	}
	found := t.e.quotes.Find(text)
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
