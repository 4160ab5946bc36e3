package render

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// sayings says each reason code in one language: one function per code,
// each with a constant format, so that go vet checks every format against
// its arguments. A reason's arguments are strings (numbers as written).
type sayings map[tree.ReasonCode]func(r tree.Reason) string

// follows holds the codes whose next part is the failure they announce,
// said after a colon rather than as a part of its own.
var follows = map[tree.ReasonCode]bool{
	tree.InvalidAfterRepair: true, tree.NoJudgeOfPanel: true, tree.OrderCheckFailed: true, tree.TurnFailure: true,
}

var englishSayings = sayings{
	tree.AllAgreed:         func(tree.Reason) string { return "all debaters agreed" },
	tree.NoDivergenceAmong: func(tree.Reason) string { return "no divergence among the debaters present" },
	tree.MissingDebaters:   func(r tree.Reason) string { return fmt.Sprintf("missing: %s", strings.Join(r.Args, ", ")) },
	tree.PositionsOnlyAll:  func(tree.Reason) string { return "positions only: every debater answered once" },
	tree.PositionsOnlySome: func(r tree.Reason) string {
		return fmt.Sprintf("positions only: %s of %s debaters answered", r.Arg(0), r.Arg(1))
	},
	tree.RoundLimit: func(r tree.Reason) string { return fmt.Sprintf("round limit %s reached: verdicts forced", r.Arg(0)) },
	tree.TokenBudget: func(r tree.Reason) string {
		return fmt.Sprintf("budget of %s tokens reached: verdicts forced", r.Arg(0))
	},
	tree.CostBudget: func(r tree.Reason) string {
		return fmt.Sprintf("budget of %s (budget.maxCost) spent: verdicts forced", r.Arg(0))
	},
	tree.VerdictsMissing: func(r tree.Reason) string {
		if r.Arg(0) == "1" {
			return "1 verdict missing after repair"
		}
		return fmt.Sprintf("%s verdicts missing after repair", r.Arg(0))
	},
	tree.SplitInto: func(r tree.Reason) string {
		if r.Arg(0) == "1" {
			return "1 divergence: split into a child debate"
		}
		return fmt.Sprintf("%s divergences: split into child debates", r.Arg(0))
	},
	tree.SplitOverLimit: func(r tree.Reason) string {
		return fmt.Sprintf("%s divergences: %s split into child debates, %s beyond params.maxDivergences (%s) left undecided",
			r.Arg(0), r.Arg(1), r.Arg(2), r.Arg(3))
	},
	tree.NoPositions:        func(tree.Reason) string { return "no debater answered the position step" },
	tree.NoRebuttals:        func(tree.Reason) string { return "no debater answered the rebuttal step" },
	tree.NoStatus:           func(tree.Reason) string { return "node ended without a status" },
	tree.NoJudgeOfPanel:     func(tree.Reason) string { return "no judge of the panel answered; the last" },
	tree.InterruptedByUser:  func(tree.Reason) string { return "interrupted by the user" },
	tree.DeadlineExceeded:   func(tree.Reason) string { return "interrupted: deadline exceeded" },
	tree.Panicked:           func(r tree.Reason) string { return fmt.Sprintf("panic: %s", r.Arg(0)) },
	tree.NoAnswer:           func(tree.Reason) string { return "no answer" },
	tree.InvalidAfterRepair: func(tree.Reason) string { return "answer invalid after repair" },
	tree.CutIncomplete: func(r tree.Reason) string {
		return fmt.Sprintf("cut at the token limit (params.maxTokensPerResponse: %s): the answer is incomplete", r.Arg(0))
	},
	tree.CallFailure: func(r tree.Reason) string { return r.Arg(1) },
	tree.Unusable: func(r tree.Reason) string {
		if r.Arg(1) == "" {
			return englishClass(r.Arg(0))
		}
		return fmt.Sprintf("%s (%s)", englishClass(r.Arg(0)), r.Arg(1))
	},
	tree.AttemptsFailed: func(r tree.Reason) string {
		if r.Arg(0) == "1" {
			return fmt.Sprintf("1 failed attempt, %s", englishClass(r.Arg(1)))
		}
		return fmt.Sprintf("%s failed attempts, last %s", r.Arg(0), englishClass(r.Arg(1)))
	},
	tree.NoVerdictHere:    func(tree.Reason) string { return "no verdict on this divergence" },
	tree.OrderCheckFailed: func(tree.Reason) string { return "order check failed" },
	tree.OrderCheckNone:   func(tree.Reason) string { return "order check: no verdict on this divergence" },
	tree.FavouredThen: func(r tree.Reason) string {
		return fmt.Sprintf("favoured %s, then %s with the sides reversed", r.Arg(0), r.Arg(1))
	},
	tree.RecusedFor: func(r tree.Reason) string {
		return fmt.Sprintf("debater %s, written by %s, takes a side; the judge voted with %s", r.Arg(0), r.Arg(1), r.Arg(2))
	},
	tree.ProposerResolved: func(r tree.Reason) string {
		return fmt.Sprintf("the proposer resolved the debate (#%s)", r.Arg(0))
	},
	tree.RulingClosed:     func(r tree.Reason) string { return fmt.Sprintf("the ruling #%s closed it", r.Arg(0)) },
	tree.ArbitratorClosed: func(r tree.Reason) string { return fmt.Sprintf("closed by the arbitrator's ruling #%s", r.Arg(0)) },
	tree.ClosedAtTurnLimit: func(r tree.Reason) string {
		return fmt.Sprintf("closed by the arbitrator's ruling #%s after the turn limit (%s)", r.Arg(0), r.Arg(1))
	},
	tree.TurnFailure: func(r tree.Reason) string { return fmt.Sprintf("%s, turn %s", r.Arg(0), r.Arg(1)) },
	tree.Text:        func(r tree.Reason) string { return r.Arg(0) },
}

