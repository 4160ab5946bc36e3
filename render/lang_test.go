package render

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/debatehq/debate/render/rendertest"
)

// TestLegacyReasonInChinese checks that the prose reasons of older runs read in
// Chinese in a zh report, part by part, and stay as written otherwise.
func TestLegacyReasonInChinese(t *testing.T) {
	tests := []struct{ in, zh string }{
		{"all debaters agreed", "各方达成一致"},
		{"round limit 3 reached: verdicts forced", "达到轮数上限 3：强制裁决"},
		{"round limit 3 reached: verdicts forced; 2 verdicts missing after repair", "达到轮数上限 3：强制裁决；修复后仍缺 2 条裁决"},
		{"budget of 50000 tokens reached: verdicts forced", "达到 50000 token 预算：强制裁决"},
		{"2 divergences: split into child debates", "2 个分歧：拆分为子辩论"},
		{"1 divergence: split into a child debate", "1 个分歧：拆分为子辩论"},
		{`empty answer (finish_reason "stop", 93 bytes of reasoning came back alone)`, `空回答（finish_reason "stop", 93 bytes of reasoning came back alone）`},
		{`the provider's content filter withheld the answer (finish_reason "content_filter"), categories: violence`, `服务方的内容过滤拦下了回答（finish_reason "content_filter"）, categories: violence`},
		{`the model refused: "I can't help with that."`, `模型拒绝回答："I can't help with that."`},
		{"2 failed attempts, last 503", "失败 2 次，最后一次：503"},
		{"1 failed attempt, timeout", "失败 1 次：timeout"},
		{"model not found (404)", "模型不存在 (404)"},
		{"no debater answered the position step", "没有辩手给出立场"},
		{"judge answer: no JSON object found", "judge answer: no JSON object found"},
		{"the proposer resolved the debate (#5); the ruling #6 closed it", "提议方以 #5 解决了辩论；裁决 #6 结束了辩论"},
		{"closed by the arbitrator's ruling #9", "由仲裁方的裁决 #9 结束"},
		{"closed by the arbitrator's ruling #9 after the turn limit (4)", "达到轮次上限（4）后由仲裁方的裁决 #9 结束"},
		{"opponent, turn 3: answer invalid after repair: no JSON object found", "反方第 3 轮：修复后回答仍无效：no JSON object found"},
		{"arbitrator, turn 1: 2 failed attempts, last 503", "仲裁方第 1 轮：2 failed attempts, last 503"},
		{"interrupted by the user", "被用户中断"},
		{cutMessage, "在 token 上限处被截断（params.maxTokensPerResponse：4000）：回答不完整"},
		{`cut at the token limit before any answer (finish_reason "length", 4000 completion tokens): raise params.maxTokensPerResponse`,
			`在给出回答前就达到 token 上限（finish_reason "length", 4000 completion tokens）：请调高 params.maxTokensPerResponse`},
	}
	for _, tt := range tests {
		if got := chinese.legacy(tt.in); got != tt.zh {
			t.Errorf("zh reason(%q) = %q, want %q", tt.in, got, tt.zh)
		}
		if got := english.legacy(tt.in); got != tt.in {
			t.Errorf("en reason(%q) = %q, want it unchanged", tt.in, got)
		}
	}
}

// englishPhrases returns the literal text of every English report string,
// cut at its format verbs: the headings, labels and phrases a zh report must
// not show. Fragments without a letter ("%s — %s", ": ") are left out.
func englishPhrases() []string {
	var out []string
	add := func(s string) {
		for _, f := range regexp.MustCompile(`%[a-z]`).Split(s, -1) {
			f = strings.Trim(f, " ,.:;()*`#—–|")
			if strings.ContainsFunc(f, unicode.IsLetter) && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	v := reflect.ValueOf(english)
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			add(f.String())
		case reflect.Map:
			for _, k := range f.MapKeys() {
				add(f.MapIndex(k).String())
			}
		}
	}
	return out
}

// asciiLabel matches an ASCII colon right after Chinese text, also when the
// Markdown or HTML of a bold label closes in between, or right before it.
var asciiLabel = regexp.MustCompile(`\p{Han}(\*\*|\*|</strong>|</em>|\)|）)*:|: ?\p{Han}`)

// TestChineseLeavesNoEnglish renders every zh report of the fixtures, a
// topic's and a motion's, in Markdown and HTML, and the summary of topics
// and motions: none may show an English heading, label, table header or
// phrase of the program's own, nor an ASCII colon after a Chinese label.
func TestChineseLeavesNoEnglish(t *testing.T) {
	run := rendertest.Chinese()
	run.Motions = motionRun().Motions
	outputs := map[string][]byte{"summary.md": Summary(run, nil)}
	add := func(name string, page []byte, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		outputs[name] = page
	}
	page, err := SummaryHTML(run, nil)
	add("summary.html", page, err)
	for i := range run.Topics {
		topic := &run.Topics[i]
		outputs[topic.ID+".md"] = Topic(run, topic)
		page, err := TopicHTML(run, topic)
		add(topic.ID+".html", page, err)
	}
	for i := range run.Motions {
		m := &run.Motions[i]
		outputs[m.ID+".md"] = Motion(run, m)
		page, err := MotionHTML(run, m)
		add(m.ID+".html", page, err)
	}

	phrases := englishPhrases()
	for name, out := range outputs {
		s := string(out)
		for _, p := range phrases {
			// A phrase of one word may be the fixtures' own text, so it
			// counts only where the program puts its words: a heading, a
			// label, a table header or a status.
			places := []string{"# " + p + "\n", "**" + p, "- " + p + ":", "| " + p + " |", ">" + p + "<", ">" + p + ":", "— " + p + "\n"}
			if strings.Contains(p, " ") {
				places = []string{p}
			}
			for _, place := range places {
				if strings.Contains(s, place) {
					t.Errorf("%s shows the English %q", name, place)
				}
			}
		}
		for _, m := range asciiLabel.FindAllString(s, -1) {
			t.Errorf("%s has an ASCII colon beside Chinese text: %q", name, m)
		}
	}
	if len(phrases) < 100 {
		t.Fatalf("only %d English phrases derived from the words; the derivation is broken", len(phrases))
	}
}
