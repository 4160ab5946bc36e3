package render

import "github.com/debatehq/debate/tree"

// words holds every fixed string of the reports in one language.
type words struct {
	topicHeading    string // topic id, title
	date            string
	duration        string
	debaters        string
	judge           string
	maxRounds       string
	depthReached    string
	depthFmt        string // depth, rounds
	tokens          string
	tokensFmt       string // total, prompt, completion, calls
	failedCallsFmt  string // failed calls
	cost            string
	status          string
	fellBackFrom    string // primary model
	atNode          string // node id
	background      string
	annotations     string
	coreQuestions   string
	roundRoot       string // round
	roundChild      string // round, node id, title
	between         string // list of parties
	uninvolvedFmt   string // list of parties
	positions       string
	rebuttals       string
	rebuttalBy      string // party
	triage          string
	forcedTriage    string
	consensus       string
	divergencesFmt  string // count
	uninvolved      string
	forcedVerdicts  string
	recommendation  string
	verdictMissing  string
	reasoning       string
	none            string
	notReached      string
	noAnswerFmt     string // step name, error messages
	noAnswer        string
	judgeErrors     string
	rawJudgment     string
	otherErrors     string
	conclusion      string
	consensusPoints string
	verdicts        string
	synthesis       string
	pathOverview    string
	summaryHeading  string
	colID           string
	colTopic        string
	colStatus       string
	colRounds       string
	colConsensus    string
	colDivergences  string
	colVerdicts     string
	colFailures     string
	colTokens       string
	colCost         string
	total           string
	conclusions     string
	incompleteFmt   string // failed nodes, interrupted nodes
	proposedEdits   string
	noEdits         string
	listSep         string
	statuses        map[tree.Status]string
	steps           map[tree.Step]string
}

var english = words{
	topicHeading:    "Topic %s: %s",
	date:            "Date",
	duration:        "Duration",
	debaters:        "Debaters",
	judge:           "Judge",
	maxRounds:       "Max rounds",
	depthReached:    "Depth reached",
	depthFmt:        "%d (round %d)",
	tokens:          "Tokens",
	tokensFmt:       "%s (prompt %s, completion %s) in %d calls",
	failedCallsFmt:  ", %d failed",
	cost:            "Cost",
	status:          "Status",
	fellBackFrom:    "fell back from %s",
	atNode:          "at %s",
	background:      "Background",
	annotations:     "Annotations",
	coreQuestions:   "Core questions",
	roundRoot:       "Round %d — root",
	roundChild:      "Round %d — divergence %s: %s",
	between:         "Sides: %s.",
	uninvolvedFmt:   " Uninvolved: %s.",
	positions:       "Positions",
	rebuttals:       "Rebuttals",
	rebuttalBy:      "Rebuttal by %s",
	triage:          "Judge triage",
	forcedTriage:    "Judge's forced verdict",
	consensus:       "Consensus",
	divergencesFmt:  "Divergences (%d)",
	uninvolved:      "uninvolved",
	forcedVerdicts:  "Forced verdicts",
	recommendation:  "Recommendation",
	verdictMissing:  "⚠ missing: the judge gave no verdict, even after repair",
	reasoning:       "Reasoning",
	none:            "None.",
	notReached:      "Not reached.",
	noAnswerFmt:     "No %s — %s",
	noAnswer:        "no answer recorded",
	judgeErrors:     "Judge errors",
	rawJudgment:     "The judge's raw answer (not valid):",
	otherErrors:     "Errors",
	conclusion:      "Conclusion",
	consensusPoints: "Consensus points",
	verdicts:        "Verdicts",
	synthesis:       "Synthesis",
	pathOverview:    "Path overview",
	summaryHeading:  "Debate summary",
	colID:           "ID",
	colTopic:        "Topic",
	colStatus:       "Status",
	colRounds:       "Rounds",
	colConsensus:    "Consensus",
	colDivergences:  "Divergences",
	colVerdicts:     "Forced verdicts",
	colFailures:     "Failures",
	colTokens:       "Tokens",
	colCost:         "Cost",
	total:           "Total",
	conclusions:     "Topic conclusions",
	incompleteFmt:   "Incomplete: %d failed and %d interrupted nodes; the points below are what was reached.",
	proposedEdits:   "Proposed edits to the shared documents",
	noEdits:         "No edits were proposed.",
	listSep:         ", ",
	statuses: map[tree.Status]string{
		tree.Pending:     "pending",
		tree.Split:       "split",
		tree.Converged:   "converged ✓",
		tree.Forced:      "forced verdict",
		tree.Failed:      "failed",
		tree.Interrupted: "interrupted",
	},
	steps: map[tree.Step]string{
		tree.StepPosition:  "position",
		tree.StepRebuttal:  "rebuttal",
		tree.StepJudge:     "judgment",
		tree.StepSynthesis: "synthesis",
		tree.StepEdits:     "edits",
	},
}

