package render

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// markdown is the one goldmark instance every page goes through: GFM, with
// raw HTML shown as escaped text (rawAsText), links only to http(s), mailto
// or the page itself, images turned into links and table alignment carried by
// classes (sanitize), wide tables ready to stack on a phone (labelCells),
// and a line break kept where the writer put one (hard wraps: "Question: …"
// and "Context: …" on lines of their own stay two lines). It is safe for
// concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)),
		extension.Strikethrough, extension.Linkify, extension.TaskList,
	),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(sanitize{}, 100), util.Prioritized(labelCells{}, 200), util.Prioritized(badges{}, 300)),
	),
	goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 100)),
		html.WithHardWraps(),
	),
)

// templates holds the pages' templates: page.html, the frame every page
// shares (the head with its content security policy and style sheet, the
// demo banner), and one body per kind of page.
//
//go:embed templates
var templates embed.FS

// pageTemplates maps a kind of page to its templates: the frame and the
// kind's body. html/template escapes every value they are given but the
// Markdown goldmark renders (template.HTML), which is escaped and
// sanitized as it renders.
var pageTemplates = map[string]*template.Template{
	"topic":    parsePage("templates/topic.html"),
	"motion":   parsePage("templates/motion.html"),
	"summary":  parsePage("templates/markdown.html"),
	"markdown": parsePage("templates/markdown.html"),
	"document": parsePage("templates/document.html"),
}

// parsePage parses the frame with the body template of the given file.
func parsePage(body string) *template.Template {
	return template.Must(template.New("page").ParseFS(templates, "templates/page.html", body))
}

// pageData is what a page's template fills in. Body is the kind's own data:
// a topicBody, a motionBody, or rendered Markdown (template.HTML).
type pageData struct {
	Lang  string // the html element's lang, none when empty
	Title string
	Style template.CSS
	Kind  string // the body's class: "topic", "motion", "summary", "markdown" or "document"
	Demo  string // the demo banner, none when empty
	Body  any
}

// renderPage renders a page through its kind's template, with control
// characters made visible.
func renderPage(d pageData) ([]byte, error) {
	t, ok := pageTemplates[d.Kind]
	if !ok {
		return nil, fmt.Errorf("render html: no page template for %q", d.Kind)
	}
	var out bytes.Buffer
	if err := t.ExecuteTemplate(&out, "page", d); err != nil {
		return nil, fmt.Errorf("render %s page: %w", d.Kind, err)
	}
	return []byte(visible(out.String())), nil
}

// topicBody is the body of a topic's page.
type topicBody struct {
	Heading    string
	Intro      template.HTML
	Overview   *overview // nil for a topic without a tree
	Nodes      []nodeView
	Ledger     template.HTML // the stance ledger's Markdown; empty without one
	Conclusion string
	End        template.HTML // the conclusion's Markdown
}

// overview is the table of contents beside the tree's drawing.
type overview struct {
	Contents, Conclusion string
	TOC                  tocItem
	Tree                 svgView
	Legend               string
	Keys                 []legendKey
}

// tocItem is a node's entry in the table of contents.
type tocItem struct {
	Anchor, Class, ID, Title, Status string
	Children                         []tocItem
}

// legendKey is a status colour and its word.
type legendKey struct{ Class, Word string }

// nodeView is a node's foldable section.
type nodeView struct {
	Class, Anchor, Heading, Status string
	Between                        template.HTML // who disagrees, for a child node
	Steps                          []stepView    // positions and rebuttals
	Triage                         string
	Judgment                       template.HTML
	Reasoning                      *reasoningView // the judge's
	End                            template.HTML  // the node's status
}

// stepView is a step's heading and its answers as columns, or the note that
// the step was not reached.
type stepView struct {
	Heading    string
	Cols       []colView
	NotReached template.HTML
}

// colView is one debater's answer.
type colView struct {
	Missing   bool
	Body      template.HTML
	Reasoning *reasoningView
}

// reasoningView is a model's reasoning, folded.
type reasoningView struct {
	Summary string
	Body    template.HTML
}

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
th.align-right, td.align-right { text-align: right; }
th.align-center, td.align-center { text-align: center; }
th.align-left, td.align-left { text-align: left; }
p.badge { display: inline-block; margin: 0.3rem 0; padding: 0.05rem 0.6rem; border-radius: 1rem; font-size: 0.9em; font-weight: 600; }
p.badge.ok { color: #116329; background: #dafbe1; border: 1px solid #4ac26b; }
p.badge.bad { color: #a40e26; background: #ffebe9; border: 1px solid #ff8182; }
p.badge a { color: inherit; }
@media (prefers-color-scheme: dark) {
  p.badge.ok { color: #56d364; background: #12261e; border-color: #2ea043; }
  p.badge.bad { color: #ff7b72; background: #2d1214; border-color: #da3633; }
}
p.raw { white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
`
