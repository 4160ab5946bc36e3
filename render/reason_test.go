package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// reasonCodes returns every ReasonCode constant that the Go file at path
// declares (tree's, quote's), read from its source, so that a new code
// without words in a language fails.
func reasonCodes(t *testing.T, path string) []tree.ReasonCode {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var codes []tree.ReasonCode
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || spec.Type == nil || len(spec.Values) != 1 {
			return true
		}
		if id, ok := spec.Type.(*ast.Ident); ok && id.Name == "ReasonCode" {
			lit := spec.Values[0].(*ast.BasicLit)
			s, _ := strconv.Unquote(lit.Value)
			codes = append(codes, tree.ReasonCode(s))
		}
		return true
	})
	if len(codes) < 20 {
		t.Fatalf("read %d reason codes from %s", len(codes), path)
	}
	return codes
}

// TestEveryReasonSaid checks that each language says every code, with
// every argument it is given.
func TestEveryReasonSaid(t *testing.T) {
	t.Parallel()
	for _, code := range reasonCodes(t, "../tree/reason.go") {
		for name, w := range map[string]*words{"en": &english, "zh": &chinese} {
			say := w.sayings[code]
			if say == nil {
				t.Errorf("%s says nothing for %q", name, code)
				continue
			}
			r := tree.Because(code, "ARG0", "ARG1", "ARG2", "ARG3")
			got := say(r)
			if strings.Contains(got, "%!") {
				t.Errorf("%s: %q says %q: a format does not fit its arguments", name, code, got)
			}
		}
	}
}

// TestEveryQuoteReasonSaid checks that Chinese says every code of package
// quote (English says them in the verifier's words), with the arguments
// the English words say.
func TestEveryQuoteReasonSaid(t *testing.T) {
	t.Parallel()
	for _, code := range reasonCodes(t, "../quote/reason.go") {
		if code == tree.Text {
			continue // words without a code, said as they are
		}
		if chinese.quoteSayings[quote.ReasonCode(code)] == nil {
			t.Errorf("zh says nothing for %q", code)
			continue
		}
		r := []tree.Reason{tree.Because(code, "ARG0", "ARG1")}
		en, zh := english.say(r, ""), chinese.say(r, "")
		if strings.Contains(en+zh, "%!") || strings.Count(en, "ARG") != strings.Count(zh, "ARG") {
			t.Errorf("%q says %q in English, %q in Chinese: a format does not fit its arguments", code, en, zh)
		}
	}
}

// TestReasonsReadAsCodes rewords every English reason a run records (what
// the program wrote in words beside each code) and checks that the Chinese
// and the English reports are unchanged: the reports read the codes only.
func TestReasonsReadAsCodes(t *testing.T) {
	t.Parallel()
	run := withCodes(rendertest.Chinese())
	before := reports(run)
	for _, want := range []string{"达到轮数上限 3：强制裁决", "失败 2 次，最后一次：503", "修复后回答仍无效", "密钥被拒绝（401）", "由仲裁方的裁决 #9 结束", "反方第 2 轮：请求过于频繁（429 too many requests）",
		"顺序检查失败：超时（no answer within 2m0s）", "先支持 party-a，调换双方顺序后支持 party-b", "请求不再发送 temperature（使用模型的默认值）"} {
		if !strings.Contains(before["zh"], want) {
			t.Errorf("the Chinese reports do not say %q", want)
		}
	}
	reword(run)
	after := reports(run)
	for lang := range before {
		if before[lang] != after[lang] {
			t.Errorf("%s reports changed when the English words of the reasons changed:\n%s", lang, golden.Diff(before[lang], after[lang]))
		}
		if strings.Contains(after[lang], "REWORDED") {
			t.Errorf("%s reports show the reworded prose instead of saying the codes", lang)
		}
	}
}

// reports renders the run's topic reports, summary and motion reports in
// Chinese and English.
func reports(run *tree.Run) map[string]string {
	out := map[string]string{}
	for _, lang := range []string{"zh", "en"} {
		r := *run
		r.Language = lang
		var b strings.Builder
		for i := range r.Topics {
			b.Write(Topic(&r, &r.Topics[i]))
		}
		for i := range r.Motions {
			b.Write(Motion(&r, &r.Motions[i]))
		}
		b.Write(Summary(&r, nil))
		out[lang] = b.String()
	}
	return out
}

