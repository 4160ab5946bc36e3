package render

import (
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/internal/textwidth"
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
	if !strings.Contains(s, `<td class="align-right" data-label=`) || strings.Contains(s, "style=") {
		t.Error("table alignment is not carried by classes")
	}
	if !strings.Contains(s, `<body class="summary">`) {
		t.Error("summary page lacks its wide layout class")
	}
}

// svgTree renders the drawing of the tree under root and tells whether it
// is too wide for a phone.
func svgTree(root *tree.Node, w *words) (string, bool) {
	v := treeView(root, w)
	var b strings.Builder
	if err := pageTemplates["topic"].ExecuteTemplate(&b, "tree", v); err != nil {
		panic(err)
	}
	return b.String(), v.Wide
}

func TestSVGTreeLayout(t *testing.T) {
	run := rendertest.EveryStatus()
	svg, wide := svgTree(run.Topics[0].Root, &english)
	if !wide {
		t.Error("a tree of four leaves is not marked too wide for a phone")
	}
	// Four leaves side by side (d1, d2, d3 and d4.1 under d4), a parent
	// centred over its first and last child, one row per depth, every row
	// as tall as a box of three lines of title.
	x := func(id string) string {
		m := regexp.MustCompile(`href="#node-` + regexp.QuoteMeta(id) + `"><title>[^<]*</title><rect class="[^"]*" x="([0-9.]+)" y="([0-9.]+)"`).FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no box for %s in\n%s", id, svg)
		}
		return m[1] + "," + m[2]
	}
	tests := map[string]string{
		"d1":   "4,122",
		"d2":   "214,122",
		"d3":   "424,122",
		"d4":   "634,122",
		"d4.1": "634,240",
		"root": "319,4",
	}
	for id, want := range tests {
		if got := x(id); got != want {
			t.Errorf("box of %s at %s, want %s", id, got, want)
		}
	}
	if !strings.Contains(svg, `width="830" height="320"`) {
		t.Errorf("SVG size: %s", svg[:120])
	}
}

func TestWrapLabel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"fits", "Short title", []string{"Short title"}},
		{"empty", "", []string{""}},
		{"between words", "Should the billing service own its database?", []string{"Should the billing", "service own its", "database?"}},
		{"cut after three lines", strings.Repeat("word ", 20), []string{"word word word word word", "word word word word word", "word word word word wor…"}},
		{"a word longer than a line", "Internationalisation-and-localisation-strategy", []string{"Internationalisation-and", "-localisation-strategy"}},
		{"chinese", "是否将消息队列从 RabbitMQ 迁移到 Kafka？", []string{"是否将消息队列从", "RabbitMQ 迁移到 Kafka？"}},
		{"chinese without spaces", strings.Repeat("宽字符标题", 8), []string{"宽字符标题宽字符标题宽字", "符标题宽字符标题宽字符标", "题宽字符标题宽字符标题…"}},
	}
	for _, tt := range tests {
		got := wrapLabel(tt.in, boxChars, titleLines)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: wrapLabel(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		for _, l := range got {
			if w := textwidth.String(l); w > boxChars {
				t.Errorf("%s: line %q takes %d columns, more than %d", tt.name, l, w, boxChars)
			}
		}
	}
}

var svgBoxRE = regexp.MustCompile(`<rect class="[^"]*" x="[0-9.]+" y="[0-9.]+" width="([0-9]+)"[^>]*/>((?:<text[^>]*>[^<]*</text>)+)`)
var svgTextRE = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// TestSVGLabelsFit: every label of every box, at the widest a column of
// 12 px text runs, fits inside its box with room on both sides, in English
// and Chinese and with titles far longer than a box; the box's title keeps
// the whole text.
func TestSVGLabelsFit(t *testing.T) {
	t.Parallel()
	long := rendertest.EveryStatus()
	long.Topics[0].Root.Children[0].Title = strings.Repeat("WWW MMM ", 10)
	long.Topics[0].Root.Children[1].Title = strings.Repeat("宽字符标题", 10)
	long.Topics[0].Root.Children[1].ID = "d2-with-a-very-long-node-id"
	tests := []struct {
		name string
		run  *tree.Run
	}{
		{"every status", rendertest.EveryStatus()},
		{"chinese", rendertest.Chinese()},
		{"long titles", long},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := tt.run.Topics[0].Root
			svg, _ := svgTree(root, wordsFor(tt.run))
			boxes := svgBoxRE.FindAllStringSubmatch(svg, -1)
			if len(boxes) == 0 {
				t.Fatalf("no boxes in\n%s", svg)
			}
			for _, b := range boxes {
				w, _ := strconv.Atoi(b[1])
				for _, m := range svgTextRE.FindAllStringSubmatch(b[2], -1) {
					label := html.UnescapeString(m[1])
					if need := float64(textwidth.String(label))*colPx + 2*labelPad; need > float64(w) {
						t.Errorf("label %q needs %.0f px, its box is %d px", label, need, w)
					}
				}
			}
			if tt.name == "long titles" && !strings.Contains(svg, "<title>d1: "+strings.TrimSpace(strings.Repeat("WWW MMM ", 10))) {
				t.Error("a cut label's box lost the whole title")
			}
		})
	}
}

var (
	idAttrRE = regexp.MustCompile(`\sid="([^"]*)"`)
	anchorRE = regexp.MustCompile(`\shref="#([^"]*)"`)
)

// TestPageIDsUnique reads every HTML golden: no two elements of a page share
// an id, so a link to a later node's answer lands on that node's, not the
// root's, and every link within the page lands on an element.
func TestPageIDsUnique(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no HTML goldens: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, m := range idAttrRE.FindAllStringSubmatch(string(b), -1) {
			id := html.UnescapeString(m[1])
			if seen[id] {
				t.Errorf("%s: id %q appears more than once", f, id)
			}
			seen[id] = true
		}
		for _, m := range anchorRE.FindAllStringSubmatch(string(b), -1) {
			if id, err := url.PathUnescape(html.UnescapeString(m[1])); err != nil || !seen[id] {
				t.Errorf("%s: link to #%s lands nowhere", f, m[1])
			}
		}
	}
}
