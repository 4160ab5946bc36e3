package render

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// hostileAnswer is a debater answer that tries to run script, load from the
// network, take over the report's outline and swallow what follows it.
const hostileAnswer = "I agree.\n\n" +
	"<script>alert(1)</script>\n\n" +
	"Inline <script>alert(2)</script> too, and <img src=x onerror=alert(3)>.\n\n" +
	"<IMG SRC=x OnError=alert(4)>\n\n" +
	"[click me](javascript:alert(5)) and [upper](JaVaScRiPt:alert(6)) and <javascript:alert(7)>\n\n" +
	"[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(9))\n\n" +
	"![tracker](https://evil.example/pixel.gif) <iframe src=\"https://evil.example\"></iframe>\n\n" +
	"# Conclusion\n\nI win.\n\nSetext\n===\n\n" +
	"<!-- an unclosed comment\n\n<style>body{display:none}\n\n" +
	"```\nan unclosed fence"

func hostileRun() *tree.Run {
	run := rendertest.Converged()
	root := run.Topics[0].Root
	root.Positions["party-b"] = hostileAnswer
	root.Rebuttals["party-a"] = hostileAnswer
	run.Topics[0].Synthesis = hostileAnswer
	run.Edits = hostileAnswer
	return run
}

func TestHTMLDisarmsActiveContent(t *testing.T) {
	run := hostileRun()
	for name, md := range map[string][]byte{"topic": Topic(run, &run.Topics[0]), "summary": Summary(run, nil)} {
		t.Run(name, func(t *testing.T) {
			page, err := markdownPage("Report <script>alert(0)</script>", md)
			if err != nil {
				t.Fatal(err)
			}
			low := strings.ToLower(string(page))
			// Model text that looks like markup is shown as text: no such
			// element, no event handler inside a tag, no script link.
			for _, bad := range []string{"<script", "<img", "<iframe", "<style>body", `href="javascript`, `href="data:`, `href="vbscript:`} {
				if strings.Contains(low, bad) {
					t.Errorf("page contains %q", bad)
				}
			}
			if m := regexp.MustCompile(`<[a-z][^>]*\son[a-z]+=`).FindString(low); m != "" {
				t.Errorf("page has an event handler: %q", m)
			}
			// No attribute may hold a script URL, and nothing may load from
			// the network: src and srcset are gone, only links remain.
			if m := regexp.MustCompile(`(?i)\s[a-z]+="\s*(javascript|vbscript|data):`).FindString(low); m != "" {
				t.Errorf("page has a script URL in an attribute: %q", m)
			}
			if m := regexp.MustCompile(`(?i)<[^>]*\s(src|srcset)=`).FindString(low); m != "" {
				t.Errorf("page loads a resource: %q", m)
			}
			if !strings.Contains(string(page), `<a href="https://evil.example/pixel.gif">tracker</a>`) {
				t.Error("image was not turned into a link")
			}
			// The text after the hostile answer is still there.
			if !strings.Contains(string(page), "Path overview") && name == "topic" {
				t.Error("the report after the hostile answer was swallowed")
			}
		})
	}
}

// TestOutlineSurvivesModelText parses the Markdown report of a run whose
// answers hold headings, setext headings, HTML blocks and an unclosed fence:
// the report's own headings must be exactly the ones it wrote, and headings
// from model text must sit below the section that holds them.
func TestOutlineSurvivesModelText(t *testing.T) {
	run := hostileRun()
	clean := rendertest.Converged()
	var want []string
	for _, h := range outline(t, Topic(clean, &clean.Topics[0]), 4) {
		if h == "### Path overview" {
			// The hostile run adds a synthesis whose headings nest under it.
			want = append(want, "### Synthesis", "#### Conclusion", "#### Setext")
		}
		want = append(want, h)
	}
	got := outline(t, Topic(run, &run.Topics[0]), 4)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	sum := outline(t, Summary(run, nil), 2)
	if last := sum[len(sum)-1]; last != "## Proposed edits to the shared documents" {
		t.Errorf("summary outline ends with %q", last)
	}
	if strings.Contains(strings.Join(outline(t, Summary(run, nil), 6), "\n"), "\n## Conclusion") {
		t.Error("an edit's heading reached level 2")
	}
}

// outline returns the headings up to maxLevel of a Markdown document as
// goldmark parses it, as "## text" lines.
func outline(t *testing.T, md []byte, maxLevel int) []string {
	t.Helper()
	doc := markdown.Parser().Parse(text.NewReader(md))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level <= maxLevel {
			var b strings.Builder
			for c := h.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					b.Write(tx.Segment.Value(md))
				} else if c.Kind() == ast.KindCodeSpan || c.Kind() == ast.KindEmphasis {
					for cc := c.FirstChild(); cc != nil; cc = cc.NextSibling() {
						if tx, ok := cc.(*ast.Text); ok {
							b.Write(tx.Segment.Value(md))
						}
					}
				}
			}
			out = append(out, strings.Repeat("#", h.Level)+" "+b.String())
		}
		return ast.WalkContinue, nil
	})
	return out
}

