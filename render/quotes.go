package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// DocumentsDir is the folder of the run's output that holds a copy of each
// shared document a verified quote points into, and its page.
const DocumentsDir = "documents"

// maxDocumentFile is the longest name DocumentFile gives a copy, in bytes,
// well below the 255 most file systems allow.
const maxDocumentFile = 200

// DocumentFile returns the path, relative to a run's output folder, of the
// copy of the shared document called name (as sharedContext.files names it)
// that the Markdown reports link quotes to: documents/ and the name with
// its folders joined by "__" ("." and empty folders left out), and every
// byte other than an ASCII letter, a digit, '.' or '-' written as '_' and
// two hex digits (a space as "_20", '_' as "_5f"; a ".." folder and a
// leading '/' too). No two names share a copy: the encoding can be read
// back, and a name whose encoding is longer than 200 bytes is cut and ends
// in '~' and a hash of the whole name, a character no encoding holds. Its
// HTML page, with numbered lines, is the same path plus ".html".
func DocumentFile(name string) string {
	var parts []string
	if strings.HasPrefix(name, "/") {
		parts = append(parts, "_2f")
	}
	for _, p := range strings.Split(name, "/") {
		switch p {
		case "", ".":
			continue
		case "..":
			p = "_2e_2e"
		default:
			p = fileSafe(p)
		}
		parts = append(parts, p)
	}
	file := strings.Join(parts, "__")
	if len(file) > maxDocumentFile {
		sum := sha256.Sum256([]byte(name))
		file = file[:maxDocumentFile-17] + "~" + hex.EncodeToString(sum[:8])
	}
	return DocumentsDir + "/" + file
}

// fileSafe writes each byte of s that is not an ASCII letter, a digit, '.'
// or '-' as '_' and its two hex digits.
func fileSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "_%02x", c)
	}
	return b.String()
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
// at the quote's lines (#L12, or #L12-L14 as GitHub marks a range of
// lines), its HTML page at the first line on a page.
func (r *report) documentLink(q tree.Quote) string {
	file := DocumentFile(q.Document)
	if r.html {
		return fmt.Sprintf("%s.html#L%d", file, q.FirstLine)
	}
	if q.LastLine > q.FirstLine {
		return fmt.Sprintf("%s#L%d-L%d", file, q.FirstLine, q.LastLine)
	}
	return fmt.Sprintf("%s#L%d", file, q.FirstLine)
}

// isDocumentLink reports whether dest is a link that documentLink makes,
// which a page may hold.
func isDocumentLink(dest string) bool {
	file, anchor, ok := strings.Cut(dest, "#L")
	return ok && strings.HasPrefix(file, DocumentsDir+"/") && strings.HasSuffix(file, ".html") &&
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

// quoteReason says why a quote is unverified in the report's language;
// a quote of a run.json written before reasons were codes keeps the
// verifier's English words.
func (w *words) quoteReason(q tree.Quote) string {
	if len(q.Because) == 0 {
		return q.Reason
	}
	return w.say(q.Because, "")
}

// badge is a quote's verdict as a report shows it.
func (r *report) badge(q tree.Quote) string {
	w := r.w
	if q.Status != tree.QuoteVerified {
		return fmt.Sprintf("%s%s — %s", badgePrefix(r.nonce, false), w.quoteUnverified, inlineText(w.quoteReason(q)))
	}
	where := w.quoteLineFmt(inlineText(q.Document), fmt.Sprint(q.FirstLine))
	if q.LastLine > q.FirstLine {
		where = w.quoteLinesFmt(inlineText(q.Document), fmt.Sprintf("%d–%d", q.FirstLine, q.LastLine))
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
		parts = append(parts, r.w.quoteCountFmt(inlineText(r.name(p.ID)), c.Made, c.Verified, c.Unverified))
	}
	label := r.w.quotes
	if r.run.Repository != nil {
		label = r.w.quotesRepository
	}
	r.headerLine(label, strings.Join(parts, "; "))
	r.repositoryLine()
}

// repositoryLine writes the header line that names the state of the
// repository the debaters quoted, when they could quote one.
func (r *report) repositoryLine() {
	repo := r.run.Repository
	if repo == nil {
		return
	}
	state := r.w.repoNoCommit
	if repo.Head != "" {
		state = r.w.repositoryFmt(short(repo.Head))
	}
	if repo.Dirty != "" {
		state += r.w.repositoryDirty(short(repo.Dirty))
	}
	r.headerLine(r.w.repository, state)
}

// short is the first 12 characters of a commit or a digest, as git
// abbreviates one.
func short(hash string) string { return hash[:min(len(hash), 12)] }
