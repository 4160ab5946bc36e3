package render

import (
	"bytes"
	"fmt"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the one goldmark instance every page goes through: GFM with its
// renderer in safe mode (raw HTML is omitted and javascript:, vbscript:,
// file: and non-image data: links are emptied). It is safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(imagesToLinks{}, 100)),
	),
)

// imagesToLinks replaces every image with a link to it, so that a page never
// loads anything from the network.
type imagesToLinks struct{}

// Transform implements parser.ASTTransformer.
func (imagesToLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		link := ast.NewLink()
		link.Destination = img.Destination
		link.Title = img.Title
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
	}
}

// HTML renders Markdown into a self-contained HTML page with the given title:
// inline styles for light and dark mode that read on a phone, a content
// security policy that forbids scripts and every network request, and the
// Markdown's raw HTML and unsafe links dropped. Mermaid blocks stay code.
func HTML(title string, md []byte) ([]byte, error) {
	var body bytes.Buffer
	if err := markdown.Convert(md, &body); err != nil {
		return nil, fmt.Errorf("render html %q: %w", title, err)
	}
	var page bytes.Buffer
	page.Grow(len(pageHead) + len(pageStyle) + body.Len() + 256)
	fmt.Fprintf(&page, pageHead, html.EscapeString(title), pageStyle)
	page.Write(body.Bytes())
	page.WriteString("</main>\n</body>\n</html>\n")
	return page.Bytes(), nil
}

const pageHead = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="referrer" content="no-referrer">
<title>%s</title>
<style>%s</style>
</head>
<body>
<main>
`

const pageStyle = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --link: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --code: #151b23; --link: #4493f8; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: var(--bg); font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; }
h1, h2, h3, h4, h5, h6 { line-height: 1.3; margin: 1.5em 0 0.5em; }
h1 { font-size: 1.7rem; } h2 { font-size: 1.4rem; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
h3 { font-size: 1.2rem; } h4 { font-size: 1.05rem; } h5, h6 { font-size: 1rem; color: var(--muted); }
a { color: var(--link); }
hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0; }
blockquote { margin: 1rem 0; padding: 0 1rem; color: var(--muted); border-left: 0.25rem solid var(--line); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
code { background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: var(--code); padding: 0.8rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; overflow-wrap: normal; }
img { max-width: 100%; }
`
