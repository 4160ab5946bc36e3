package render

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/parser"

	"github.com/debatehq/debate/tree"
)

// ownPages is the parser context key of a func(dest string) bool that tells
// which other links a page may hold besides http(s), mailto and its own
// anchors: links to the run's other pages.
var ownPages = parser.NewContextKey()

// TopicHTML returns the HTML page of one topic: the report's header, the
// tree drawn as an inline SVG whose nodes link to their sections, a table of
// contents, one foldable section per node with the debaters' positions and
// rebuttals side by side when the page is wide, and the conclusion. Like
// HTML it is self-contained, runs no script and loads nothing.
func TopicHTML(run *tree.Run, t *tree.Topic) ([]byte, error) {
	p := &page{r: &report{run: run, w: wordsFor(run)}}
	w := p.r.w
	p.demo()
	p.tag("h1", fmt.Sprintf(w.topicHeading, t.ID, t.Title))
	p.md(func(r *report) { r.topicIntro(t) })
	if t.Root != nil {
		p.b.WriteString(`<div class="overview">` + "\n")
		p.b.WriteString(`<nav class="toc">` + "\n")
		p.tag("h2", w.contents)
		p.toc(t.Root)
		fmt.Fprintf(&p.b, "<p><a href=\"#conclusion\">%s</a></p>\n", html.EscapeString(w.conclusion))
		p.b.WriteString("</nav>\n")
		svg, wide := svgTree(t.Root, w)
		if wide {
			p.b.WriteString(`<figure class="tree wide">` + "\n")
		} else {
			p.b.WriteString(`<figure class="tree">` + "\n")
		}
		p.b.WriteString(svg)
		p.legend()
		p.b.WriteString("</figure>\n</div>\n")
	}
	t.Root.Walk(p.node)
	p.b.WriteString(`<section id="conclusion">` + "\n")
	p.tag("h2", w.conclusion)
	// The SVG at the top draws the tree; the text tree stays for copying.
	p.md(func(r *report) { r.topicEnd(t, false) })
	p.b.WriteString("</section>\n")
	return p.finish(fmt.Sprintf(w.topicHeading, t.ID, t.Title), "topic")
}

// SummaryHTML returns the HTML page of summary.md: every topic and motion
// linked to its page, the table as wide as the window. pages maps a topic
// or motion id to the file name of its HTML page.
func SummaryHTML(run *tree.Run, pages map[string]string) ([]byte, error) {
	// The page says "demo" in its own banner, not in the Markdown's words.
	plain := *run
	plain.Demo = false
	md := Summary(&plain, pages)
	allowed := map[string]bool{}
	for _, name := range pages {
		allowed[name] = true
	}
	ctx := parser.NewContext()
	ctx.Set(ownPages, func(dest string) bool { return allowed[dest] })
	var body bytes.Buffer
	if err := markdown.Convert(md, &body, parser.WithContext(ctx)); err != nil {
		return nil, fmt.Errorf("render summary html: %w", err)
	}
	p := &page{r: &report{run: run, w: wordsFor(run)}}
	p.demo()
	p.b.Write(body.Bytes())
	title, _, _ := strings.Cut(string(md), "\n")
	return p.finish(strings.TrimPrefix(title, "# "), "summary")
}

// page accumulates the body of an HTML page.
type page struct {
	r   *report
	b   bytes.Buffer
	err error
}

// tag writes text, escaped, as an element.
func (p *page) tag(name, text string) {
	fmt.Fprintf(&p.b, "<%s>%s</%s>\n", name, html.EscapeString(text), name)
}

// md renders the Markdown that fill writes into the page.
func (p *page) md(fill func(r *report)) {
	r := &report{run: p.r.run, w: p.r.w, reports: p.r.reports}
	fill(r)
	if err := markdown.Convert([]byte(r.b.String()), &p.b); err != nil && p.err == nil {
		p.err = fmt.Errorf("render html: %w", err)
	}
}

