package render

import (
	"bytes"
	"fmt"
	"html/template"
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
	p := newPage(run)
	w := p.r.w
	body := topicBody{
		Heading:    visible(w.topicHeading(t.ID, t.Title)),
		Intro:      p.md(func(r *report) { r.topicIntro(t) }),
		Conclusion: w.conclusion,
	}
	if t.Root != nil {
		body.Overview = &overview{
			Contents:   w.contents,
			Conclusion: w.conclusion,
			TOC:        p.toc(t.Root),
			Tree:       treeView(t.Root, w),
			Legend:     w.legend + w.colon,
		}
		for _, s := range []tree.Status{tree.Split, tree.Converged, tree.Partial, tree.Forced, tree.Failed, tree.Interrupted} {
			body.Overview.Keys = append(body.Overview.Keys, legendKey{Class: statusClass(s), Word: w.statusWord(s)})
		}
	}
	t.Root.Walk(func(n *tree.Node) { body.Nodes = append(body.Nodes, p.node(n)) })
	body.Ledger = p.md(func(r *report) { r.ledger(t) })
	// The SVG at the top draws the tree; the text tree stays for copying.
	body.End = p.md(func(r *report) { r.topicEnd(t, false) })
	return p.finish(w.topicHeading(t.ID, t.Title), "topic", body)
}

// SummaryHTML returns the HTML page of summary.md: every topic and motion
// linked to its page, the table as wide as the window. pages maps a topic
// or motion id to the file name of its HTML page.
func SummaryHTML(run *tree.Run, pages map[string]string) ([]byte, error) {
	// The page says "demo" in its own banner, not in the Markdown's words.
	plain := *run
	plain.Demo = false
	md := summaryPage(&plain, pages)
	allowed := map[string]bool{}
	for _, name := range pages {
		allowed[name] = true
	}
	p := newPage(run)
	ctx := p.context()
	ctx.Set(ownPages, func(dest string) bool { return allowed[dest] })
	var body bytes.Buffer
	if err := markdown.Convert(md, &body, parser.WithContext(ctx)); err != nil {
		return nil, fmt.Errorf("render summary html: %w", err)
	}
	title, _, _ := strings.Cut(string(md), "\n")
	return p.finish(strings.TrimPrefix(title, "# "), "summary", template.HTML(body.String()))
}

// page gathers the parts of an HTML page. Its Markdown parts take their
// heading ids from ids, so that no two elements of the page share one: the
// third node's "Party A — gpt-5.2" is not the root's.
type page struct {
	r   *report // its nonce marks the page's quote badges (see badges)
	ids parser.IDs
	err error
}

// newPage returns a page of run, with the ids of the page's own elements
// (the conclusion, every node's and argument's section) kept from the Markdown's headings.
func newPage(run *tree.Run) *page {
	ids := parser.NewContext().IDs()
	ids.Put([]byte("conclusion"))
	if run != nil {
		for i := range run.Topics {
			run.Topics[i].Root.Walk(func(n *tree.Node) { ids.Put([]byte(nodeAnchor(n.ID))) })
		}
		for _, m := range run.Motions {
			for _, a := range m.Arguments {
				ids.Put([]byte(argAnchor(a.Seq)))
			}
		}
	}
	return &page{r: &report{run: run, w: wordsFor(run), html: true, nonce: newNonce()}, ids: ids}
}

// context returns a parser context for one of the page's Markdown parts,
// drawing heading ids from the page's and allowing links to the lines of
// the shared documents' pages.
func (p *page) context() parser.Context {
	ctx := parser.NewContext(parser.WithIDs(p.ids))
	ctx.Set(ownPages, isDocumentLink)
	ctx.Set(badgeNonce, p.r.nonce)
	return ctx
}

// md renders the Markdown that fill writes.
func (p *page) md(fill func(r *report)) template.HTML {
	r := &report{run: p.r.run, w: p.r.w, reports: p.r.reports, html: true, nonce: p.r.nonce}
	fill(r)
	var out bytes.Buffer
	if err := markdown.Convert([]byte(r.b.String()), &out, parser.WithContext(p.context())); err != nil && p.err == nil {
		p.err = fmt.Errorf("render html: %w", err)
	}
	// goldmark escapes the text and drops what sanitize forbids.
	return template.HTML(out.String())
}

// toc returns the table of contents of the tree under n.
func (p *page) toc(n *tree.Node) tocItem {
	item := tocItem{
		Anchor: nodeAnchor(n.ID), Class: statusClass(n.Status), ID: visible(n.ID),
		Title: visible(shorten(n.Title, 2*titleRunes)), Status: p.r.w.statusWord(n.Status),
	}
	for _, c := range n.Children {
		item.Children = append(item.Children, p.toc(c))
	}
	return item
}