// withCodes gives the run's first topic and a motion reasons of many codes,
// each with its English words as the program writes them.
func withCodes(run *tree.Run) *tree.Run {
	set := func(prose *string, codes *[]tree.Reason, why ...tree.Reason) {
		*prose, *codes = ReasonText(why...), why
	}
	t := &run.Topics[0]
	root := t.Root
	set(&root.StopReason, &root.Because, tree.Because(tree.RoundLimit, 3), tree.Because(tree.VerdictsMissing, 2))
	root.Errors = append(root.Errors, tree.NodeError{Participant: run.Judge.ID, Step: tree.StepJudge})
	e := &root.Errors[len(root.Errors)-1]
	set(&e.Message, &e.Because, tree.Because(tree.InvalidAfterRepair), tree.Because(tree.Text, "no JSON object found"))
	root.Warnings = append(root.Warnings, tree.Warning{Participant: run.Debaters[0].ID, Step: tree.StepPosition})
	w := &root.Warnings[len(root.Warnings)-1]
	set(&w.Message, &w.Because, tree.Because(tree.CutIncomplete, 4000))
	root.Missing = append(root.Missing, tree.Absence{Participant: run.Debaters[1].ID, Step: tree.StepRebuttal})
	a := &root.Missing[len(root.Missing)-1]
	set(&a.Reason, &a.Because, tree.Because(tree.Unusable, "key-refused", 401))
	t.Fallbacks = append(t.Fallbacks, tree.Fallback{Participant: run.Debaters[0].ID, From: "m1", To: "m2", Node: "root"})
	f := &t.Fallbacks[len(t.Fallbacks)-1]
	set(&f.Reason, &f.Because, tree.Because(tree.AttemptsFailed, 2, 503))
	for _, c := range root.Children {
		set(&c.StopReason, &c.Because, tree.Because(tree.NoDivergenceAmong), tree.Because(tree.MissingDebaters, "Claude"))
	}
	root.Walk(func(n *tree.Node) {
		if n.Judgment == nil || len(n.Judgment.ForcedVerdicts) == 0 || len(n.Judgment.ForcedVerdicts[0].Votes) > 0 {
			return
		}
		v := &n.Judgment.ForcedVerdicts[0]
		v.Votes = []tree.Vote{
			{Judge: "judge", Model: "j1", Status: tree.VoteCounted, Favors: run.Debaters[0].ID, Recommendation: "do it"},
			{Judge: "judge-2", Model: "j2", Status: tree.VoteDropped},
			{Judge: "judge-3", Model: "j3", Status: tree.VoteUnstable, Favors: run.Debaters[0].ID},
		}
		set(&v.Votes[1].Reason, &v.Votes[1].Because, tree.Because(tree.OrderCheckFailed), tree.Because(tree.CallFailure, "timeout", "no answer within 2m0s"))
		set(&v.Votes[2].Reason, &v.Votes[2].Because, tree.Because(tree.FavouredThen, "party-a", "party-b"))
	})
	run.Adaptations = []tree.Adaptation{{Endpoint: "https://api.example.com/v1", Model: "o3", Param: "temperature",
		Change: "left out (the model's default)", How: tree.LeftOut, Reason: "Only the default (1) value is supported."}}
	m := tree.Motion{ID: "m1", Title: "A motion", Status: tree.Forced, DebateID: "d1", MaxTurns: 4}
	set(&m.StopReason, &m.Because, tree.Because(tree.ArbitratorClosed, 9))
	failed := tree.Motion{ID: "m2", Title: "Another motion", Status: tree.Failed, DebateID: "d2", MaxTurns: 4}
	failed.Errors = []tree.MotionError{{Role: "opponent", Turn: 2}}
	why := tree.Because(tree.CallFailure, "rate-limited", "429 too many requests")
	set(&failed.Errors[0].Message, &failed.Errors[0].Because, why)
	set(&failed.StopReason, &failed.Because, tree.Because(tree.TurnFailure, "opponent", 2), why)
	run.Motions = append(run.Motions, m, failed)
	return run
}

// reword replaces every English reason of the run with other words.
func reword(run *tree.Run) {
	for i := range run.Topics {
		t := &run.Topics[i]
		t.Root.Walk(func(n *tree.Node) {
			rewordIf(&n.StopReason, n.Because)
			for j := range n.Errors {
				rewordIf(&n.Errors[j].Message, n.Errors[j].Because)
			}
			for j := range n.Warnings {
				rewordIf(&n.Warnings[j].Message, n.Warnings[j].Because)
			}
			for j := range n.Missing {
				rewordIf(&n.Missing[j].Reason, n.Missing[j].Because)
			}
		})
		for j := range t.Fallbacks {
			rewordIf(&t.Fallbacks[j].Reason, t.Fallbacks[j].Because)
		}
		for _, v := range t.Root.AllVerdicts() {
			for k := range v.Votes {
				rewordIf(&v.Votes[k].Reason, v.Votes[k].Because)
			}
		}
	}
	for i := range run.Adaptations {
		run.Adaptations[i].Change = "REWORDED"
	}
	for i := range run.Motions {
		m := &run.Motions[i]
		rewordIf(&m.StopReason, m.Because)
		for j := range m.Errors {
			rewordIf(&m.Errors[j].Message, m.Errors[j].Because)
		}
	}
}

// rewordIf rewords prose recorded beside codes.
func rewordIf(prose *string, codes []tree.Reason) {
	if len(codes) > 0 {
		*prose = "REWORDED"
	}
}

// TestAdaptationsReadAsCodes checks that an adaptation is said from its
// code in each language, whatever the client's words, and that one of an
// older run (words only) is said from its words.
func TestAdaptationsReadAsCodes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a      tree.Adaptation
		en, zh string
	}{
		{tree.Adaptation{Param: "temperature", How: tree.LeftOut, Change: "REWORDED"},
			"sent without temperature (the model's default)", "请求不再发送 temperature（使用模型的默认值）"},
		{tree.Adaptation{Param: "max_tokens", How: tree.Replaced, Change: "max_completion_tokens"},
			"sent max_completion_tokens instead of max_tokens", "请求改为发送 max_completion_tokens，代替 max_tokens"},
		{tree.Adaptation{Param: "stream", How: tree.NoStreaming, Change: "REWORDED"}, "sent without stream", "请求不再发送 stream"},
		{tree.Adaptation{Param: "system", How: tree.SystemAsUser, Change: "REWORDED"},
			"system sent as the first user message", "系统消息改为作为第一条用户消息发送"},
		{tree.Adaptation{Param: "temperature", Change: "left out (the model's default)"},
			"sent without temperature (the model's default)", "请求不再发送 temperature (the model's default)"},
	} {
		if got := english.adapted(tt.a); got != tt.en {
			t.Errorf("en %+v: %q, want %q", tt.a, got, tt.en)
		}
		if got := chinese.adapted(tt.a); got != tt.zh {
			t.Errorf("zh %+v: %q, want %q", tt.a, got, tt.zh)
		}
	}
}