// demo writes the banner of a demo run.
func (p *page) demo() {
	if p.r.run.Demo {
		fmt.Fprintf(&p.b, "<p class=\"demo\">%s</p>\n", html.EscapeString(p.r.w.demo))
	}
}

// toc writes the table of contents of the tree under n as nested lists.
func (p *page) toc(n *tree.Node) {
	p.b.WriteString("<ol>\n")
	var item func(n *tree.Node)
	item = func(n *tree.Node) {
		fmt.Fprintf(&p.b, `<li><a href="#%s"><span class="dot st-%s"></span>%s — %s</a> <span class="st st-%s">%s</span>`,
			nodeAnchor(n.ID), statusClass(n.Status), html.EscapeString(n.ID), html.EscapeString(shorten(n.Title, 2*titleRunes)),
			statusClass(n.Status), html.EscapeString(p.r.w.statusWord(n.Status)))
		if len(n.Children) > 0 {
			p.b.WriteString("\n<ol>\n")
			for _, c := range n.Children {
				item(c)
			}
			p.b.WriteString("</ol>\n")
		}
		p.b.WriteString("</li>\n")
	}
	item(n)
	p.b.WriteString("</ol>\n")
}

// legend writes what each status colour means.
func (p *page) legend() {
	p.b.WriteString(`<figcaption class="legend">`)
	p.b.WriteString(html.EscapeString(p.r.w.legend + p.r.w.colon))
	for _, s := range []tree.Status{tree.Split, tree.Converged, tree.Partial, tree.Forced, tree.Failed, tree.Interrupted} {
		fmt.Fprintf(&p.b, ` <span class="key"><span class="dot st-%s"></span>%s</span>`, statusClass(s), html.EscapeString(p.r.w.statusWord(s)))
	}
	p.b.WriteString("</figcaption>\n")
}

// node writes one node's foldable section.
func (p *page) node(n *tree.Node) {
	w := p.r.w
	heading := fmt.Sprintf(w.roundRoot, n.Round)
	if n.ID != tree.RootID {
		heading = fmt.Sprintf(w.roundChild, n.Round, n.ID, n.Title)
	}
	fmt.Fprintf(&p.b, "<details class=\"node st-%s\" id=\"%s\" open>\n<summary><h2>%s</h2> <span class=\"st st-%s\">%s</span></summary>\n",
		statusClass(n.Status), nodeAnchor(n.ID), html.EscapeString(heading), statusClass(n.Status), html.EscapeString(w.statusWord(n.Status)))
	if d := n.Divergence; d != nil && len(d.Sides) > 0 {
		p.md(func(r *report) {
			r.printf("*"+w.between, r.names(r.sideIDs(d.Sides), " vs "))
			if len(d.Uninvolved) > 0 {
				r.printf(w.uninvolvedFmt, r.names(d.Uninvolved, w.listSep))
			}
			r.b.WriteString("*\n")
		})
	}
	p.tag("h3", w.positions)
	p.answers(p.r.answerList(n, n.Positions, tree.StepPosition, func(id string) string {
		return inlineText(p.r.name(id)) + " — " + p.r.nodeModel(n.Models, id)
	}))
	p.tag("h3", w.rebuttals)
	p.answers(p.r.answerList(n, n.Rebuttals, tree.StepRebuttal, func(id string) string {
		return p.r.rebuttalTitle(n, id)
	}))
	if n.Judgment != nil && len(n.Judgment.ForcedVerdicts) > 0 || n.Status == tree.Forced {
		p.tag("h3", w.forcedTriage)
	} else {
		p.tag("h3", w.triage)
	}
	p.md(func(r *report) { r.judgment(n) })
	p.reasoning(reasoningOf(n, p.r.run.Judge.ID, tree.StepJudge))
	p.md(func(r *report) { r.status(n) })
	p.b.WriteString("</details>\n")
}

// reasoning folds a model's reasoning, given beside its answer, under that
// answer; it writes nothing when there is none.
func (p *page) reasoning(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(&p.b, "<details class=\"reasoning\">\n<summary>%s</summary>\n", html.EscapeString(p.r.w.modelReasoning))
	p.md(func(r *report) { r.printf("%s\n", embedText(text, 5)) })
	p.b.WriteString("</details>\n")
}