// node returns one node's foldable section.
func (p *page) node(n *tree.Node) nodeView {
	w := p.r.w
	heading := w.roundRoot(n.Round)
	if n.ID != tree.RootID {
		heading = w.roundChild(n.Round, n.ID, n.Title)
	}
	v := nodeView{
		Class: statusClass(n.Status), Anchor: nodeAnchor(n.ID), Heading: visible(heading), Status: w.statusWord(n.Status),
		Triage: w.triage,
	}
	if d := n.Divergence; d != nil && len(d.Sides) > 0 {
		v.Between = p.md(func(r *report) {
			r.printf("*%s", w.between(r.names(r.sideIDs(d.Sides), " vs ")))
			if len(d.Uninvolved) > 0 {
				r.printf("%s", w.uninvolvedFmt(r.names(d.Uninvolved, w.listSep)))
			}
			r.b.WriteString("*\n")
		})
	}
	v.Steps = []stepView{
		p.step(w.positions, p.r.answerList(n, n.Positions, tree.StepPosition, func(id string) string {
			return inlineText(p.r.name(id)) + " — " + p.r.nodeModel(n.Models, id)
		})),
		p.step(w.rebuttals, p.r.answerList(n, n.Rebuttals, tree.StepRebuttal, func(id string) string {
			return p.r.rebuttalTitle(n, id)
		})),
	}
	if n.Judgment != nil && len(n.Judgment.ForcedVerdicts) > 0 || n.Status == tree.Forced {
		v.Triage = w.forcedTriage
	}
	v.Judgment = p.md(func(r *report) { r.judgment(n) })
	v.Reasoning = p.reasoning(reasoningOf(n, p.r.run.Judge.ID, tree.StepJudge))
	v.End = p.md(func(r *report) { r.status(n) })
	return v
}

// reasoning folds a model's reasoning, given beside its answer, under that
// answer; it is nil when there is none.
func (p *page) reasoning(text string) *reasoningView {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return &reasoningView{Summary: p.r.w.modelReasoning, Body: p.md(func(r *report) { r.printf("%s\n", embedText(text, 5)) })}
}

// step returns the debaters' parts of a step, shown as columns.
func (p *page) step(heading string, list []answer) stepView {
	v := stepView{Heading: heading}
	if list == nil {
		v.NotReached = p.md(func(r *report) { r.printf("*%s*\n", r.w.notReached) })
		return v
	}
	for _, a := range list {
		v.Cols = append(v.Cols, colView{
			Missing:   a.missing,
			Body:      p.md(func(r *report) { r.printf("#### %s\n\n%s\n", a.title, a.body) }),
			Reasoning: p.reasoning(a.reasoning),
		})
	}
	return v
}

// finish renders the page of the given title and kind ("topic", "motion",
// "summary"), which picks the body's template and sets its class, with
// control characters made visible.
func (p *page) finish(title, kind string, body any) ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	// The page's lang lets the browser pick Chinese glyphs for characters
	// Chinese and Japanese share.
	lang := p.r.w.tag
	style := pageStyle + reportStyle
	if kind == "document" {
		style += documentStyle
	}
	d := pageData{Lang: lang, Title: visible(title), Style: template.CSS(style), Kind: kind, Body: body}
	if p.r.run.Demo {
		d.Demo = p.r.w.demo
	}
	return renderPage(d)
}

// nodeAnchor returns the id attribute of a node's section.
func nodeAnchor(id string) string {
	return "node-" + strings.NewReplacer(" ", "-", "#", "-").Replace(id)
}

