package render

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// documentsDir is the folder of the run's output that holds a copy of each
// shared document a verified quote points into.
const documentsDir = "documents/"

// unsafeFileRune matches what DocumentFile replaces in a document's name.
var unsafeFileRune = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// DocumentFile returns the path, relative to a run's output folder, of the
// copy of the shared document called name (as sharedContext.files names it)
// that the Markdown reports link quotes to: documents/ and the name with its
// folders joined by "__" and every other unsafe character as "_". Its HTML
// page, with numbered lines, is the same path plus ".html".
func DocumentFile(name string) string {
	var parts []string
	for _, p := range strings.Split(strings.ReplaceAll(name, `\`, "/"), "/") {
		if p == "" || p == "." || p == ".." {
			continue
		}
		parts = append(parts, unsafeFileRune.ReplaceAllString(p, "_"))
	}
	return documentsDir + strings.Join(parts, "__")
}

// QuotedDocuments returns the names of the documents that a verified quote
// of the run points into, sorted.
func QuotedDocuments(run *tree.Run) []string {
	var names []string
	for i := range run.Topics {
		run.Topics[i].Root.Walk(func(n *tree.Node) {
			for _, a := range n.Quotes {
				for _, q := range a.Quotes {
					if q.Status == tree.QuoteVerified && !slices.Contains(names, q.Document) {
						names = append(names, q.Document)
					}
				}
			}
		})
	}
	slices.Sort(names)
	return names
}

// documentStyle is what a document's page adds to the style sheet: line
// numbers in a column of their own, the line linked to marked.
const documentStyle = `
table.document { display: table; border: 0; font-size: 0.9rem; }
table.document td { border: 0; padding: 0 0.5rem; vertical-align: top; }
table.document td.ln { text-align: right; color: var(--muted); user-select: none; }
table.document pre { margin: 0; padding: 0; background: none; white-space: pre-wrap; overflow-wrap: anywhere; }
table.document tr:target { background: var(--panel); outline: 2px solid var(--split); }
`

// documentLine is one numbered line of a document's page.
type documentLine struct {
	N    int
	Text string
}

// documentBody is the body of a document's page.
type documentBody struct {
	Name  string
	Lines []documentLine
}

// DocumentHTML returns the page of the shared document called name: its
// text with every line numbered and anchored (#L12), so that a quote's badge
// can link to its lines.
func DocumentHTML(run *tree.Run, name, text string) ([]byte, error) {
	body := documentBody{Name: visible(name)}
	for i, l := range strings.Split(strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n") {
		body.Lines = append(body.Lines, documentLine{N: i + 1, Text: visible(l)})
	}
	return newPage(run).finish(name, "document", body)
}

// documentLink is the link of a verified quote's badge: the document's copy
// at the quote's first line, its HTML page on a page.
func (r *report) documentLink(q tree.Quote) string {
	file := DocumentFile(q.Document)
	if r.html {
		file += ".html"
	}
	return fmt.Sprintf("%s#L%d", file, q.FirstLine)
}

// isDocumentLink reports whether dest is a link that documentLink makes,
// which a page may hold.
func isDocumentLink(dest string) bool {
	file, anchor, ok := strings.Cut(dest, "#L")
	return ok && strings.HasPrefix(file, documentsDir) && strings.HasSuffix(file, ".html") &&
		!strings.Contains(file, "..") && anchor != "" && strings.Trim(anchor, "0123456789") == ""
}

// quotesOf returns the recorded quotes of a debater's answer at a step of n;
// nil when none were recorded.
func quotesOf(n *tree.Node, participant string, step tree.Step) []tree.Quote {
	for _, a := range n.Quotes {
		if a.Participant == participant && a.Step == step {
			return a.Quotes
		}
	}
	return nil
}

// withQuotes returns an answer's text with each of its recorded quotes as a
// block quote ending in its badge: ✓ with the document and lines, linked to
// the document's copy, or ✗ with the reason. Text whose quotes were not
// recorded is returned as it is.
func (r *report) withQuotes(text string, qs []tree.Quote) string {
	if len(qs) == 0 {
		return text
	}
	i := 0
	out := quote.Replace(text, func(_, inner string) string {
		if i >= len(qs) {
			return inner
		}
		q := qs[i]
		i++
		var b strings.Builder
		b.WriteString(blockMark + "\n\n")
		for _, l := range strings.Split(strings.TrimSpace(inner), "\n") {
			b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
		}
		b.WriteString(">\n> " + r.badge(q) + "\n\n" + blockMark)
		return b.String()
	})
	return strings.TrimSpace(blockEdge.ReplaceAllString(out, ""))
}

// blockMark, a private-use character, marks the edges of a quote's block
// while it is made; blockEdge matches a mark with the spaces of the
// sentence the quote stood in.
const blockMark = "\uE001"

var blockEdge = regexp.MustCompile(`[ \t]*` + blockMark + `[ \t]*`)

// badge is a quote's verdict as a report shows it.
func (r *report) badge(q tree.Quote) string {
	w := r.w
	if q.Status != tree.QuoteVerified {
		return fmt.Sprintf("%s%s — %s", badgePrefix(r.nonce, false), w.quoteUnverified, inlineText(q.Reason))
	}
	where := fmt.Sprintf(w.quoteLineFmt, inlineText(q.Document), fmt.Sprint(q.FirstLine))
	if q.LastLine > q.FirstLine {
		where = fmt.Sprintf(w.quoteLinesFmt, inlineText(q.Document), fmt.Sprintf("%d–%d", q.FirstLine, q.LastLine))
	}
	return fmt.Sprintf("%s%s — [%s](%s)", badgePrefix(r.nonce, true), w.quoteVerified, where, r.documentLink(q))
}

// quoteLine writes the header line that counts each debater's quotes, when
// quotes were checked.
func (r *report) quoteLine(t *tree.QuoteTally) {
	if t == nil {
		return
	}
	var parts []string
	for _, p := range r.run.Debaters {
		c := t.ByDebater[p.ID]
		parts = append(parts, fmt.Sprintf(r.w.quoteCountFmt, inlineText(r.name(p.ID)), c.Made, c.Verified, c.Unverified))
	}
	r.headerLine(r.w.quotes, strings.Join(parts, "; "))
}
