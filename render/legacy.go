package render

import (
	"regexp"
	"strings"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/tree"
)

// This file is the one place that reads a reason as prose: a run.json
// written before schema version 5 records why a node stopped, a call
// failed or a participant fell back in the program's English words
// only, without codes. Reports of such runs say those words as they are,
// and the Chinese report rewrites the ones it knows below. Runs of
// schema version 5 and later record codes, and nothing here reads them.

// reasonRule rewrites one kind of prose reason.
type reasonRule struct {
	re   *regexp.Regexp
	repl string
}

// legacyChinese rewrites the prose reasons of older runs in Chinese.
var legacyChinese = append(turnReasons(chineseRoles), []reasonRule{
	{regexp.MustCompile(`^all debaters agreed$`), "各方达成一致"},
	{regexp.MustCompile(`^no divergence among the debaters present$`), "到场辩手之间没有分歧"},
	{regexp.MustCompile(`^missing: (.*)$`), "缺席：$1"},
	{regexp.MustCompile(`^no answer$`), "没有回答"},
	{regexp.MustCompile(`^round limit (\d+) reached: verdicts forced$`), "达到轮数上限 $1：强制裁决"},
	{regexp.MustCompile(`^budget of (\d+) tokens reached: verdicts forced$`), "达到 $1 token 预算：强制裁决"},
	{regexp.MustCompile(`^(\d+) divergences?: split into (?:a )?child debates?$`), "$1 个分歧：拆分为子辩论"},
	{regexp.MustCompile(`^(\d+) divergences: (\d+) split into child debates?, (\d+) beyond params\.maxDivergences \((\d+)\) left undecided$`), "$1 个分歧：$2 个拆分为子辩论，$3 个超出 params.maxDivergences（$4），未作裁决"},
	{regexp.MustCompile(`^no debater answered the position step$`), "没有辩手给出立场"},
	{regexp.MustCompile(`^no debater answered the rebuttal step$`), "没有辩手给出反驳"},
	{regexp.MustCompile(`^node ended without a status$`), "节点结束时没有状态"},
	{regexp.MustCompile(`^1 failed attempt, (.*)$`), "失败 1 次：$1"},
	{regexp.MustCompile(`^(\d+) failed attempts, last (.*)$`), "失败 $1 次，最后一次：$2"},
	{regexp.MustCompile(`^key refused(.*)$`), "密钥被拒绝$1"},
	{regexp.MustCompile(`^model not found or not allowed(.*)$`), "模型不存在或此密钥无权使用$1"},
	{regexp.MustCompile(`^model not found(.*)$`), "模型不存在$1"},
	{regexp.MustCompile(`^request too large(.*)$`), "请求超出端点的上限$1"},
	{regexp.MustCompile(`^quota exhausted(.*)$`), "额度已用尽$1"},
	{regexp.MustCompile(`^prompt too long for the model(.*)$`), "提示超出模型的上下文长度$1"},
	{regexp.MustCompile(`^1 verdict missing after repair$`), "修复后仍缺 1 条裁决"},
	{regexp.MustCompile(`^(\d+) verdicts missing after repair$`), "修复后仍缺 $1 条裁决"},
	{regexp.MustCompile(`^(\d+) consecutive failures: (.*)$`), "连续失败 $1 次：$2"},
	{regexp.MustCompile(`^cut at the token limit \(params\.maxTokensPerResponse: (\d+)\): the answer is incomplete$`), "在 token 上限处被截断（params.maxTokensPerResponse：$1）：回答不完整"},
	{regexp.MustCompile(`^empty answer \((.*)\)$`), "空回答（$1）"},
	{regexp.MustCompile(`^the provider's content filter withheld the answer \(finish_reason ("[^"]*")\)(.*)$`), "服务方的内容过滤拦下了回答（finish_reason $1）$2"},
	{regexp.MustCompile(`^the model refused: (.*)$`), "模型拒绝回答：$1"},
	{regexp.MustCompile(`^the proposer resolved the debate \(#(\d+)\)$`), "提议方以 #$1 解决了辩论"},
	{regexp.MustCompile(`^the ruling #(\d+) closed it$`), "裁决 #$1 结束了辩论"},
	{regexp.MustCompile(`^closed by the arbitrator's ruling #(\d+)$`), "由仲裁方的裁决 #$1 结束"},
	{regexp.MustCompile(`^closed by the arbitrator's ruling #(\d+) after the turn limit \((\d+)\)$`), "达到轮次上限（$2）后由仲裁方的裁决 #$1 结束"},
	{regexp.MustCompile(`^interrupted by the user$`), "被用户中断"},
	{regexp.MustCompile(`^interrupted: deadline exceeded$`), "已中断：超过时限"},
	{regexp.MustCompile(`^cut at the token limit before any answer \((.*)\): raise params\.maxTokensPerResponse$`), "在给出回答前就达到 token 上限（$1）：请调高 params.maxTokensPerResponse"},
}...)

// turnReasons returns the Chinese rules for the reasons a motion failed at
// a role's turn, with each role named as in roles.
func turnReasons(roles map[protocol.Role]string) []reasonRule {
	var rules []reasonRule
	for _, r := range []protocol.Role{protocol.Proposer, protocol.Opponent, protocol.Arbitrator} {
		rules = append(rules,
			reasonRule{regexp.MustCompile(`^` + string(r) + `, turn (\d+): answer invalid after repair: (.*)$`), roles[r] + "第 $1 轮：修复后回答仍无效：$2"},
			reasonRule{regexp.MustCompile(`^` + string(r) + `, turn (\d+): answer invalid after repair$`), roles[r] + "第 $1 轮：修复后回答仍无效"},
			reasonRule{regexp.MustCompile(`^` + string(r) + `, turn (\d+): (.*)$`), roles[r] + "第 $1 轮：$2"})
	}
	return rules
}

// legacy says a prose reason of an older run in the report's language:
// each of its "; "-separated parts that the language has a rule for is
// rewritten, the others are kept.
func (w *words) legacy(s string) string {
	if len(w.legacyReasons) == 0 {
		return s
	}
	parts := strings.Split(s, "; ")
	for i, part := range parts {
		for _, rule := range w.legacyReasons {
			if rule.re.MatchString(part) {
				parts[i] = rule.re.ReplaceAllString(part, rule.repl)
				break
			}
		}
	}
	return strings.Join(parts, w.reasonSep)
}

// legacyAdapted says an adaptation of an older run, recorded in the
// client's words only: without the parameter ("left out (the model's
// default)", "no streaming"), another in its place
// ("max_completion_tokens"), or the change as the client put it ("system",
// "sent as the first user message").
func (w *words) legacyAdapted(a tree.Adaptation) string {
	switch rest, ok := strings.CutPrefix(a.Change, "left out"); {
	case ok:
		return w.withoutFmt(a.Param + rest)
	case a.Change == "no streaming":
		return w.withoutFmt(a.Param)
	case a.Param == "response_format" && !strings.Contains(a.Change, " "):
		// The one change of format: a schema where a JSON object was refused.
		return w.insteadFmt("response_format "+a.Change, "json_object")
	case !strings.Contains(a.Change, " "):
		return w.insteadFmt(a.Change, a.Param)
	}
	return a.Param + " " + a.Change
}