var chineseSayings = sayings{
	tree.AllAgreed:         func(tree.Reason) string { return "各方达成一致" },
	tree.NoDivergenceAmong: func(tree.Reason) string { return "到场辩手之间没有分歧" },
	tree.MissingDebaters:   func(r tree.Reason) string { return fmt.Sprintf("缺席：%s", strings.Join(r.Args, "、")) },
	tree.PositionsOnlyAll:  func(tree.Reason) string { return "仅立场：每位辩手各回答一次" },
	tree.PositionsOnlySome: func(r tree.Reason) string {
		return fmt.Sprintf("仅立场：%[2]s 位辩手中 %[1]s 位作答", r.Arg(0), r.Arg(1))
	},
	tree.RoundLimit:  func(r tree.Reason) string { return fmt.Sprintf("达到轮数上限 %s：强制裁决", r.Arg(0)) },
	tree.TokenBudget: func(r tree.Reason) string { return fmt.Sprintf("达到 %s token 预算：强制裁决", r.Arg(0)) },
	tree.CostBudget: func(r tree.Reason) string {
		return fmt.Sprintf("费用预算 %s（budget.maxCost）已用尽：强制裁决", r.Arg(0))
	},
	tree.VerdictsMissing: func(r tree.Reason) string {
		return fmt.Sprintf("修复后仍缺 %s 条裁决", r.Arg(0))
	},
	tree.SplitInto: func(r tree.Reason) string { return fmt.Sprintf("%s 个分歧：拆分为子辩论", r.Arg(0)) },
	tree.SplitOverLimit: func(r tree.Reason) string {
		return fmt.Sprintf("%s 个分歧：%s 个拆分为子辩论，%s 个超出 params.maxDivergences（%s），未作裁决",
			r.Arg(0), r.Arg(1), r.Arg(2), r.Arg(3))
	},
	tree.NoPositions:        func(tree.Reason) string { return "没有辩手给出立场" },
	tree.NoRebuttals:        func(tree.Reason) string { return "没有辩手给出反驳" },
	tree.NoStatus:           func(tree.Reason) string { return "节点结束时没有状态" },
	tree.NoJudgeOfPanel:     func(tree.Reason) string { return "评审团中没有裁判给出回答；最后一位" },
	tree.InterruptedByUser:  func(tree.Reason) string { return "被用户中断" },
	tree.DeadlineExceeded:   func(tree.Reason) string { return "已中断：超过时限" },
	tree.Panicked:           func(r tree.Reason) string { return fmt.Sprintf("程序崩溃：%s", r.Arg(0)) },
	tree.NoAnswer:           func(tree.Reason) string { return "没有回答" },
	tree.InvalidAfterRepair: func(tree.Reason) string { return "修复后回答仍无效" },
	tree.CutIncomplete: func(r tree.Reason) string {
		return fmt.Sprintf("在 token 上限处被截断（params.maxTokensPerResponse：%s）：回答不完整", r.Arg(0))
	},
	tree.CallFailure: func(r tree.Reason) string {
		if c, ok := chineseClasses[r.Arg(0)]; ok {
			return fmt.Sprintf("%s（%s）", c, r.Arg(1))
		}
		return r.Arg(1)
	},
	tree.Unusable: func(r tree.Reason) string {
		c := cmp.Or(chineseClasses[r.Arg(0)], r.Arg(0))
		if r.Arg(1) == "" {
			return c
		}
		return fmt.Sprintf("%s（%s）", c, r.Arg(1))
	},
	tree.AttemptsFailed: func(r tree.Reason) string {
		last := cmp.Or(chineseClasses[r.Arg(1)], r.Arg(1))
		if r.Arg(0) == "1" {
			return fmt.Sprintf("失败 1 次：%s", last)
		}
		return fmt.Sprintf("失败 %s 次，最后一次：%s", r.Arg(0), last)
	},
	tree.NoVerdictHere:    func(tree.Reason) string { return "没有对这个分歧作出裁决" },
	tree.OrderCheckFailed: func(tree.Reason) string { return "顺序检查失败" },
	tree.OrderCheckNone:   func(tree.Reason) string { return "顺序检查：没有对这个分歧作出裁决" },
	tree.FavouredThen: func(r tree.Reason) string {
		return fmt.Sprintf("先支持 %s，调换双方顺序后支持 %s", r.Arg(0), r.Arg(1))
	},
	tree.RecusedFor: func(r tree.Reason) string {
		return fmt.Sprintf("站队的辩手 %s 由 %s 写成，裁判以 %s 投票", r.Arg(0), r.Arg(1), r.Arg(2))
	},
	tree.ProposerResolved: func(r tree.Reason) string { return fmt.Sprintf("提议方以 #%s 解决了辩论", r.Arg(0)) },
	tree.RulingClosed:     func(r tree.Reason) string { return fmt.Sprintf("裁决 #%s 结束了辩论", r.Arg(0)) },
	tree.ArbitratorClosed: func(r tree.Reason) string { return fmt.Sprintf("由仲裁方的裁决 #%s 结束", r.Arg(0)) },
	tree.ClosedAtTurnLimit: func(r tree.Reason) string {
		return fmt.Sprintf("达到轮次上限（%[2]s）后由仲裁方的裁决 #%[1]s 结束", r.Arg(0), r.Arg(1))
	},
	tree.TurnFailure: func(r tree.Reason) string {
		return fmt.Sprintf("%s第 %s 轮", cmp.Or(chineseRoles[protocol.Role(r.Arg(0))], r.Arg(0)), r.Arg(1))
	},
	tree.Text: func(r tree.Reason) string { return r.Arg(0) },
}