var chinese = words{
	topicHeading:    "辩题 %s: %s",
	date:            "日期",
	duration:        "用时",
	debaters:        "参与模型",
	judge:           "评审模型",
	maxRounds:       "最大轮数",
	depthReached:    "实际深度",
	depthFmt:        "%d（第 %d 轮）",
	tokens:          "Token 用量",
	tokensFmt:       "%s（提示 %s，生成 %s），共 %d 次调用",
	failedCallsFmt:  "，失败 %d 次",
	cost:            "费用",
	status:          "状态",
	fellBackFrom:    "回退自 %s",
	atNode:          "于 %s",
	background:      "背景",
	annotations:     "补充说明",
	coreQuestions:   "核心问题",
	roundRoot:       "Round %d — 根议题",
	roundChild:      "Round %d — 分歧 %s: %s",
	between:         "争议方：%s。",
	uninvolvedFmt:   "未站队：%s。",
	positions:       "立场",
	rebuttals:       "反驳",
	rebuttalBy:      "%s 的反驳",
	triage:          "裁判搜集",
	forcedTriage:    "裁判强制裁决",
	consensus:       "合意",
	divergencesFmt:  "分歧 (%d 个)",
	uninvolved:      "未站队",
	forcedVerdicts:  "强制裁决",
	recommendation:  "裁判推荐",
	verdictMissing:  "⚠ 缺失：修复后裁判仍未给出裁决",
	reasoning:       "理由",
	none:            "无。",
	notReached:      "未进行。",
	noAnswerFmt:     "缺少%s — %s",
	noAnswer:        "未收到回答",
	judgeErrors:     "裁判错误",
	rawJudgment:     "裁判的原始回答（无效）：",
	otherErrors:     "错误",
	conclusion:      "最终结论",
	consensusPoints: "合意要点",
	verdicts:        "裁决要点",
	synthesis:       "总结",
	pathOverview:    "辩论路径概览",
	summaryHeading:  "辩论汇总",
	colID:           "编号",
	colTopic:        "议题",
	colStatus:       "状态",
	colRounds:       "轮数",
	colConsensus:    "合意数",
	colDivergences:  "分歧数",
	colVerdicts:     "强制裁决",
	colFailures:     "失败",
	colTokens:       "Token",
	colCost:         "费用",
	total:           "合计",
	conclusions:     "各议题结论",
	incompleteFmt:   "未完成：失败节点 %d 个，中断节点 %d 个；以下为已得出的结论。",
	proposedEdits:   "需要更新到共享文档的内容",
	noEdits:         "未提出修改建议。",
	listSep:         "、",
	statuses: map[tree.Status]string{
		tree.Pending:     "未完成",
		tree.Split:       "已分裂",
		tree.Converged:   "已收敛 ✓",
		tree.Forced:      "强制裁决",
		tree.Failed:      "失败",
		tree.Interrupted: "已中断",
	},
	steps: map[tree.Step]string{
		tree.StepPosition:  "立场",
		tree.StepRebuttal:  "反驳",
		tree.StepJudge:     "裁判结果",
		tree.StepSynthesis: "总结",
		tree.StepEdits:     "修改建议",
	},
}

// wordsFor returns the strings of a run's report language: Chinese for "zh",
// English otherwise.
func wordsFor(run *tree.Run) *words {
	if run != nil && run.Language == "zh" {
		return &chinese
	}
	return &english
}

// statusWord returns the report word for a status, or the status itself when
// it is unknown.
func (w *words) statusWord(s tree.Status) string {
	if v, ok := w.statuses[s]; ok {
		return v
	}
	return string(s)
}

// stepWord returns the report word for a step, or the step itself.
func (w *words) stepWord(s tree.Step) string {
	if v, ok := w.steps[s]; ok {
		return v
	}
	return string(s)
}
