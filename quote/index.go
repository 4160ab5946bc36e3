package quote

import (
	"index/suffixarray"
	"slices"
	"strings"
)

// Index is one document in the form quotes are compared in, with a suffix
// array of it, so that finding a quote costs about the quote's length and
// the logarithm of the document's, not the document's length: an answer
// of many quotes over a large document is checked at once. It is built
// once per document and is safe for concurrent use.
type Index struct {
	name  string
	text  string // in normal form
	lines lines
	sa    *suffixarray.Index
}

// NewIndex normalises and indexes d: a time and memory of a few times its
// size (a 2 MiB document takes about ten times that while it is built).
func NewIndex(d Document) *Index {
	text, at := normalize(d.Text)
	return &Index{name: d.Name, text: text, lines: at, sa: suffixarray.New([]byte(text))}
}

// locate returns the lines, first to last, of the first place in the
// document where text occurs, both normalised; ok is false when text is
// empty once normalised or does not occur.
func (x *Index) locate(text string) (first, last int, ok bool) {
	want, _ := normalize(text)
	return x.find(want)
}

// manyHits is how many places of a quote the suffix array is asked for:
// the first of fewer is the first place; a quote found this often is
// looked for from the document's start, where one so common stands.
const manyHits = 64

// find is locate of a quote already normalised.
func (x *Index) find(want string) (first, last int, ok bool) {
	if want == "" {
		return 0, 0, false
	}
	hits := x.sa.Lookup([]byte(want), manyHits)
	if len(hits) == 0 {
		return 0, 0, false
	}
	i := slices.Min(hits)
	if len(hits) == manyHits {
		i = strings.Index(x.text, want)
	}
	return x.lines.of(i), x.lines.of(i + len(want) - 1), true
}
