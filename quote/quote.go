// Package quote checks the quotes a debater makes from the shared documents
// and marks them for the readers that cannot see the documents.
//
// A debater quotes as <quote doc="NAME">exact text</quote>. A quote is
// verified when, after both sides are normalised (Unicode NFC, typographic
// quotes and dashes as ASCII, every run of white space as one space), its
// text occurs in the named document, or, without a name, in exactly one
// document. Each document is indexed once (Index), so that a quote costs
// about its own length to find, whatever the document's; an answer's first
// MaxQuotes quotes are checked and the rest are unverified, as too many.
// Marking rewrites every quote with the engine's verdict and drops whatever
// attributes the debater wrote, so that no answer can mark its own quote
// verified. The package does no I/O: documents that are not given at the
// start, such as a repository's files, come through an Opener.
package quote

import (
	"errors"
	"fmt"
	"html"
	"path"
	"regexp"
	"strings"
	"sync"
)

// DefaultMaxChars is the longest quote, in characters after normalising,
// that can be verified when no other limit is given.
const DefaultMaxChars = 600

// MaxQuotes is how many quotes of one answer are checked: those after are
// unverified with the reason TooMany, whatever they quote.
const MaxQuotes = 200

// Document is a text that may be quoted, under the name the debaters see.
type Document struct {
	Name string
	Text string
}

// Quote is one quote found in an answer and what the check made of it.
type Quote struct {
	// Text is the quoted text as written; Doc the document it named, if any.
	Text string
	Doc  string
	// Verified tells whether the text occurs where it says. A verified quote
	// has Document (the document's name) and the lines First to Last of it;
	// an unverified one has Reason.
	Verified    bool
	Document    string
	First, Last int
	Reason      Reason
}

// Lines is the quote's location as a line range: "12" or "12-14".
func (q Quote) Lines() string {
	if q.First == q.Last {
		return fmt.Sprint(q.First)
	}
	return fmt.Sprintf("%d-%d", q.First, q.Last)
}

// Verifier checks quotes against a fixed set of documents, and against
// those its Opener finds. It is safe for concurrent use.
type Verifier struct {
	docs     []*Index
	maxChars int
	open     Opener
	opened   *sync.Map // a document's name → *lazy, for the documents open found
}

// Opener finds a document that a quote names and the verifier was not
// given, such as a file of a repository. Its error is the reason the quote
// is unverified: a Reason (NoFile: "no file x.go in the repository"), or
// any other error, whose text is said as it is. It is called for
// each quote that names such a document, so it should remember what it
// read; the verifier indexes each document it returns once, by its name.
type Opener func(name string) (Document, error)

// lazy is a document an Opener found, indexed on first use.
type lazy struct {
	once sync.Once
	doc  *Index
}

// New returns a verifier of the indexed documents; maxChars of 0 or less
// means DefaultMaxChars.
func New(docs []*Index, maxChars int) *Verifier {
	if maxChars <= 0 {
		maxChars = DefaultMaxChars
	}
	return &Verifier{docs: docs, maxChars: maxChars}
}

// WithOpener returns a verifier of v's documents that also checks a quote
// naming any other document against the document open returns for that
// name. A quote that names no document is still checked against v's
// documents only.
func (v *Verifier) WithOpener(open Opener) *Verifier {
	w := *v
	w.open, w.opened = open, &sync.Map{}
	return &w
}

