package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// rawAsText renders the raw HTML goldmark finds in Markdown (inline tags and
// HTML blocks) as escaped text, so that "Vec<String>" or "<b>x</b>" in a
// model's answer shows as written instead of becoming markup or vanishing.
// It is registered ahead of goldmark's own HTML renderer.
type rawAsText struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (rawAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var b bytes.Buffer
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		b.Write(seg.Value(source))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(source))
	}
	_, _ = w.WriteString(`<p class="raw">`)
	_, _ = w.Write(util.EscapeHTML(bytes.TrimRight(b.Bytes(), "\n")))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkContinue, nil
}

// sanitize makes a parsed document safe to show and to serve under a content
// security policy that forbids style attributes: every image becomes a link
// to it (a page never loads anything), a link to anything but http(s),
// mailto, a place in the page or one of the run's own pages (as the function
// under ownPages in the parser context says) becomes its plain text, and a table cell's
// alignment becomes a class ("align-right") rather than a style attribute.
type sanitize struct{}

// Transform implements parser.ASTTransformer.
func (sanitize) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	source := reader.Source()
	own, _ := pc.Get(ownPages).(func(dest string) bool)
	if own == nil {
		own = func(string) bool { return false }
	}
	var images, unsafe []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			images = append(images, n)
		case *ast.Link:
			if !allowedURL(n.Destination) && !own(string(n.Destination)) {
				unsafe = append(unsafe, n)
			}
		case *ast.AutoLink:
			url := n.URL(source)
			if n.AutoLinkType == ast.AutoLinkEmail {
				url = append([]byte("mailto:"), url...)
			}
			if !allowedURL(url) {
				unsafe = append(unsafe, n)
			}
		case *east.TableCell:
			if n.Alignment != east.AlignNone {
				n.SetAttributeString("class", []byte("align-"+n.Alignment.String()))
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range images {
		img := n.(*ast.Image)
		link := ast.NewLink()
		link.Destination = img.Destination
		link.Title = img.Title
		moveChildren(link, img)
		img.Parent().ReplaceChild(img.Parent(), img, link)
		if !allowedURL(link.Destination) {
			unsafe = append(unsafe, link)
		}
	}
	for _, n := range unsafe {
		parent := n.Parent()
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, a, ast.NewString(a.Label(source)))
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

// moveChildren moves every child of from to the end of to.
func moveChildren(to, from ast.Node) {
	for c := from.FirstChild(); c != nil; {
		next := c.NextSibling()
		to.AppendChild(to, c)
		c = next
	}
}

// allowedURL reports whether a link may point at url: a place in the page
// ("#…"), or an http, https or mailto address.
func allowedURL(url []byte) bool {
	u := strings.TrimSpace(string(url))
	if strings.HasPrefix(u, "#") {
		return true
	}
	scheme, _, ok := strings.Cut(u, ":")
	if !ok {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "mailto":
		return true
	}
	return false
}