// englishClasses and chineseClasses name the classes of a provider's
// failure by their codes (see providers.Class); a class without a name is
// said by its code.
var (
	englishClasses = map[string]string{
		"other": "unrecognised failure", "network": "network error", "timeout": "timeout",
		"rate-limited": "rate limited", "server-error": "server error", "conflict": "conflict",
		"prompt-too-long": "prompt too long for the model", "key-refused": "key refused",
		"model-unavailable": "model not found or not allowed", "bad-request": "bad request",
		"canceled": "canceled", "invalid-response": "invalid response", "empty-answer": "empty answer",
		"cut-at-limit": "cut at the token limit", "content-refused": "content refused",
		"answer-too-large": "answer too large", "error-in-answer": "error in the answer",
		"no-system-message": "no system message", "request-too-large": "request too large",
		"quota-exhausted": "quota exhausted",
	}
	chineseClasses = map[string]string{
		"other": "无法识别的失败", "network": "网络错误", "timeout": "超时",
		"rate-limited": "请求过于频繁", "server-error": "服务器错误", "conflict": "冲突",
		"prompt-too-long": "提示超出模型的上下文长度", "key-refused": "密钥被拒绝",
		"model-unavailable": "模型不存在或此密钥无权使用", "bad-request": "请求被拒绝",
		"canceled": "已取消", "invalid-response": "无效的响应", "empty-answer": "空回答",
		"cut-at-limit": "在给出回答前就达到 token 上限", "content-refused": "回答被拒绝或被内容过滤拦下",
		"answer-too-large": "回答过大", "error-in-answer": "回答中出现错误",
		"no-system-message": "模型不接受系统消息", "request-too-large": "请求超出端点的上限",
		"quota-exhausted": "额度已用尽",
	}
)

func englishClass(code string) string { return cmp.Or(englishClasses[code], code) }

// say says reasons in the report's language; without codes (a run.json
// written before they were recorded) it says the prose recorded instead.
func (w *words) say(rs []tree.Reason, prose string) string {
	if len(rs) == 0 {
		return w.legacy(prose)
	}
	var b strings.Builder
	for i, r := range rs {
		b.WriteString(w.sayOne(r))
		if i < len(rs)-1 {
			if follows[r.Code] {
				b.WriteString(w.colonSep)
			} else {
				b.WriteString(w.reasonSep)
			}
		}
	}
	return b.String()
}

// sayOne says one reason: by its saying in the report's language; else, a
// quote's, by the language's words for the codes of package quote or the
// verifier's English words; else by its code and arguments.
func (w *words) sayOne(r tree.Reason) string {
	if s := w.sayings[r.Code]; s != nil {
		return s(r)
	}
	q := quote.Reason{Code: quote.ReasonCode(r.Code), Args: r.Args}
	if s := w.quoteSayings[q.Code]; s != nil {
		return s(q)
	}
	return q.String()
}

// ReasonText says reasons in English, as the program logs them and
// run.json keeps them beside their codes.
func ReasonText(rs ...tree.Reason) string { return english.say(rs, "") }
