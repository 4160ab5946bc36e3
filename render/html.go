package render

import (
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
		parser.WithASTTransformers(util.Prioritized(sanitize{}, 100), util.Prioritized(labelCells{}, 200)),
	),
	goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 100)),
		html.WithHardWraps(),
	),
)

const pageHead = `<!DOCTYPE html>
<html%s>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="referrer" content="no-referrer">
<title>%s</title>
<style>%s</style>
</head>
<body class="%s">
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
th.align-right, td.align-right { text-align: right; }
th.align-center, td.align-center { text-align: center; }
th.align-left, td.align-left { text-align: left; }
p.raw { white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
`
