package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

const cutMessage = "cut at the token limit (params.maxTokensPerResponse: 4000): the answer is incomplete"

// answersFixture is the converged fixture whose root holds a debater's
// answer cut at the token limit and reasoning given beside two answers, one
// of them written like markup.
func answersFixture(t *testing.T) (*tree.Run, *tree.Topic) {
	t.Helper()
	var run *tree.Run
	for _, f := range rendertest.Fixtures() {
		if f.Name == "converged" {
			run = f.Run
		}
	}
	if run == nil {
		t.Fatal("no converged fixture")
	}
	topic := run.Topics[0]
	root := *topic.Root
	root.Warnings = []tree.Warning{{Participant: "party-b", Step: tree.StepRebuttal, Message: cutMessage}}
	root.Reasoning = []tree.Reasoning{
		{Participant: "party-a", Step: tree.StepPosition, Text: "I weigh <b>cursors</b> first."},
		{Participant: "party-c", Step: tree.StepRebuttal, Text: "C's second thoughts."},
		{Participant: run.Judge.ID, Step: tree.StepJudge, Text: "Weighing <i>both</i> sides before the JSON."},
	}
	topic.Root = &root
	return run, &topic
}

// TestTopicMarksCutAnswers: a debater's answer kept although the token limit
// cut it is followed by its warning, and only that answer.
func TestTopicMarksCutAnswers(t *testing.T) {
	run, topic := answersFixture(t)
	md := string(Topic(run, topic))
	golden.Assert(t, filepath.Join("testdata", "answers_root.md"), []byte(between(t, md, "### Positions", "### Judge")))

	mark := "> ⚠ " + cutMessage + "\n"
	if n := strings.Count(md, mark); n != 1 {
		t.Fatalf("the warning appears %d times, want once", n)
	}
	at := strings.Index(md, mark)
	heading := strings.LastIndex(md[:at], "\n#### ")
	if heading < 0 || !strings.HasPrefix(md[heading+1:], "#### Rebuttal by Party B — kimi-k2.5\n") {
		t.Errorf("the warning does not follow Party B's rebuttal:\n%s", md[max(heading, 0):at+len(mark)])
	}
	if strings.Contains(md, "weigh") || strings.Contains(md, "second thoughts") {
		t.Error("the Markdown report shows reasoning; it belongs in run.json and the page's folds")
	}
}

// TestTopicPageFoldsReasoning: on the topic page, reasoning given beside an
// answer is folded under that answer, escaped like all model text.
func TestTopicPageFoldsReasoning(t *testing.T) {
	run, topic := answersFixture(t)
	page, err := TopicHTML(run, topic)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	golden.Assert(t, filepath.Join("testdata", "answers_root.html"), []byte(between(t, s, "<h3>Positions</h3>", "<h3>Judge")))
	const fold = "<details class=\"reasoning\">\n<summary>The model&#39;s reasoning</summary>\n"
	if n := strings.Count(s, fold); n != 3 {
		t.Fatalf("%d reasoning folds, want 3", n)
	}
	judge := between(t, s, "<h3>Judge", "<section id=\"conclusion\">")
	if !strings.Contains(judge, fold) || !strings.Contains(judge, "Weighing &lt;i&gt;both&lt;/i&gt; sides before the JSON.") {
		t.Errorf("the judge's triage does not fold its reasoning:\n%s", judge)
	}
	for _, tc := range []struct{ heading, text string }{
		{"Party A — gpt-5.2", "I weigh &lt;b&gt;cursors&lt;/b&gt; first."},
		{"Rebuttal by Party C — gemini-3.1-pro-preview", "C's second thoughts."},
	} {
		h := strings.Index(s, tc.heading+"</h4>")
		if h < 0 {
			t.Fatalf("no answer headed %q", tc.heading)
		}
		section := s[h:]
		section = section[:strings.Index(section, "</section>")]
		if !strings.Contains(section, fold) || !strings.Contains(section, tc.text) {
			t.Errorf("the answer headed %q does not fold its reasoning %q:\n%s", tc.heading, tc.text, section)
		}
	}
	if strings.Contains(s, "<b>cursors</b>") {
		t.Error("reasoning written like markup became markup")
	}
}

// TestChineseAnswersRoot: in a zh report the cut mark under an answer, the
// missing-answer notes and the reasoning folds read in Chinese.
func TestChineseAnswersRoot(t *testing.T) {
	run, topic := answersFixture(t)
	zh := *run
	zh.Language = "zh"
	md := string(Topic(&zh, topic))
	golden.Assert(t, filepath.Join("testdata", "answers_root_zh.md"), []byte(between(t, md, "### 立场", "### 裁判")))
	page, err := TopicHTML(&zh, topic)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	golden.Assert(t, filepath.Join("testdata", "answers_root_zh.html"), []byte(between(t, s, "<h3>立场</h3>", "<section id=\"conclusion\">")))
	for _, doc := range []string{md, s} {
		for _, english := range []string{"cut at the token limit", "The model", "the answer is incomplete"} {
			if strings.Contains(doc, english) {
				t.Errorf("zh report holds English %q", english)
			}
		}
	}
	if n := strings.Count(s, "<summary>模型的推理过程</summary>"); n != 3 {
		t.Errorf("%d Chinese reasoning folds, want 3", n)
	}
}

// between returns the part of s from the first from up to the next to: the
// root's answers, which the report's other goldens already show around.
func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("no %q", from)
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		t.Fatalf("no %q after %q", to, from)
	}
	return s[i : i+j]
}
