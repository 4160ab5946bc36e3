package render

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// hostile holds what a terminal acts on: OSC 0 (set the title, ended by
// BEL), CSI 2 J (clear the screen), a C1 CSI, a NUL and a lone CR.
const hostile = "before\x1b]0;pwned\x07 \x1b[2J \u009b31m \x00 over\rwrite after"

func TestVisible(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain text\twith a tab\nand a newline", "plain text\twith a tab\nand a newline"},
		{"中文与 emoji 🙂", "中文与 emoji 🙂"},
		{"\x1b]0;title\x07", "␛]0;title␇"},
		{"\x1b[2J", "␛[2J"},
		{"a\u009bb\u0085c", "a\ufffdb\ufffdc"},
		{"windows\r\nlines", "windows\nlines"},
		{"over\rwrite", "over␍write"},
		{"nul\x00del\x7f", "nul␀del␡"},
		{"bad \xff\xfe utf-8", "bad \ufffd\ufffd utf-8"},
	} {
		if got := visible(tc.in); got != tc.want {
			t.Errorf("visible(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestReportsCarryNoControlCharacters: control characters in model text, a
// provider's error message, a title and an agent's argument reach no
// Markdown report or HTML page as such; they show as control pictures.
func TestReportsCarryNoControlCharacters(t *testing.T) {
	t.Parallel()
	run := rendertest.Converged()
	top := &run.Topics[0]
	top.Title += hostile
	root := top.Root
	root.Positions["party-a"] = hostile
	root.Rebuttals["party-b"] = "## " + hostile
	root.Errors = append(root.Errors, tree.NodeError{Participant: "party-c", Step: tree.StepSynthesis, Message: "provider said: " + hostile})
	root.Judgment.Consensus[0].Detail = hostile
	top.Synthesis = hostile

	m := motionRun()
	m.Motions[0].Arguments[1].Content = hostile
	m.Motions[0].Title = hostile
	d, args := MotionDebate(&m.Motions[0])

	topicPage, err := TopicHTML(run, top)
	if err != nil {
		t.Fatal(err)
	}
	summaryPage, err := SummaryHTML(run, nil)
	if err != nil {
		t.Fatal(err)
	}
	motionPage, err := MotionHTML(m, &m.Motions[0])
	if err != nil {
		t.Fatal(err)
	}
	fragment, err := Fragment([]byte(hostile))
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []struct {
		name string
		b    []byte
	}{
		{"topic report", Topic(run, top)},
		{"summary", Summary(run, nil)},
		{"topic page", topicPage},
		{"summary page", summaryPage},
		{"motion report", Motion(m, &m.Motions[0])},
		{"motion page", motionPage},
		{"argument tree", Arguments(d, args)},
		{"fragment", fragment},
	} {
		s := string(out.b)
		if i := strings.IndexFunc(s, func(r rune) bool {
			return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
		}); i >= 0 {
			t.Errorf("%s: control character %q at byte %d: %q", out.name, s[i], i, s[max(0, i-20):min(len(s), i+20)])
		}
		if !strings.Contains(s, "␛]0;pwned␇") {
			t.Errorf("%s: the hostile text is not shown as control pictures", out.name)
		}
	}
}
