package render

import (
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/debatehq/debate/tree"
)

func FuzzMermaid(f *testing.F) {
	for _, s := range hostileTitles {
		f.Add(s, "d1")
	}
	f.Fuzz(func(t *testing.T, title, id string) {
		root := tree.NewNode(tree.RootID, title, "")
		root.Children = []*tree.Node{tree.NewNode(id, title, "")}
		src := Mermaid(root)
		if _, err := parseMermaid(src); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
	})
}

// FuzzEmbedText checks that model text, however broken, neither swallows the
// heading that follows it nor puts a heading at or above its section's level
// at the top of the document.
func FuzzEmbedText(f *testing.F) {
	for _, s := range []string{hostileAnswer, "# a\n```\n# b", "a\n---", "<pre>\n\n# x", "~~~\n", "> # q\n> ```\n", "    # code\n# real", "x\n===\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const level = 4
		md := []byte("#### Section\n\n" + embedText(s, level) + "\n\n# END\n")
		doc := markdown.Parser().Parse(text.NewReader(md))
		last, ok := doc.LastChild().(*ast.Heading)
		if !ok || last.Level != 1 || string(last.Lines().Value(md)) != "END" {
			t.Fatalf("the heading after the text was swallowed:\n%s", md)
		}
		for c := doc.FirstChild().NextSibling(); c != last; c = c.NextSibling() {
			if h, ok := c.(*ast.Heading); ok && h.Level <= level {
				t.Fatalf("heading of level %d from model text:\n%s", h.Level, md)
			}
		}
	})
}
