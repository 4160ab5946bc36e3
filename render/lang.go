package render

import (
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/tree"
)

// words holds every fixed string of the reports in one language.
type words struct {
	topicHeading       string // topic id, title
	date               string
	duration           string
	debaters           string
	judge              string
	maxRounds          string
	depthReached       string
	depthFmt           string // depth, rounds
	tokens             string
	tokensFmt          string // total, prompt, completion, calls
	failedCallsFmt     string // failed calls
	cost               string
	status             string
	fellBackFrom       string // primary model
	atNode             string // node id
	background         string
	annotations        string
	coreQuestions      string
	roundRoot          string // round
	roundChild         string // round, node id, title
	between            string // list of parties
	uninvolvedFmt      string // list of parties
	positions          string
	rebuttals          string
	rebuttalBy         string // party
	triage             string
	forcedTriage       string
	consensus          string
	divergencesFmt     string // count
	uninvolved         string
	forcedVerdicts     string
	recommendation     string
	verdictMissing     string
	verdictDropped     string
	verdictOverLimit   string
	verdictSplit       string
	verdictUnstable    string
	aliases            string
	stances            string
	movedFmt           string // moved, of
	conformityFmt      string // count
	persuasionFmt      string // count
	figure, count      string
	interval95         string
	figMoved           string
	figConformity      string
	figPersuasion      string
	figLone            string
	figMajority        string
	ledger             string
	colNode            string
	colDebater         string
	colSide            string
	colLine            string
	colJudgeRead       string
	colMove            string
	movedTowardFmt     string // debater
	judgeAudit         string
	nothingAudited     string
	auditNote          string
	expected           string
	auditFirst         string
	auditMiddle        string
	auditLast          string
	auditLongest       string
	auditFamily        string
	auditFlips         string
	auditFlagFmt       string // model, check, count, of, low %, high %, expected %
	auditTooFewFmt     string // verdicts, the fewest that can show a bias
	auditTooFewOne     string // the same for one verdict
	kept, moved        string
	notStated          string
	conformity         string
	persuasion         string
	disagree           string
	aliasFmt           string // alias, debater
	quotes             string
	quoteCountFmt      string // debater, made, verified, unverified
	quoteVerified      string
	quoteUnverified    string
	quoteLineFmt       string // document, line
	quoteLinesFmt      string // document, lines
	quotesRepository   string // quotes, when the repository could be quoted too
	repository         string
	repositoryFmt      string // commit
	repositoryDirty    string // after repositoryFmt: the digest of the changes not committed
	repoNoCommit       string
	judges             string
	votes              string
	noSide             string
	voteStatus         map[tree.VoteStatus]string
	reasoning          string
	modelReasoning     string // the fold of a model's reasoning beside its answer
	none               string
	notReached         string
	noAnswerFmt        string // step name, error messages
	noAnswer           string
	judgeErrors        string
	rawJudgment        string
	otherErrors        string
	missing            string // heading of the debaters missing from a step
	conclusion         string
	consensusPoints    string
	verdicts           string
	synthesis          string
	pathOverview       string
	summaryHeading     string
	colID              string
	colTopic           string
	colStatus          string
	colRounds          string
	colConsensus       string
	colDivergences     string
	colFailures        string
	colFailedCalls     string
	colFallbacks       string
	colTokens          string
	colCost            string
	total              string
	motionCalls        string // the summary table's row of the motions' calls
	runCalls           string // its row of the run's own calls
	conclusions        string
	incompleteFmt      string // failed nodes, interrupted nodes
	proposedEdits      string
	noEdits            string
	fallbacks          string
	fallbackFmt        string // topic, participant, from, to, node
	noFallbacks        string
	adaptations        string // heads the changes to requests a server refused
	adaptedFmt         string // model, host, what was sent, the server's words
	withoutFmt         string // the parameter left out
	insteadFmt         string // what was sent, the parameter it replaces
	systemAsUser       string // the system message sent as a user's
	demo               string
	contents           string
	legend             string
	listSep            string
	cachedFmt          string
	eligibleFmt        string
	byModelFmt         string
	unansweredFmt      string
	reasoningTokensFmt string
	estimatedFmt       string
	providerCostFmt    string
	// callCache labels what the call cache answered: cacheAllFmt when it
	// answered every call (calls, tokens), else cacheSomeFmt (cached,
	// calls, tokens, fresh); cacheCostFmt adds what they had cost.
	callCache, cacheAllFmt, cacheSomeFmt, cacheCostFmt string
	// colon follows a label before its value ("**Status:** …"), and
	// colonSep joins a label to its value within a line ("(uninvolved: …)").
	colon    string
	colonSep string

	// The report of a motion and the argument tree it builds on.
	debateTitle    string // debate id, when the debate has no title
	debate         string
	debateType     string
	state          string
	created        string
	updated        string
	arguments      string
	argumentTree   string
	noArguments    string
	replyTo        string // seq
	replyHidden    string
	argID          string // argument id
	noContent      string
	stateTimeline  string
	emptyTimeline  string // state
	colSeq         string
	colArgument    string
	colBy          string
	colStateAfter  string
	colTime        string
	motion         string
	turns          string
	turnsFmt       string // turns, max turns
	document       string
	documentFmt    string // path, doc id, version
	runStarted     string
	human          string
	motionErrorFmt string // role, turn, message
	motionsHeading string
	colMotion      string
	colState       string
	colTurns       string
	colArguments   string
	motionDebate   string // stop reason, debate id
	finalWord      string // seq, argument type, role
	// roles names the protocol roles; nil keeps their identifiers.
	roles  map[protocol.Role]string
	states map[protocol.State]string
	// motionStatuses name how a motion ended where it differs from a
	// topic's status.
	motionStatuses map[tree.Status]string
	statuses       map[tree.Status]string
	steps          map[tree.Step]string
	// sayings say the reasons the program records as codes; reasonSep
	// joins the parts of a reason.
	sayings   sayings
	reasonSep string
	// legacyReasons rewrite the prose reasons of a run.json written before
	// reasons were codes; nil keeps them.
	legacyReasons []reasonRule
	decision      *decisionWords
	// leftOutNotes say what follows from leaving a parameter out.
	leftOutNotes map[string]string
	// tag is the language's tag, as a page's lang attribute gives it.
	tag string
}