// tagRE finds an opening quote tag with its attributes, its text and its
// closing tag; a tag left open or a closing tag alone is found by strayRE.
var (
	tagRE   = regexp.MustCompile(`(?is)<quote\b([^<>]*)>(.*?)</quote\s*>`)
	strayRE = regexp.MustCompile(`(?i)<(/?)quote\b`)
	docRE   = regexp.MustCompile(`(?i)\bdoc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
)

// Find returns the quotes of text, checked, in order.
func (v *Verifier) Find(text string) []Quote {
	var out []Quote
	for _, m := range tagRE.FindAllStringSubmatch(text, -1) {
		out = append(out, v.check(len(out), docAttr(m[1]), m[2]))
	}
	return out
}

// Mark returns text with every quote rewritten as the engine's verdict,
// <quote status="verified" doc="NAME" lines="12-14">…</quote> or
// <quote status="unverified" reason="…">…</quote>, and the quotes in order.
// Any other quote tag in text (left open, closed alone, nested) is escaped,
// so that the only quote markings in the result are the engine's.
func (v *Verifier) Mark(text string) (string, []Quote) {
	var out []Quote
	marked := Replace(text, func(doc, inner string) string {
		q := v.check(len(out), doc, inner)
		out = append(out, q)
		return q.Marking()
	})
	return marked, out
}

// Marking is the quote as the engine shows it to a reader.
func (q Quote) Marking() string {
	inner := Escape(q.Text)
	if q.Verified {
		return fmt.Sprintf(`<quote status="verified" doc="%s" lines="%s">%s</quote>`,
			html.EscapeString(q.Document), q.Lines(), inner)
	}
	return fmt.Sprintf(`<quote status="unverified" reason="%s">%s</quote>`, html.EscapeString(q.Reason.String()), inner)
}

// Replace returns text with each well-formed quote replaced by fn of its
// doc attribute and text, and every other quote tag escaped.
func Replace(text string, fn func(doc, inner string) string) string {
	var b strings.Builder
	last := 0
	for _, m := range tagRE.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(Escape(text[last:m[0]]))
		b.WriteString(fn(docAttr(text[m[2]:m[3]]), text[m[4]:m[5]]))
		last = m[1]
	}
	b.WriteString(Escape(text[last:]))
	return b.String()
}

// Escape turns every quote tag in s into text that no reader takes for a
// tag: "<quote" becomes "&lt;quote", "</quote" "&lt;/quote".
func Escape(s string) string {
	return strayRE.ReplaceAllString(s, "&lt;${1}quote")
}

// docAttr is the doc attribute of a tag's attributes, "" when there is none.
func docAttr(attrs string) string {
	m := docRE.FindStringSubmatch(attrs)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1] + m[2] + m[3])
}

// check verifies the answer's quote number i (from 0) against the
// document named doc, or every document when doc is empty.
func (v *Verifier) check(i int, doc, inner string) Quote {
	q := Quote{Text: inner, Doc: doc}
	if i >= MaxQuotes {
		return q.unverified(Because(TooMany))
	}
	want, _ := normalize(inner)
	switch {
	case strayRE.MatchString(inner):
		return q.unverified(Because(Nested))
	case want == "":
		return q.unverified(Because(Empty))
	case len([]rune(want)) > v.maxChars:
		return q.unverified(Because(TooLong, v.maxChars))
	}
	docs := v.docs
	if doc != "" {
		d, reason := v.document(doc)
		if d == nil {
			return q.unverified(reason)
		}
		docs = []*Index{d}
	} else if len(docs) == 0 && v.open != nil {
		return q.unverified(Because(NoName))
	}
	found := 0
	for _, d := range docs {
		if first, last, ok := d.find(want); ok {
			found++
			q.Document, q.First, q.Last = d.name, first, last
		}
	}
	switch {
	case found == 0 && doc != "":
		return q.unverified(Because(NotFoundIn, doc))
	case found == 0:
		return q.unverified(Because(NotFound))
	case found > 1:
		q.Document, q.First, q.Last = "", 0, 0
		return q.unverified(Because(Ambiguous))
	}
	q.Verified = true
	return q
}

func (q Quote) unverified(reason Reason) Quote {
	q.Reason = reason
	return q
}

// document is the document a quote names: one of v's, else the one its
// Opener finds; reason says why there is none (d is nil).
func (v *Verifier) document(name string) (d *Index, reason Reason) {
	if d, ok := v.named(name); ok {
		return d, Reason{}
	}
	if v.open == nil {
		return nil, Because(NoDocument, name)
	}
	found, err := v.open(name)
	if errors.As(err, &reason) {
		return nil, reason
	}
	if err != nil {
		return nil, Because(Text, err)
	}
	l, _ := v.opened.LoadOrStore(found.Name, &lazy{})
	lz := l.(*lazy)
	lz.once.Do(func() { lz.doc = NewIndex(found) })
	return lz.doc, Reason{}
}

// named is the document called name: by its full name, or by its base name
// when only one document has it.
func (v *Verifier) named(name string) (*Index, bool) {
	var base []*Index
	for _, d := range v.docs {
		if d.name == name {
			return d, true
		}
		if path.Base(d.name) == name {
			base = append(base, d)
		}
	}
	if len(base) == 1 {
		return base[0], true
	}
	return nil, false
}
