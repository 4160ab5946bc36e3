package render

import (
	"html"
	"regexp"
	"strings"
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

// FuzzFragment checks that no Markdown, however hostile, renders to an
// element that runs script, loads anything or links to a script URL: the
// only tags in the output are goldmark's own, and every href is allowed.
func FuzzFragment(f *testing.F) {
	for _, s := range []string{hostileAnswer, "<b>x</b> Vec<String>", "[a](javascript:alert(1))", "<JaVaScRiPt:alert(2)>",
		"![x](https://t.example/p.gif)", "[r](topic-a.md) [s](../x.md)", "| a |\n|--:|\n| 1 |", "<div onclick=x>\n\nhi\n</div>"} {
		f.Add(s)
	}
	tag := regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)
	allowed := map[string]bool{}
	for _, name := range strings.Fields("p a em strong code pre ul ol li blockquote h1 h2 h3 h4 h5 h6 hr br table thead tbody tr th td del input") {
		allowed[name] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Fragment([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tag.FindAllStringSubmatch(string(out), -1) {
			name, attrs := strings.ToLower(m[2]), strings.ToLower(m[3])
			if !allowed[name] {
				t.Fatalf("element <%s> in:\n%s", name, out)
			}
			if regexp.MustCompile(`\s(on[a-z]+|src|srcset|style)=`).MatchString(attrs) {
				t.Fatalf("attribute in <%s%s>:\n%s", name, m[3], out)
			}
			if href := regexp.MustCompile(`href="([^"]*)"`).FindStringSubmatch(m[3]); href != nil {
				u := html.UnescapeString(href[1])
				if !allowedURL([]byte(u)) && !siblingReport(u) {
					t.Fatalf("link to %q in:\n%s", u, out)
				}
			}
		}
	})
}

// FuzzMayHoldHeading checks that settleHeadings skips the parse of no text in
// which the report's parser finds a heading.
func FuzzMayHoldHeading(f *testing.F) {
	for _, s := range []string{hostileAnswer, "a\n---", "x\n===\n", "- a\n  b\n  ---", "> > a\n> > =", "1. a\n\t-- \t", "plain prose", "- - -"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if mayHoldHeading(s) {
			return
		}
		src := []byte(s)
		_ = ast.Walk(markdown.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n.(*ast.Heading); ok && entering {
				t.Fatalf("a heading in text said to hold none:\n%q", s)
			}
			return ast.WalkContinue, nil
		})
	})
}
