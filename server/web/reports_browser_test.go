package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/store"
	"github.com/debatehq/debate/tree"
)

// TestBrowserQuoteLink: in headless Chromium, the badge of a verified quote
// on a run's topic page, opened from the list of reports, opens the page of
// the quoted file at the quoted line.
func TestBrowserQuoteLink(t *testing.T) {
	b := newBrowser(t, "quote-link-", 1280, 800)
	dir := quotedRunFolder(t)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	base := "http://" + serveUI(t, st, "", dir)

	b.step("open the list of reports", chromedp.Navigate(base+"/"),
		until(`document.querySelector('a[href="/reports/0/topic-t1-caching.html"]') !== null`))
	b.follow("open the topic page", chromedp.Click(`a[href="/reports/0/topic-t1-caching.html"]`))
	b.step("see the quote's badge", until(`document.querySelector('a[href="documents/quote__quote.go.html#L3"]') !== null`))
	b.shot("topic")
	b.follow("follow the badge", chromedp.Click(`a[href="documents/quote__quote.go.html#L3"]`))
	b.step("land on the quoted line",
		until(`location.pathname === '/reports/0/documents/quote__quote.go.html' && location.hash === '#L3'`),
		until(`document.querySelector(':target') !== null && document.querySelector(':target').id === 'L3'`),
		until(`document.querySelector(':target').textContent.includes('func (v *Verifier) Find')`))
	b.shot("document")
}

// quotedRunFolder writes a run folder as a run with HTML reports writes it:
// a topic page whose debater quoted line 3 of quote/quote.go, and the page
// of that file under documents/.
func quotedRunFolder(t *testing.T) string {
	t.Helper()
	run := rendertest.Converged()
	root := run.Topics[0].Root
	const line = "func (v *Verifier) Find(text string) []Quote {"
	root.Positions["party-a"] = `The verifier: <quote doc="quote/quote.go">` + line + `</quote>`
	root.Quotes = []tree.AnswerQuotes{{Participant: "party-a", Step: tree.StepPosition,
		Quotes: []tree.Quote{{Text: line, Status: tree.QuoteVerified, Document: "quote/quote.go", FirstLine: 3, LastLine: 3, Repository: true}}}}
	run.Topics[0].Quotes = tree.TallyQuotes(root)
	run.Quotes = run.Topics[0].Quotes
	topic, err := render.TopicHTML(run, &run.Topics[0])
	if err != nil {
		t.Fatal(err)
	}
	text := "package quote\n\n" + line + "\n\treturn nil\n}\n" + strings.Repeat("// more\n", 80)
	doc, err := render.DocumentHTML(run, "quote/quote.go", text)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "topic-t1-caching.md"), string(render.Topic(run, &run.Topics[0])))
	writeFile(t, filepath.Join(dir, "topic-t1-caching.html"), string(topic))
	writeFile(t, filepath.Join(dir, filepath.FromSlash(render.DocumentFile("quote/quote.go"))+".html"), string(doc))
	if _, err := os.Stat(filepath.Join(dir, "documents", "quote__quote.go.html")); err != nil {
		t.Fatalf("the document's page is not where the badge links: %v", err)
	}
	return dir
}
