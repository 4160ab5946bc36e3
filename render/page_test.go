package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// TestTopicPageEveryStatus renders a topic with a node of every status and
// model text that looks like markup: the page is a golden file, its SVG tree
// links every node to a section that exists, and the model's text is shown
// as written while nothing of it becomes markup or a script link.
func TestTopicPageEveryStatus(t *testing.T) {
	run := rendertest.EveryStatus()
	topic := &run.Topics[0]
	page, err := TopicHTML(run, topic)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/page_every_status.html", page)
	s := string(page)

	svg := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindString(s)
	if svg == "" {
		t.Fatal("page has no inline SVG tree")
	}
	topic.Root.Walk(func(n *tree.Node) {
		anchor := nodeAnchor(n.ID)
		if !strings.Contains(svg, `<a href="#`+anchor+`">`) {
			t.Errorf("SVG tree has no link to node %s", n.ID)
		}
		if !strings.Contains(s, `<details class="node st-`+string(n.Status)+`" id="`+anchor+`" open>`) {
			t.Errorf("node %s has no foldable section with id %s and its status class", n.ID, anchor)
		}
		if !strings.Contains(svg, `<rect class="st-`+string(n.Status)+`"`) {
			t.Errorf("SVG tree has no box coloured for %s", n.Status)
		}
	})
	for _, want := range []string{
		"<code>Vec&lt;String&gt;</code>",   // in a code span
		"Plain text Vec&lt;String&gt; too", // bare, as inline raw HTML
		"<code>Option&lt;Box&lt;dyn Error&gt;&gt;</code>",
		"&lt;b&gt;x&lt;/b&gt; is how",           // a tag shown as written
		"&lt;script&gt;alert(2)&lt;/script&gt;", // an HTML block shown as text
		"Either, but see the docs and",          // the javascript: link's text, no link
		`<a href="https://example.org/rfc">the RFC</a>`,
		`<nav class="toc">`,
		`<a href="#conclusion">`,
		`<div class="cols">`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	low := strings.ToLower(s)
	for _, bad := range []string{"<script", "<b>x", "javascript:", "style=\"", "<!-- raw html omitted -->"} {
		if strings.Contains(low, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

// TestSummaryPageLinksTopics checks that the summary page links every
// topic's page (and only through the names it is given) and keeps its table
// alignment in classes the server's content security policy allows.
func TestSummaryPageLinksTopics(t *testing.T) {
	run := rendertest.Interrupted()
	run.Topics[0].Root.Judgment.Consensus[0].Detail = "See [the other page](topic-evil.html) and [ours](#top)."
	pages := map[string]string{}
	for _, tp := range run.Topics {
		pages[tp.ID] = "topic-" + tp.ID + "-x.html"
	}
	page, err := SummaryHTML(run, pages)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, tp := range run.Topics {
		if !strings.Contains(s, `<a href="topic-`+tp.ID+`-x.html">`) {
			t.Errorf("summary does not link the page of %s", tp.ID)
		}
	}
	if strings.Contains(s, "topic-evil.html") && strings.Contains(s, `href="topic-evil.html"`) {
		t.Error("model text linked a page the run did not write")
	}
	if !strings.Contains(s, `<td class="align-right">`) || strings.Contains(s, "style=") {
		t.Error("table alignment is not carried by classes")
	}
	if !strings.Contains(s, `<body class="summary">`) {
		t.Error("summary page lacks its wide layout class")
	}
}

func TestSVGTreeLayout(t *testing.T) {
	run := rendertest.EveryStatus()
	svg := svgTree(run.Topics[0].Root, &english)
	// Four leaves side by side (d1, d2, d3 and d4.1 under d4), a parent
	// centred over its first and last child, one row per depth.
	x := func(id string) string {
		m := regexp.MustCompile(`href="#node-` + regexp.QuoteMeta(id) + `"><title>[^<]*</title><rect class="[^"]*" x="([0-9.]+)" y="([0-9.]+)"`).FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no box for %s in\n%s", id, svg)
		}
		return m[1] + "," + m[2]
	}
	tests := map[string]string{
		"d1":   "4,92",
		"d2":   "198,92",
		"d3":   "392,92",
		"d4":   "586,92",
		"d4.1": "586,180",
		"root": "295,4",
	}
	for id, want := range tests {
		if got := x(id); got != want {
			t.Errorf("box of %s at %s, want %s", id, got, want)
		}
	}
	if !strings.Contains(svg, `width="766" height="230"`) {
		t.Errorf("SVG size: %s", svg[:120])
	}
}