// answers writes the debaters' parts of a step as columns.
func (p *page) answers(list []answer) {
	if list == nil {
		p.md(func(r *report) { r.printf("*%s*\n", r.w.notReached) })
		return
	}
	p.b.WriteString(`<div class="cols">` + "\n")
	for _, a := range list {
		class := "col"
		if a.missing {
			class += " missing"
		}
		fmt.Fprintf(&p.b, "<section class=\"%s\">\n", class)
		p.md(func(r *report) { r.printf("#### %s\n\n%s\n", a.title, a.body) })
		p.reasoning(a.reasoning)
		p.b.WriteString("</section>\n")
	}
	p.b.WriteString("</div>\n")
}

// finish wraps the body in a page of the given title and kind ("topic",
// "summary"), which sets the body's class, with control characters made
// visible.
func (p *page) finish(title, kind string) ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	var out bytes.Buffer
	out.Grow(len(pageHead) + len(pageStyle) + len(reportStyle) + p.b.Len() + 256)
	lang := ` lang="en"`
	if p.r.run.Language == "zh" {
		// Lets the browser pick Chinese glyphs for characters Chinese and
		// Japanese share.
		lang = ` lang="zh"`
	}
	fmt.Fprintf(&out, pageHead, lang, html.EscapeString(visible(title)), pageStyle+reportStyle, kind)
	out.WriteString(visible(p.b.String()))
	out.WriteString("</main>\n</body>\n</html>\n")
	return out.Bytes(), nil
}

// nodeAnchor returns the id attribute of a node's section.
func nodeAnchor(id string) string {
	return "node-" + html.EscapeString(strings.NewReplacer(" ", "-", "#", "-").Replace(id))
}

// statusClass returns the CSS class suffix of a status.
func statusClass(s tree.Status) string {
	switch s {
	case tree.Split, tree.Converged, tree.Partial, tree.Forced, tree.Failed, tree.Interrupted:
		return string(s)
	}
	return "pending"
}