var english = words{
	topicHeading:     "Topic %s: %s",
	date:             "Date",
	duration:         "Duration",
	debaters:         "Debaters",
	judge:            "Judge",
	maxRounds:        "Max rounds",
	depthReached:     "Depth reached",
	depthFmt:         "%d (round %d)",
	tokens:           "Tokens",
	tokensFmt:        "%s (prompt %s, completion %s) in %d calls",
	failedCallsFmt:   ", %d failed",
	cost:             "Cost",
	status:           "Status",
	fellBackFrom:     "fell back from %s",
	atNode:           "at %s",
	background:       "Background",
	annotations:      "Annotations",
	coreQuestions:    "Core questions",
	roundRoot:        "Round %d — root",
	roundChild:       "Round %d — divergence %s: %s",
	between:          "Sides: %s.",
	uninvolvedFmt:    " Uninvolved: %s.",
	positions:        "Positions",
	rebuttals:        "Rebuttals",
	rebuttalBy:       "Rebuttal by %s",
	triage:           "Judge triage",
	forcedTriage:     "Judge's forced verdict",
	consensus:        "Consensus",
	divergencesFmt:   "Divergences (%d)",
	uninvolved:       "uninvolved",
	forcedVerdicts:   "Forced verdicts",
	recommendation:   "Recommendation",
	verdictMissing:   "⚠ missing: the judge gave no verdict, even after repair",
	verdictDropped:   "⚠ dropped by the order check: no verdict with the sides reversed",
	verdictOverLimit: "⚠ not debated: beyond this node's limit of child debates (params.maxDivergences)",
	verdictSplit:     "⚖ split: the judges are tied; each side's recommendation is in the votes",
	verdictUnstable:  "⚠ unstable: a judge changed its choice when the sides were shown in reverse order",
	aliases:          "Blind aliases",
	aliasFmt:         "%s = %s",
	stances:          "Stances",
	movedFmt:         "%d of %d moved",
	conformityFmt:    "conformity %d",
	persuasionFmt:    "persuasion %d",
	figure:           "Figure",
	count:            "Count",
	interval95:       "Share (95 % interval)",
	figMoved:         "Moved",
	figConformity:    "Moves toward the majority (conformity)",
	figPersuasion:    "Moves toward a minority (persuasion)",
	figLone:          "Lone dissenters who conceded",
	figMajority:      "Forced verdicts favouring the majority",
	ledger:           "Stance ledger",
	colNode:          "Node",
	colDebater:       "Debater",
	colSide:          "Side in the parent's judgment",
	colLine:          "Closing line",
	colJudgeRead:     "Judge's reading",
	colMove:          "Move",
	movedTowardFmt:   "moved to %s",
	judgeAudit:       "Judge audit",
	nothingAudited:   "No stance was recorded and no verdict favoured a debater.",
	auditNote:        "For each verdict that favours a debater: where that debater stood in what the judge read, whether it wrote the longest answer, whether its model is of the judge's family. A check is flagged (⚠) only when its exact 95 % interval excludes what a judge without bias would give.",
	expected:         "Expected under no bias",
	auditFirst:       "Favoured the debater read first",
	auditMiddle:      "Favoured a debater read in the middle",
	auditLast:        "Favoured the debater read last",
	auditLongest:     "Favoured the longest answer",
	auditFamily:      "Favoured a debater of its own model family",
	auditFlips:       "Changed its choice when the order was reversed",
	auditFlagFmt:     "%s: %s in %d of %d verdicts (95 %% interval %.0f–%.0f %%; %.0f %% expected under no bias)",
	auditTooFewFmt:   "%d verdicts cannot show a bias at 95 %%: no check is flagged from fewer than %d.",
	auditTooFewOne:   "%d verdict cannot show a bias at 95 %%: no check is flagged from fewer than %d.",
	kept:             "kept",
	moved:            "moved",
	notStated:        "not stated",
	conformity:       "conformity",
	persuasion:       "persuasion",
	disagree:         "the line and the judge disagree",
	quotes:           "Quotes of the shared documents",
	quoteCountFmt:    "%s %d made, %d verified, %d unverified",
	quoteVerified:    "✓ verified",
	quoteUnverified:  "✗ unverified",
	quoteLineFmt:     "%s, line %s",
	quoteLinesFmt:    "%s, lines %s",
	quotesRepository: "Quotes of the shared documents and the repository",
	repository:       "Repository quoted",
	repositoryFmt:    "commit %s",
	repositoryDirty:  ", with changes not committed (sha256 %s)",
	repoNoCommit:     "no commit yet",
	judges:           "Judges",
	votes:            "Votes",
	noSide:           "no side",
	voteStatus: map[tree.VoteStatus]string{
		tree.VoteDropped:  "dropped",
		tree.VoteRecused:  "recused",
		tree.VoteUnstable: "unstable",
	},
	reasoning:          "Reasoning",
	modelReasoning:     "The model's reasoning",
	none:               "None.",
	notReached:         "Not reached.",
	noAnswerFmt:        "No %s — %s",
	noAnswer:           "no answer recorded",
	judgeErrors:        "Judge errors",
	rawJudgment:        "The judge's raw answer (not valid):",
	otherErrors:        "Errors",
	missing:            "Missing",
	conclusion:         "Conclusion",
	consensusPoints:    "Consensus points",
	verdicts:           "Verdicts",
	synthesis:          "Synthesis",
	pathOverview:       "Path overview",
	summaryHeading:     "Debate summary",
	colID:              "ID",
	colTopic:           "Topic",
	colStatus:          "Status",
	colRounds:          "Rounds",
	colConsensus:       "Consensus",
	colDivergences:     "Divergences",
	colFailures:        "Failed nodes",
	colFailedCalls:     "Failed calls",
	colFallbacks:       "Fallbacks",
	colTokens:          "Tokens",
	colCost:            "Cost",
	total:              "Total",
	motionCalls:        "Motions (see below)",
	runCalls:           "Run-level calls (proposed edits)",
	conclusions:        "Topic conclusions",
	incompleteFmt:      "Incomplete: %d failed and %d interrupted nodes; the points below are what was reached.",
	proposedEdits:      "Proposed edits to the shared documents",
	noEdits:            "No edits were proposed.",
	fallbacks:          "Fallbacks",
	fallbackFmt:        "%s: %s switched from %s to %s at %s",
	noFallbacks:        "No participant fell back to its fallback model.",
	adaptations:        "Adaptations to the servers",
	adaptedFmt:         "%s at %s: %s. The server said: “%s”",
	withoutFmt:         "sent without %s",
	insteadFmt:         "sent %s instead of %s",
	systemAsUser:       "system sent as the first user message",
	demo:               "Demo: every answer here was written by the built-in scripted model; no real model was called.",
	contents:           "Contents",
	legend:             "Status",
	listSep:            ", ",
	colon:              ":",
	colonSep:           ": ",
	debateTitle:        "Debate %s",
	debate:             "Debate",
	debateType:         "Type",
	state:              "State",
	created:            "Created",
	updated:            "Updated",
	arguments:          "Arguments",
	argumentTree:       "Argument tree",
	noArguments:        "No arguments.",
	replyTo:            "reply to #%d",
	replyHidden:        "reply to an argument not shown",
	argID:              "id %s",
	noContent:          "(no content)",
	stateTimeline:      "State timeline",
	emptyTimeline:      "No arguments; the debate is %s.",
	colSeq:             "Seq",
	colArgument:        "Argument",
	colBy:              "By",
	colStateAfter:      "State after",
	colTime:            "Time",
	motion:             "Motion",
	turns:              "Turns",
	turnsFmt:           "%d of at most %d",
	document:           "Document",
	documentFmt:        "%s — `%s` (version %d)",
	runStarted:         "Run started",
	human:              "a person (rulings made through the server)",
	motionErrorFmt:     "%s, turn %d: %s",
	motionsHeading:     "Motions",
	colMotion:          "Motion",
	colState:           "State",
	colTurns:           "Turns",
	colArguments:       "Arguments",
	motionDebate:       "%s (debate `%s`).",
	finalWord:          "Final word — #%d %s by the %s",
	cachedFmt:          "; %s prompt tokens from the provider's cache",
	eligibleFmt:        "; %s cache-eligible (%.1f %% of prompt tokens: a prefix already sent to the same model)",
	byModelFmt:         "%s: %s prompt tokens, %s cache-eligible (%.1f %%), %s from the provider's cache",
	unansweredFmt:      "%s: no call answered (%d failed)",
	reasoningTokensFmt: "; %s reasoning tokens",
	estimatedFmt:       "; estimated for %d calls whose provider reported no usage",
	providerCostFmt:    " (the providers reported %s)",
	callCache:          "Call cache",
	cacheAllFmt:        "every call (%d, %s tokens) was answered from the cache: this run made no call and paid nothing",
	cacheSomeFmt:       "%d of %d calls answered from the cache (%s tokens, not paid again); %d made afresh",
	cacheCostFmt:       "; the cached answers had cost %s when made",
	motionStatuses: map[tree.Status]string{
		tree.Converged: "resolved ✓",
		tree.Forced:    "closed by ruling",
	},
	statuses: map[tree.Status]string{
		tree.Pending:     "pending",
		tree.Split:       "split",
		tree.Converged:   "converged ✓",
		tree.Partial:     "partial: a debater missing",
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
	sayings:   englishSayings,
	reasonSep: "; ",
	decision:  &decisionEnglish,
	leftOutNotes: map[string]string{
		"temperature":     " (the model's default)",
		"response_format": " (the answer's JSON is read from its text)",
		"stream_options":  " (usage estimated when missing)",
	},
	tag: "en",
}

// chineseRoles names the protocol roles in Chinese.
var chineseRoles = map[protocol.Role]string{
	protocol.Proposer:   "提议方",
	protocol.Opponent:   "反方",
	protocol.Arbitrator: "仲裁方",
}

var chinese = words{
	topicHeading:     "辩题 %s：%s",
	date:             "日期",
	duration:         "用时",
	debaters:         "参与模型",
	judge:            "评审模型",
	maxRounds:        "最大轮数",
	depthReached:     "实际深度",
	depthFmt:         "%d（第 %d 轮）",
	tokens:           "Token 用量",
	tokensFmt:        "%s（提示 %s，生成 %s），共 %d 次调用",
	failedCallsFmt:   "，失败 %d 次",
	cost:             "费用",
	status:           "状态",
	fellBackFrom:     "回退自 %s",
	atNode:           "于 %s",
	background:       "背景",
	annotations:      "补充说明",
	coreQuestions:    "核心问题",
	roundRoot:        "第 %d 轮 — 根议题",
	roundChild:       "第 %d 轮 — 分歧 %s：%s",
	between:          "争议方：%s。",
	uninvolvedFmt:    "未站队：%s。",
	positions:        "立场",
	rebuttals:        "反驳",
	rebuttalBy:       "%s 的反驳",
	triage:           "裁判搜集",
	forcedTriage:     "裁判强制裁决",
	consensus:        "合意",
	divergencesFmt:   "分歧 (%d 个)",
	uninvolved:       "未站队",
	forcedVerdicts:   "强制裁决",
	recommendation:   "裁判推荐",
	verdictMissing:   "⚠ 缺失：修复后裁判仍未给出裁决",
	verdictDropped:   "⚠ 被顺序检查舍弃：双方顺序对调后未给出裁决",
	verdictOverLimit: "⚠ 未辩论：超出本节点子辩论的上限（params.maxDivergences）",
	verdictSplit:     "⚖ 平票：评审意见相持，各方的推荐见投票",
	verdictUnstable:  "⚠ 不稳定：调换各方顺序后有裁判改变了选择",
	aliases:          "匿名代号",
	aliasFmt:         "%s = %s",
	stances:          "立场变化",
	movedFmt:         "%[2]d 人次中 %[1]d 次转变",
	conformityFmt:    "从众 %d",
	persuasionFmt:    "被说服 %d",
	figure:           "指标",
	count:            "计数",
	interval95:       "比例（95% 区间）",
	figMoved:         "转变",
	figConformity:    "转向多数方（从众）",
	figPersuasion:    "转向少数方（被说服）",
	figLone:          "让步的孤立异议者",
	figMajority:      "偏向多数方的强制裁决",
	ledger:           "立场账本",
	colNode:          "节点",
	colDebater:       "辩方",
	colSide:          "上一轮裁判所列立场",
	colLine:          "结尾立场行",
	colJudgeRead:     "裁判的解读",
	colMove:          "转变",
	movedTowardFmt:   "转向 %s",
	judgeAudit:       "裁判审计",
	nothingAudited:   "没有记录任何立场变化，也没有偏向某一辩方的裁决。",
	auditNote:        "对每条偏向某一辩方的裁决：该辩方在裁判读到的顺序中的位置、它是否写了最长的回答、它的模型是否与裁判同一家族。只有当精确 95% 区间不含无偏差时的期望值时才标记 (⚠)。",
	expected:         "无偏差时的期望",
	auditFirst:       "偏向最先读到的辩方",
	auditMiddle:      "偏向中间读到的辩方",
	auditLast:        "偏向最后读到的辩方",
	auditLongest:     "偏向最长的回答",
	auditFamily:      "偏向与自己同一模型家族的辩方",
	auditFlips:       "顺序反转后改变选择",
	auditFlagFmt:     "%s：%s，%d / %d 条裁决（95%% 区间 %.0f–%.0f%%；无偏差时期望 %.0f%%）",
	auditTooFewFmt:   "%d 条裁决不足以在 95%% 水平上显示偏差：少于 %d 条时不标记任何检查。",
	auditTooFewOne:   "%d 条裁决不足以在 95%% 水平上显示偏差：少于 %d 条时不标记任何检查。",
	kept:             "坚持",
	moved:            "转变",
	notStated:        "未说明",
	conformity:       "从众",
	persuasion:       "被说服",
	disagree:         "立场行与裁判解读不一致",
	quotes:           "共享文档引用",
	quoteCountFmt:    "%s 共 %d 条，已核实 %d 条，未核实 %d 条",
	quoteVerified:    "✓ 已核实",
	quoteUnverified:  "✗ 未核实",
	quoteLineFmt:     "%s 第 %s 行",
	quoteLinesFmt:    "%s 第 %s 行",
	quotesRepository: "共享文档与代码仓库引用",
	repository:       "引用的代码仓库",
	repositoryFmt:    "提交 %s",
	repositoryDirty:  "，含未提交的改动 (sha256 %s)",
	repoNoCommit:     "尚无提交",
	judges:           "评审团",
	votes:            "投票",
	noSide:           "不支持任何一方",
	voteStatus: map[tree.VoteStatus]string{
		tree.VoteDropped:  "未计入（调用失败）",
		tree.VoteRecused:  "回避",
		tree.VoteUnstable: "不稳定",
	},
	reasoning:          "理由",
	modelReasoning:     "模型的推理过程",
	none:               "无。",
	notReached:         "未进行。",
	noAnswerFmt:        "缺少%s — %s",
	noAnswer:           "未收到回答",
	judgeErrors:        "裁判错误",
	rawJudgment:        "裁判的原始回答（无效）：",
	otherErrors:        "错误",
	missing:            "缺席",
	conclusion:         "最终结论",
	consensusPoints:    "合意要点",
	verdicts:           "裁决要点",
	synthesis:          "总结",
	pathOverview:       "辩论路径概览",
	summaryHeading:     "辩论汇总",
	colID:              "编号",
	colTopic:           "议题",
	colStatus:          "状态",
	colRounds:          "轮数",
	colConsensus:       "合意数",
	colDivergences:     "分歧数",
	colFailures:        "失败节点",
	colFailedCalls:     "失败调用",
	colFallbacks:       "回退",
	colTokens:          "Token",
	colCost:            "费用",
	total:              "合计",
	motionCalls:        "动议（见下文）",
	runCalls:           "运行级调用（修改建议）",
	conclusions:        "各议题结论",
	incompleteFmt:      "未完成：失败节点 %d 个，中断节点 %d 个；以下为已得出的结论。",
	proposedEdits:      "需要更新到共享文档的内容",
	noEdits:            "未提出修改建议。",
	fallbacks:          "模型回退",
	fallbackFmt:        "%s：%s 从 %s 回退到 %s（于 %s）",
	noFallbacks:        "没有参与者回退到备用模型。",
	adaptations:        "对服务器的适配",
	adaptedFmt:         "%s（%s）：%s。服务器的原话：“%s”",
	withoutFmt:         "请求不再发送 %s",
	insteadFmt:         "请求改为发送 %s，代替 %s",
	systemAsUser:       "系统消息改为作为第一条用户消息发送",
	demo:               "演示：本报告中的所有回答均由内置的脚本模型生成，未调用任何真实模型。",
	contents:           "目录",
	legend:             "状态",
	listSep:            "、",
	colon:              "：",
	colonSep:           "：",
	debateTitle:        "辩论 %s",
	debate:             "辩论",
	debateType:         "类型",
	state:              "辩论状态",
	created:            "创建时间",
	updated:            "更新时间",
	arguments:          "论点",
	argumentTree:       "论点树",
	noArguments:        "没有论点。",
	replyTo:            "回复 #%d",
	replyHidden:        "回复一条未显示的论点",
	argID:              "编号 %s",
	noContent:          "（无内容）",
	stateTimeline:      "状态时间线",
	emptyTimeline:      "没有论点；辩论状态为%s。",
	colSeq:             "序号",
	colArgument:        "论点",
	colBy:              "发言方",
	colStateAfter:      "之后状态",
	colTime:            "时间",
	motion:             "动议",
	turns:              "轮次",
	turnsFmt:           "%d（最多 %d）",
	document:           "文档",
	documentFmt:        "%s — `%s`（第 %d 版）",
	runStarted:         "运行开始",
	human:              "真人（通过服务器作出裁决）",
	motionErrorFmt:     "%s第 %d 轮：%s",
	motionsHeading:     "动议",
	colMotion:          "动议",
	colState:           "辩论状态",
	colTurns:           "轮次",
	colArguments:       "论点数",
	motionDebate:       "%s（辩论 `%s`）。",
	finalWord:          "最终发言 — #%d %s（%s）",
	roles:              chineseRoles,
	cachedFmt:          "；其中 %s 个提示 token 来自服务方缓存",
	eligibleFmt:        "；%s 个可缓存（占提示 token 的 %.1f %%：同一模型已发送过的前缀）",
	byModelFmt:         "%s：提示 %s token，可缓存 %s（%.1f %%），服务方缓存 %s",
	unansweredFmt:      "%s：没有一次调用得到回答（%d 次失败）",
	reasoningTokensFmt: "；推理 token %s",
	estimatedFmt:       "；%d 次调用的服务方未报告用量，为估算值",
	providerCostFmt:    "（服务方报告 %s）",
	callCache:          "调用缓存",
	cacheAllFmt:        "全部 %d 次调用（%s token）均由缓存作答：本次运行未发出调用，未付任何费用",
	cacheSomeFmt:       "%[2]d 次调用中有 %[1]d 次由缓存作答（%[3]s token，不再付费）；%[4]d 次为新调用",
	cacheCostFmt:       "；缓存的回答当初花费 %s",
	states: map[protocol.State]string{
		protocol.AwaitingOpponent:    "等待反方",
		protocol.AwaitingProposer:    "等待提议方",
		protocol.AwaitingArbitrator:  "等待仲裁方",
		protocol.InterventionPending: "等待仲裁介入",
		protocol.Closed:              "已结束",
	},
	motionStatuses: map[tree.Status]string{
		tree.Converged: "已解决 ✓",
		tree.Forced:    "由裁决结束",
	},
	statuses: map[tree.Status]string{
		tree.Pending:     "未完成",
		tree.Split:       "已分裂",
		tree.Converged:   "已收敛 ✓",
		tree.Partial:     "不完整：有辩手缺席",
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
	sayings:       chineseSayings,
	reasonSep:     "；",
	legacyReasons: legacyChinese,
	decision:      &decisionChinese,
	leftOutNotes: map[string]string{
		"temperature":     "（使用模型的默认值）",
		"response_format": "（从回答的文本中读取 JSON）",
		"stream_options":  "（缺少用量时估算）",
	},
	tag: "zh",
}

// wordsFor returns the strings of a run's report language: Chinese for "zh",
// English otherwise.
func wordsFor(run *tree.Run) *words {
	if run == nil {
		return &english
	}
	return language(run.Language)
}

// language returns the strings of a report language by its tag: Chinese
// for "zh", English otherwise. It is the one place a language is chosen.
func language(tag string) *words {
	if tag == "zh" {
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

// motionStatus returns the word for how a motion ended: its own where a
// motion's differs from a topic's, else the topic's.
func (w *words) motionStatus(s tree.Status) string {
	if v, ok := w.motionStatuses[s]; ok {
		return v
	}
	if v, ok := w.statuses[s]; ok {
		return v
	}
	return inlineText(string(s))
}

// stateWord returns the word for a debate state: "—" for none, the state
// itself where the language has no word for it.
func (w *words) stateWord(s protocol.State) string {
	if s == protocol.None {
		return "—"
	}
	if v, ok := w.states[s]; ok {
		return v
	}
	return inlineText(string(s))
}

// roleWord returns the name of a protocol role, or the role itself.
func (w *words) roleWord(r protocol.Role) string {
	if v, ok := w.roles[r]; ok {
		return v
	}
	return inlineText(string(r))
}
