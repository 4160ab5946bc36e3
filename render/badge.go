package render

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// A quote's badge on a page is coloured by its verdict: the report writes
// the badge after a mark of its own (badgeMark, a nonce drawn for the page,
// then + or -), and badges, knowing the nonce, gives the badge's paragraph
// the class "badge ok" or "badge bad" and drops the mark. Text a model
// wrote cannot hold the nonce, so it cannot pass for a verdict.
const badgeMark = "\uE002"

// badgeNonce is the parser context key of the page's nonce, a string.
var badgeNonce = parser.NewContextKey()

// newNonce returns a nonce for a page's badges.
func newNonce() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// badgePrefix is the mark a verified (ok) or unverified badge starts with
// on a page of the given nonce; empty without one.
func badgePrefix(nonce string, ok bool) string {
	if nonce == "" {
		return ""
	}
	if ok {
		return badgeMark + nonce + "+"
	}
	return badgeMark + nonce + "-"
}

// badges classes the paragraphs that open with a badge mark of the page's
// nonce, and drops the mark.
type badges struct{}

func (badges) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	nonce, _ := pc.Get(badgeNonce).(string)
	if nonce == "" {
		return
	}
	source := reader.Source()
	marks := [...]struct{ class, mark string }{{"badge ok", badgePrefix(nonce, true)}, {"badge bad", badgePrefix(nonce, false)}}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		p, ok := n.(*ast.Paragraph)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		t, ok := p.FirstChild().(*ast.Text)
		if !ok {
			return ast.WalkSkipChildren, nil
		}
		v := t.Segment.Value(source)
		for _, m := range marks {
			if bytes.HasPrefix(v, []byte(m.mark)) {
				p.SetAttributeString("class", []byte(m.class))
				t.Segment = t.Segment.WithStart(t.Segment.Start + len(m.mark))
				break
			}
		}
		return ast.WalkSkipChildren, nil
	})
}