func TestHTMLPage(t *testing.T) {
	page, err := markdownPage(`Q&A "quotes" <b>`, []byte("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```mermaid\ngraph TD\n    n_root[\"root\"]\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"<!DOCTYPE html>",
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		"default-src 'none'",
		"<title>Q&amp;A &#34;quotes&#34; &lt;b&gt;</title>",
		"prefers-color-scheme: dark",
		"max-width",
		"<table>",
		`<pre><code class="language-mermaid">graph TD`,
		`n_root[&quot;root&quot;]`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<link", "@import", "url(", "http://", "https://"} {
		if strings.Contains(s, bad) {
			t.Errorf("page has %q: it must make no network request", bad)
		}
	}
}

// TestHTMLConcurrent renders from many goroutines: the shared goldmark
// instance must be safe for it (run with -race).
func TestHTMLConcurrent(t *testing.T) {
	md := Topic(rendertest.Forced(), &rendertest.Forced().Topics[0])
	want, err := markdownPage("t", md)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := markdownPage("t", md)
			if err != nil || string(got) != string(want) {
				t.Error("concurrent render differs")
			}
		})
	}
	wg.Wait()
}

// markdownPage renders Markdown into a self-contained HTML page, as the
// report pages frame theirs, with the given title:
// inline styles for light and dark mode that read on a phone, a content
// security policy that forbids scripts and every network request, the
// Markdown's raw HTML shown as text and unsafe links made plain text.
// Mermaid blocks stay code.
func markdownPage(title string, md []byte) ([]byte, error) {
	var body bytes.Buffer
	if err := markdown.Convert(md, &body); err != nil {
		return nil, fmt.Errorf("render html %q: %w", title, err)
	}
	return renderPage(pageData{Title: title, Style: pageStyle, Kind: "markdown", Body: template.HTML(body.String())})
}

// TestGoldenHeadingsInOrder reads every Markdown golden file: after its
// title, no heading is more than one level below the heading before it.
func TestGoldenHeadingsInOrder(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			md, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prev := 0
			for _, h := range outline(t, md, 6) {
				level := strings.IndexByte(h, ' ')
				if prev > 0 && level > prev+1 {
					t.Errorf("%q follows a level-%d heading", h, prev)
				}
				prev = level
			}
		})
	}
}

// xssRun is a run of a tree and a motion with the web UI's XSS corpus in
// every text its pages show: titles, ids, names, models, answers, reasoning,
// the judge's text, errors, the synthesis and the proposed edits.
func xssRun() *tree.Run {
	run := rendertest.Forced()
	run.Debaters[0].Label = rendertest.XSSTitle
	run.Debaters[1].Model = rendertest.XSSTitle
	run.Judge.Label = rendertest.XSSTitle
	top := &run.Topics[0]
	top.ID, top.Title, top.Synthesis = rendertest.XSSTitle, rendertest.XSSTitle, rendertest.XSS
	top.Root.Children[0].ID = `d1"><script>alert("id")</script>`
	top.Root.Walk(func(n *tree.Node) {
		n.Title = rendertest.XSSTitle + n.Title
		for _, texts := range []map[string]string{n.Positions, n.Rebuttals} {
			for id := range texts {
				texts[id] = rendertest.XSS
			}
		}
		n.Reasoning = append(n.Reasoning, tree.Reasoning{Participant: "party-a", Step: tree.StepPosition, Text: rendertest.XSS})
		n.Errors = append(n.Errors, tree.NodeError{Participant: "party-c", Step: tree.StepRebuttal, Message: rendertest.XSS})
		if n.Judgment != nil {
			for i := range n.Judgment.Consensus {
				n.Judgment.Consensus[i].Detail = rendertest.XSS
			}
		}
	})
	run.Edits = rendertest.XSS
	m := motionRun().Motions[0]
	m.ID, m.Title = rendertest.XSSTitle, rendertest.XSSTitle
	for i := range m.Arguments {
		m.Arguments[i].Content, m.Arguments[i].Reasoning = rendertest.XSS, rendertest.XSS
	}
	m.Errors = append(m.Errors, tree.MotionError{Role: "opponent", Turn: 2, Message: rendertest.XSS, Raw: rendertest.XSS})
	run.Motions = []tree.Motion{m}
	return run
}

// TestReportPagesDisarmXSS runs the corpus the web UI's pages pass against
// the topic, motion and summary pages: nothing of it is active, the titles
// show as written and the Markdown still renders.
func TestReportPagesDisarmXSS(t *testing.T) {
	t.Parallel()
	run := xssRun()
	top, m := &run.Topics[0], &run.Motions[0]
	pages := map[string]func() ([]byte, error){
		"topic":  func() ([]byte, error) { return TopicHTML(run, top) },
		"motion": func() ([]byte, error) { return MotionHTML(run, m) },
		"summary": func() ([]byte, error) {
			return SummaryHTML(run, map[string]string{top.ID: "topic-x.html", m.ID: "motion-x.html"})
		},
	}
	for name, render := range pages {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			page, err := render()
			if err != nil {
				t.Fatal(err)
			}
			s := string(page)
			for _, bad := range rendertest.ActiveContent(s) {
				t.Errorf("%s page %s", name, bad)
			}
			if !strings.Contains(s, "<strong>bold</strong>") {
				t.Errorf("%s page lost the corpus's Markdown", name)
			}
			if !strings.Contains(s, "&lt;script&gt;alert(") {
				t.Errorf("%s page does not show the hostile title as text", name)
			}
		})
	}
}