// reportStyle is the part of the style sheet the topic, motion and summary
// pages add: status colours and badges, the tree, the table of contents,
// foldable node sections, argument sections, columns of positions and a
// summary table that fits the window (1,024 px and up) without scrolling
// sideways: compact numeric columns with small wrapping headers, the topic
// column taking the slack. Under 40rem a
// wide table (labelCells) shows one block per row, each value beside its
// column's heading; a tree drawing scales to the width, and one too wide
// to read at that scale gives way to the table of contents beside it.
const reportStyle = `
:root { --split: #0969da; --converged: #1a7f37; --forced: #9a6700; --failed: #cf222e; --interrupted: #6e7781; --pending: #8c959f; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --split: #4493f8; --converged: #3fb950; --forced: #d29922; --failed: #f85149; --interrupted: #9198a1; --panel: #151b23; }
}
body.topic main, body.summary main { max-width: 96rem; }
.demo { margin: 0 0 1rem; padding: 0.5rem 0.8rem; border: 2px dashed var(--forced); border-radius: 6px; font-weight: 600; }
.overview { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; margin: 1rem 0 2rem; }
.toc { flex: 1 1 18rem; max-width: 36rem; }
.toc h2 { margin-top: 0; }
.toc ol { list-style: none; padding-left: 1.1rem; margin: 0.2rem 0; }
.toc > ol { padding-left: 0; }
.toc a { text-decoration: none; }
.tree { flex: 3 1 30rem; margin: 0; overflow-x: auto; }
.tree svg { display: block; max-width: none; }
.tree a:hover rect, .tree a:focus rect { stroke-width: 3; }
.tree .edge { fill: none; stroke: var(--line); stroke-width: 1.5; }
.tree rect { fill: var(--bg); stroke-width: 2; }
.tree text { fill: var(--fg); font-size: 12px; font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; }
.tree text.nid { font-weight: 700; }
.tree rect.st-split { stroke: var(--split); } .tree rect.st-converged { stroke: var(--converged); }
.tree rect.st-partial { stroke: var(--forced); stroke-dasharray: 6 3; } .tree rect.st-forced { stroke: var(--forced); } .tree rect.st-failed { stroke: var(--failed); stroke-width: 3; }
.tree rect.st-interrupted { stroke: var(--interrupted); stroke-dasharray: 4 3; } .tree rect.st-pending { stroke: var(--pending); stroke-dasharray: 2 3; }
.legend { font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
.legend .key { margin-left: 0.6rem; white-space: nowrap; }
.dot { display: inline-block; width: 0.7em; height: 0.7em; border-radius: 50%; margin-right: 0.35em; background: var(--pending); }
.dot.st-split { background: var(--split); } .dot.st-converged { background: var(--converged); } .dot.st-forced, .dot.st-partial { background: var(--forced); }
.dot.st-failed { background: var(--failed); } .dot.st-interrupted { background: var(--interrupted); }
.st { font-size: 0.8rem; font-weight: 600; padding: 0.05em 0.5em; border-radius: 1em; border: 1px solid currentColor; white-space: nowrap; }
.st.st-split { color: var(--split); } .st.st-converged { color: var(--converged); } .st.st-forced, .st.st-partial { color: var(--forced); }
.st.st-failed { color: var(--failed); } .st.st-interrupted { color: var(--interrupted); } .st.st-pending { color: var(--pending); }
details.node, section.arg { border: 1px solid var(--line); border-left: 0.35rem solid var(--pending); border-radius: 6px; padding: 0 1rem 0.5rem; margin: 1.2rem 0; scroll-margin-top: 1rem; }
.st-split:is(details.node, section.arg) { border-left-color: var(--split); } .st-converged:is(details.node, section.arg) { border-left-color: var(--converged); }
:is(.st-forced, .st-partial):is(details.node, section.arg) { border-left-color: var(--forced); } .st-failed:is(details.node, section.arg) { border-left-color: var(--failed); }
.st-interrupted:is(details.node, section.arg) { border-left-color: var(--interrupted); }
section.arg > h3 { margin-top: 0.7rem; }
.badges { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: -0.2rem 0 1rem; }
.argtree ul { padding-left: 1.1rem; }
details.node > summary { cursor: pointer; padding: 0.6rem 0; }
details.node > summary h2 { display: inline; font-size: 1.25rem; border: 0; margin: 0; padding: 0; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 0.8rem; }
.col { background: var(--panel); border-radius: 6px; padding: 0 0.9rem 0.3rem; min-width: 0; }
.col.missing { border: 1px dashed var(--failed); }
.col h4 { margin-top: 0.7rem; }
body.summary table { display: table; width: 100%; font-size: 0.9rem; }
body.summary th, body.summary td { padding: 0.3rem 0.4rem; }
body.summary th { overflow-wrap: normal; vertical-align: bottom; }
body.summary th.align-right { font-size: 0.75rem; line-height: 1.25; width: 1%; }
body.summary td:first-child { overflow-wrap: anywhere; min-width: 6rem; }
body.summary td.align-right { white-space: nowrap; font-variant-numeric: tabular-nums; }
body.summary td:nth-child(2) { min-width: 11rem; }
@media (max-width: 40rem) {
  .tree svg { max-width: 100%; height: auto; }
  .tree.wide { display: none; }
  main table.stack, main table.stack tbody, main table.stack tr, main table.stack td { display: block; width: auto; min-width: 0; }
  main table.stack { border: 0; margin: 0.6rem 0; }
  main table.stack thead { display: none; }
  main table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 0.6rem; padding: 0.3rem 0.6rem; }
  main table.stack td { position: relative; border: 0; padding: 0.1rem 0 0.1rem calc(40% + 0.6rem); text-align: left; white-space: normal; overflow-wrap: anywhere; }
  main table.stack td:empty { display: none; }
  main table.stack td::before { content: attr(data-label); position: absolute; left: 0; width: 40%; color: var(--muted); font-size: 0.85rem; }
}
`