// argAnchor returns the id attribute of a motion argument's section.
func argAnchor(seq int) string {
	return fmt.Sprintf("arg-%d", seq)
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
// pages add: a colour per status and badges, the tree, the table of
// contents, foldable node sections, argument sections, columns of positions
// (one column when the window is narrower than one) and a summary table that
// fits the window (1,024 px and up) without scrolling sideways: compact
// numeric columns with small wrapping headers, the topic column taking the
// slack. The tree's drawing takes the width it needs beside the table of
// contents, or a row of its own below it, and scales down to the width it
// is given. Under 40rem a wide table (labelCells) shows one block per row,
// each value beside its column's heading, and a tree too wide to read at
// that scale gives way to the table of contents beside it.
const reportStyle = `
:root { --split: #0969da; --converged: #1a7f37; --partial: #8250df; --forced: #9a6700; --failed: #cf222e; --interrupted: #6e7781; --pending: #8c959f; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --split: #4493f8; --converged: #3fb950; --partial: #ab7df8; --forced: #d29922; --failed: #f85149; --interrupted: #9198a1; --panel: #151b23; }
}
body.topic main, body.summary main { max-width: 96rem; }
.demo { margin: 0 0 1rem; padding: 0.5rem 0.8rem; border: 2px dashed var(--forced); border-radius: 6px; font-weight: 600; }
.overview { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; margin: 1rem 0 2rem; }
.toc { flex: 1 1 18rem; max-width: 36rem; }
.toc h2 { margin-top: 0; }
.toc ol { list-style: none; padding-left: 1.1rem; margin: 0.2rem 0; }
.toc > ol { padding-left: 0; }
.toc a { text-decoration: none; }
.tree { flex: 1 1 auto; min-width: 0; margin: 0; overflow-x: auto; }
.tree svg { display: block; max-width: 100%; height: auto; }
.tree a:hover rect, .tree a:focus rect { stroke-width: 3; }
.tree .edge { fill: none; stroke: var(--line); stroke-width: 1.5; }
.tree rect { fill: var(--bg); stroke-width: 2; }
.tree text { fill: var(--fg); font-size: 12px; font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; }
.tree text.nid { font-weight: 700; }
.tree rect.st-split { stroke: var(--split); } .tree rect.st-converged { stroke: var(--converged); }
.tree rect.st-partial { stroke: var(--partial); stroke-dasharray: 6 3; } .tree rect.st-forced { stroke: var(--forced); } .tree rect.st-failed { stroke: var(--failed); stroke-width: 3; }
.tree rect.st-interrupted { stroke: var(--interrupted); stroke-dasharray: 4 3; } .tree rect.st-pending { stroke: var(--pending); stroke-dasharray: 2 3; }
.legend { font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
.legend .key { margin-left: 0.6rem; white-space: nowrap; }
.dot { display: inline-block; width: 0.7em; height: 0.7em; border-radius: 50%; margin-right: 0.35em; background: var(--pending); }
.dot.st-split { background: var(--split); } .dot.st-converged { background: var(--converged); } .dot.st-partial { background: var(--partial); } .dot.st-forced { background: var(--forced); }
.dot.st-failed { background: var(--failed); } .dot.st-interrupted { background: var(--interrupted); }
.st { font-size: 0.8rem; font-weight: 600; padding: 0.05em 0.5em; border-radius: 1em; border: 1px solid currentColor; white-space: nowrap; }
.st.st-split { color: var(--split); } .st.st-converged { color: var(--converged); } .st.st-partial { color: var(--partial); } .st.st-forced { color: var(--forced); }
.st.st-failed { color: var(--failed); } .st.st-interrupted { color: var(--interrupted); } .st.st-pending { color: var(--pending); }
details.node, section.arg { border: 1px solid var(--line); border-left: 0.35rem solid var(--pending); border-radius: 6px; padding: 0 1rem 0.5rem; margin: 1.2rem 0; scroll-margin-top: 1rem; }
.st-split:is(details.node, section.arg) { border-left-color: var(--split); } .st-converged:is(details.node, section.arg) { border-left-color: var(--converged); }
.st-partial:is(details.node, section.arg) { border-left-color: var(--partial); } .st-forced:is(details.node, section.arg) { border-left-color: var(--forced); } .st-failed:is(details.node, section.arg) { border-left-color: var(--failed); }
.st-interrupted:is(details.node, section.arg) { border-left-color: var(--interrupted); }
section.arg > h3 { margin-top: 0.7rem; }
.badges { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: -0.2rem 0 1rem; }
.argtree ul { padding-left: 1.1rem; }
details.node > summary { cursor: pointer; padding: 0.6rem 0; }
details.node > summary h2 { display: inline; font-size: 1.25rem; border: 0; margin: 0; padding: 0; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr)); gap: 0.8rem; }
.col { background: var(--panel); border-radius: 6px; padding: 0 0.9rem 0.3rem; min-width: 0; }
.col.missing { border: 1px dashed var(--failed); }
.col h4 { margin-top: 0.7rem; }
body.summary table { display: table; width: 100%; font-size: 0.9rem; }
body.summary th, body.summary td { padding: 0.3rem 0.4rem; }
body.summary th { overflow-wrap: normal; vertical-align: bottom; }
body.summary th.align-right { font-size: 0.75rem; line-height: 1.25; width: 1%; }
body.summary td:first-child { overflow-wrap: anywhere; min-width: 6rem; }
body.summary td.align-right { font-variant-numeric: tabular-nums; }
body.summary td:nth-child(2) { min-width: 11rem; }
@media (max-width: 40rem) {
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
