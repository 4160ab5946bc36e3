package render

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// stackColumns is how many columns a table needs before a narrow window
// shows it as one block per row instead of letting it scroll sideways.
const stackColumns = 4

// labelCells prepares tables for narrow windows: a table of stackColumns
// columns or more gets the class "stack", and each of its cells a
// data-label attribute holding its column's heading, which the style sheet
// shows beside the value when the rows are stacked.
type labelCells struct{}

// Transform implements parser.ASTTransformer.
func (labelCells) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		table, ok := n.(*east.Table)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if len(table.Alignments) < stackColumns {
			return ast.WalkSkipChildren, nil
		}
		table.SetAttributeString("class", []byte("stack"))
		var labels [][]byte
		for row := table.FirstChild(); row != nil; row = row.NextSibling() {
			_, header := row.(*east.TableHeader)
			i := 0
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				switch {
				case header:
					labels = append(labels, plainText(cell, source))
				case i < len(labels):
					cell.SetAttributeString("data-label", labels[i])
				}
				i++
			}
		}
		return ast.WalkSkipChildren, nil
	})
}

// plainText returns the text of n's inline content, without its markup;
// inline HTML counts as text, as the page shows it.
func plainText(n ast.Node, source []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(util.UnescapePunctuations(n.Value(source)))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.AutoLink:
			b.Write(n.URL(source))
		case *ast.RawHTML:
			// Shown as written by the safe renderer, so as written here.
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(source))
			}
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return bytes.TrimSpace(b.Bytes())
}
