package render

import (
	"fmt"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/tree"
)

// words holds every fixed string of the reports in one language. A message
// with arguments is a function, one per message, whose format go vet checks
// against its parameters; the compiler checks every call.
type words struct {
	topicHeading       func(id, title string) string // topic id, title
	date               string
	duration           string
	debaters           string
	judge              string
	maxRounds          string
	depthReached       string
	depthFmt           func(depth, rounds int) string // depth, rounds
	tokens             string
	tokensFmt          func(total, prompt, completion string, calls int) string // total, prompt, completion, calls
	failedCallsFmt     func(failed int) string                                  // failed calls
	cost               string
	status             string
	fellBackFrom       func(model string) string // primary model
	atNode             func(node string) string  // node id
	background         string
	annotations        string
	coreQuestions      string
	roundRoot          func(round int) string                   // round
	roundChild         func(round int, id, title string) string // round, node id, title
	between            func(sides string) string                // list of parties
	uninvolvedFmt      func(names string) string                // list of parties
	positions          string
	rebuttals          string
	rebuttalBy         func(name string) string // party
	triage             string
	forcedTriage       string
	consensus          string
	divergencesFmt     func(count int) string // count
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
	movedFmt           func(moved, of int) string // moved, of
	conformityFmt      func(count int) string     // count
	persuasionFmt      func(count int) string     // count
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
	movedTowardFmt     func(debater string) string // debater
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
	auditFlagFmt       func(model, check string, count, of int, low, high, expected float64) string // model, check, count, of, low %, high %, expected %
	auditTooFewFmt     func(verdicts, fewest int) string                                            // verdicts, the fewest that can show a bias
	auditTooFewOne     func(verdicts, fewest int) string                                            // the same for one verdict
	kept, moved        string
	notStated          string
	conformity         string
	persuasion         string
	disagree           string
	aliasFmt           func(alias, debater string) string // alias, debater
	quotes             string
	quoteCountFmt      func(debater string, made, verified, unverified int) string // debater, made, verified, unverified
	quoteVerified      string
	quoteUnverified    string
	quoteLineFmt       func(document, line string) string  // document, line
	quoteLinesFmt      func(document, lines string) string // document, lines
	quotesRepository   string                              // quotes, when the repository could be quoted too
	repository         string
	repositoryFmt      func(commit string) string // commit
	repositoryDirty    func(digest string) string // after repositoryFmt: the digest of the changes not committed
	repoNoCommit       string
	judges             string
	votes              string
	noSide             string
	voteStatus         map[tree.VoteStatus]string
	reasoning          string
	modelReasoning     string // the fold of a model's reasoning beside its answer
	none               string
	notReached         string
	noAnswerFmt        func(step, errors string) string // step name, error messages
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
	incompleteFmt      func(failed, interrupted int) string // failed nodes, interrupted nodes
	proposedEdits      string
	noEdits            string
	fallbacks          string
	fallbackFmt        func(topic, participant, from, to, node string) string // topic, participant, from, to, node
	noFallbacks        string
	adaptations        string                                      // heads the changes to requests a server refused
	adaptedFmt         func(model, host, sent, said string) string // model, host, what was sent, the server's words
	withoutFmt         func(param string) string                   // the parameter left out
	insteadFmt         func(sent, param string) string             // what was sent, the parameter it replaces
	systemAsUser       string                                      // the system message sent as a user's
	demo               string
	contents           string
	legend             string
	listSep            string
	cachedFmt          func(tokens string) string
	eligibleFmt        func(tokens string, share float64) string
	byModelFmt         func(model, prompt, eligible string, share float64, cached string) string
	unansweredFmt      func(model string, failed int) string
	reasoningTokensFmt func(tokens string) string
	estimatedFmt       func(calls int) string
	providerCostFmt    func(cost string) string
	// callCache labels what the call cache answered: cacheAllFmt when it
	// answered every call (calls, tokens), else cacheSomeFmt (cached,
	// calls, tokens, fresh); cacheCostFmt adds what they had cost.
	callCache    string
	cacheAllFmt  func(calls int, tokens string) string
	cacheSomeFmt func(cached, calls int, tokens string, fresh int) string
	cacheCostFmt func(cost string) string
	// colon follows a label before its value ("**Status:** …"), and
	// colonSep joins a label to its value within a line ("(uninvolved: …)").
	colon    string
	colonSep string

	// The report of a motion and the argument tree it builds on.
	debateTitle    func(id string) string // debate id, when the debate has no title
	debate         string
	debateType     string
	state          string
	created        string
	updated        string
	arguments      string
	argumentTree   string
	noArguments    string
	replyTo        func(seq int) string // seq
	replyHidden    string
	argID          func(id string) string // argument id
	noContent      string
	stateTimeline  string
	emptyTimeline  func(state string) string // state
	colSeq         string
	colArgument    string
	colBy          string
	colStateAfter  string
	colTime        string
	motion         string
	turns          string
	turnsFmt       func(turns, most int) string // turns, max turns
	document       string
	documentFmt    func(path, id string, version int) string // path, doc id, version
	runStarted     string
	human          string
	motionErrorFmt func(role string, turn int, message string) string // role, turn, message
	motionsHeading string
	colMotion      string
	colState       string
	colTurns       string
	colArguments   string
	motionDebate   func(reason, id string) string              // stop reason, debate id
	finalWord      func(seq int, argument, role string) string // seq, argument type, role
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
	sayings sayings
	// quoteSayings say why a quote is unverified; nil says it in the
	// verifier's English words.
	quoteSayings quoteSayings
	reasonSep    string
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
	topicHeading: func(id, title string) string { return fmt.Sprintf("Topic %s: %s", id, title) },
	date:         "Date",
	duration:     "Duration",
	debaters:     "Debaters",
	judge:        "Judge",
	maxRounds:    "Max rounds",
	depthReached: "Depth reached",
	depthFmt:     func(depth, rounds int) string { return fmt.Sprintf("%d (round %d)", depth, rounds) },
	tokens:       "Tokens",
	tokensFmt: func(total, prompt, completion string, calls int) string {
		return fmt.Sprintf("%s (prompt %s, completion %s) in %d calls", total, prompt, completion, calls)
	},
	failedCallsFmt: func(failed int) string { return fmt.Sprintf(", %d failed", failed) },
	cost:           "Cost",
	status:         "Status",
	fellBackFrom:   func(model string) string { return fmt.Sprintf("fell back from %s", model) },
	atNode:         func(node string) string { return fmt.Sprintf("at %s", node) },
	background:     "Background",
	annotations:    "Annotations",
	coreQuestions:  "Core questions",
	roundRoot:      func(round int) string { return fmt.Sprintf("Round %d — root", round) },
	roundChild: func(round int, id, title string) string {
		return fmt.Sprintf("Round %d — divergence %s: %s", round, id, title)
	},
	between:          func(sides string) string { return fmt.Sprintf("Sides: %s.", sides) },
	uninvolvedFmt:    func(names string) string { return fmt.Sprintf(" Uninvolved: %s.", names) },
	positions:        "Positions",
	rebuttals:        "Rebuttals",
	rebuttalBy:       func(name string) string { return fmt.Sprintf("Rebuttal by %s", name) },
	triage:           "Judge triage",
	forcedTriage:     "Judge's forced verdict",
	consensus:        "Consensus",
	divergencesFmt:   func(count int) string { return fmt.Sprintf("Divergences (%d)", count) },
	uninvolved:       "uninvolved",
	forcedVerdicts:   "Forced verdicts",
	recommendation:   "Recommendation",
	verdictMissing:   "⚠ missing: the judge gave no verdict, even after repair",
	verdictDropped:   "⚠ dropped by the order check: no verdict with the sides reversed",
	verdictOverLimit: "⚠ not debated: beyond this node's limit of child debates (params.maxDivergences)",
	verdictSplit:     "⚖ split: the judges are tied; each side's recommendation is in the votes",
	verdictUnstable:  "⚠ unstable: a judge changed its choice when the sides were shown in reverse order",
	aliases:          "Blind aliases",
	aliasFmt:         func(alias, debater string) string { return fmt.Sprintf("%s = %s", alias, debater) },
	stances:          "Stances",
	movedFmt:         func(moved, of int) string { return fmt.Sprintf("%d of %d moved", moved, of) },
	conformityFmt:    func(count int) string { return fmt.Sprintf("conformity %d", count) },
	persuasionFmt:    func(count int) string { return fmt.Sprintf("persuasion %d", count) },
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
	movedTowardFmt:   func(debater string) string { return fmt.Sprintf("moved to %s", debater) },
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
	auditFlagFmt: func(model, check string, count, of int, low, high, expected float64) string {
		return fmt.Sprintf("%s: %s in %d of %d verdicts (95 %% interval %.0f–%.0f %%; %.0f %% expected under no bias)", model, check, count, of, low, high, expected)
	},
	auditTooFewFmt: func(verdicts, fewest int) string {
		return fmt.Sprintf("%d verdicts cannot show a bias at 95 %%: no check is flagged from fewer than %d.", verdicts, fewest)
	},
	auditTooFewOne: func(verdicts, fewest int) string {
		return fmt.Sprintf("%d verdict cannot show a bias at 95 %%: no check is flagged from fewer than %d.", verdicts, fewest)
	},
	kept:       "kept",
	moved:      "moved",
	notStated:  "not stated",
	conformity: "conformity",
	persuasion: "persuasion",
	disagree:   "the line and the judge disagree",
	quotes:     "Quotes of the shared documents",
	quoteCountFmt: func(debater string, made, verified, unverified int) string {
		return fmt.Sprintf("%s %d made, %d verified, %d unverified", debater, made, verified, unverified)
	},
	quoteVerified:    "✓ verified",
	quoteUnverified:  "✗ unverified",
	quoteLineFmt:     func(document, line string) string { return fmt.Sprintf("%s, line %s", document, line) },
	quoteLinesFmt:    func(document, lines string) string { return fmt.Sprintf("%s, lines %s", document, lines) },
	quotesRepository: "Quotes of the shared documents and the repository",
	repository:       "Repository quoted",
	repositoryFmt:    func(commit string) string { return fmt.Sprintf("commit %s", commit) },
	repositoryDirty:  func(digest string) string { return fmt.Sprintf(", with changes not committed (sha256 %s)", digest) },
	repoNoCommit:     "no commit yet",
	judges:           "Judges",
	votes:            "Votes",
	noSide:           "no side",
	voteStatus: map[tree.VoteStatus]string{
		tree.VoteDropped:  "dropped",
		tree.VoteRecused:  "recused",
		tree.VoteUnstable: "unstable",
	},
	reasoning:       "Reasoning",
	modelReasoning:  "The model's reasoning",
	none:            "None.",
	notReached:      "Not reached.",
	noAnswerFmt:     func(step, errors string) string { return fmt.Sprintf("No %s — %s", step, errors) },
	noAnswer:        "no answer recorded",
	judgeErrors:     "Judge errors",
	rawJudgment:     "The judge's raw answer (not valid):",
	otherErrors:     "Errors",
	missing:         "Missing",
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
	colFailures:     "Failed nodes",
	colFailedCalls:  "Failed calls",
	colFallbacks:    "Fallbacks",
	colTokens:       "Tokens",
	colCost:         "Cost",
	total:           "Total",
	motionCalls:     "Motions (see below)",
	runCalls:        "Run-level calls (proposed edits)",
	conclusions:     "Topic conclusions",
	incompleteFmt: func(failed, interrupted int) string {
		return fmt.Sprintf("Incomplete: %d failed and %d interrupted nodes; the points below are what was reached.", failed, interrupted)
	},
	proposedEdits: "Proposed edits to the shared documents",
	noEdits:       "No edits were proposed.",
	fallbacks:     "Fallbacks",
	fallbackFmt: func(topic, participant, from, to, node string) string {
		return fmt.Sprintf("%s: %s switched from %s to %s at %s", topic, participant, from, to, node)
	},
	noFallbacks: "No participant fell back to its fallback model.",
	adaptations: "Adaptations to the servers",
	adaptedFmt: func(model, host, sent, said string) string {
		return fmt.Sprintf("%s at %s: %s. The server said: “%s”", model, host, sent, said)
	},
	withoutFmt:    func(param string) string { return fmt.Sprintf("sent without %s", param) },
	insteadFmt:    func(sent, param string) string { return fmt.Sprintf("sent %s instead of %s", sent, param) },
	systemAsUser:  "system sent as the first user message",
	demo:          "Demo: every answer here was written by the built-in scripted model; no real model was called.",
	contents:      "Contents",
	legend:        "Status",
	listSep:       ", ",
	colon:         ":",
	colonSep:      ": ",
	debateTitle:   func(id string) string { return fmt.Sprintf("Debate %s", id) },
	debate:        "Debate",
	debateType:    "Type",
	state:         "State",
	created:       "Created",
	updated:       "Updated",
	arguments:     "Arguments",
	argumentTree:  "Argument tree",
	noArguments:   "No arguments.",
	replyTo:       func(seq int) string { return fmt.Sprintf("reply to #%d", seq) },
	replyHidden:   "reply to an argument not shown",
	argID:         func(id string) string { return fmt.Sprintf("id %s", id) },
	noContent:     "(no content)",
	stateTimeline: "State timeline",
	emptyTimeline: func(state string) string { return fmt.Sprintf("No arguments; the debate is %s.", state) },
	colSeq:        "Seq",
	colArgument:   "Argument",
	colBy:         "By",
	colStateAfter: "State after",
	colTime:       "Time",
	motion:        "Motion",
	turns:         "Turns",
	turnsFmt:      func(turns, most int) string { return fmt.Sprintf("%d of at most %d", turns, most) },
	document:      "Document",
	documentFmt: func(path, id string, version int) string {
		return fmt.Sprintf("%s — `%s` (version %d)", path, id, version)
	},
	runStarted: "Run started",
	human:      "a person (rulings made through the server)",
	motionErrorFmt: func(role string, turn int, message string) string {
		return fmt.Sprintf("%s, turn %d: %s", role, turn, message)
	},
	motionsHeading: "Motions",
	colMotion:      "Motion",
	colState:       "State",
	colTurns:       "Turns",
	colArguments:   "Arguments",
	motionDebate:   func(reason, id string) string { return fmt.Sprintf("%s (debate `%s`).", reason, id) },
	finalWord: func(seq int, argument, role string) string {
		return fmt.Sprintf("Final word — #%d %s by the %s", seq, argument, role)
	},
	cachedFmt: func(tokens string) string { return fmt.Sprintf("; %s prompt tokens from the provider's cache", tokens) },
	eligibleFmt: func(tokens string, share float64) string {
		return fmt.Sprintf("; %s cache-eligible (%.1f %% of prompt tokens: a prefix already sent to the same model)", tokens, share)
	},
	byModelFmt: func(model, prompt, eligible string, share float64, cached string) string {
		return fmt.Sprintf("%s: %s prompt tokens, %s cache-eligible (%.1f %%), %s from the provider's cache", model, prompt, eligible, share, cached)
	},
	unansweredFmt: func(model string, failed int) string {
		return fmt.Sprintf("%s: no call answered (%d failed)", model, failed)
	},
	reasoningTokensFmt: func(tokens string) string { return fmt.Sprintf("; %s reasoning tokens", tokens) },
	estimatedFmt: func(calls int) string {
		return fmt.Sprintf("; estimated for %d calls whose provider reported no usage", calls)
	},
	providerCostFmt: func(cost string) string { return fmt.Sprintf(" (the providers reported %s)", cost) },
	callCache:       "Call cache",
	cacheAllFmt: func(calls int, tokens string) string {
		return fmt.Sprintf("every call (%d, %s tokens) was answered from the cache: this run made no call and paid nothing", calls, tokens)
	},
	cacheSomeFmt: func(cached, calls int, tokens string, fresh int) string {
		return fmt.Sprintf("%d of %d calls answered from the cache (%s tokens, not paid again); %d made afresh", cached, calls, tokens, fresh)
	},
	cacheCostFmt: func(cost string) string { return fmt.Sprintf("; the cached answers had cost %s when made", cost) },
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
	topicHeading: func(id, title string) string { return fmt.Sprintf("辩题 %s：%s", id, title) },
	date:         "日期",
	duration:     "用时",
	debaters:     "参与模型",
	judge:        "评审模型",
	maxRounds:    "最大轮数",
	depthReached: "实际深度",
	depthFmt:     func(depth, rounds int) string { return fmt.Sprintf("%d（第 %d 轮）", depth, rounds) },
	tokens:       "Token 用量",
	tokensFmt: func(total, prompt, completion string, calls int) string {
		return fmt.Sprintf("%s（提示 %s，生成 %s），共 %d 次调用", total, prompt, completion, calls)
	},
	failedCallsFmt: func(failed int) string { return fmt.Sprintf("，失败 %d 次", failed) },
	cost:           "费用",
	status:         "状态",
	fellBackFrom:   func(model string) string { return fmt.Sprintf("回退自 %s", model) },
	atNode:         func(node string) string { return fmt.Sprintf("于 %s", node) },
	background:     "背景",
	annotations:    "补充说明",
	coreQuestions:  "核心问题",
	roundRoot:      func(round int) string { return fmt.Sprintf("第 %d 轮 — 根议题", round) },
	roundChild: func(round int, id, title string) string {
		return fmt.Sprintf("第 %d 轮 — 分歧 %s：%s", round, id, title)
	},
	between:          func(sides string) string { return fmt.Sprintf("争议方：%s。", sides) },
	uninvolvedFmt:    func(names string) string { return fmt.Sprintf("未站队：%s。", names) },
	positions:        "立场",
	rebuttals:        "反驳",
	rebuttalBy:       func(name string) string { return fmt.Sprintf("%s 的反驳", name) },
	triage:           "裁判搜集",
	forcedTriage:     "裁判强制裁决",
	consensus:        "合意",
	divergencesFmt:   func(count int) string { return fmt.Sprintf("分歧 (%d 个)", count) },
	uninvolved:       "未站队",
	forcedVerdicts:   "强制裁决",
	recommendation:   "裁判推荐",
	verdictMissing:   "⚠ 缺失：修复后裁判仍未给出裁决",
	verdictDropped:   "⚠ 被顺序检查舍弃：双方顺序对调后未给出裁决",
	verdictOverLimit: "⚠ 未辩论：超出本节点子辩论的上限（params.maxDivergences）",
	verdictSplit:     "⚖ 平票：评审意见相持，各方的推荐见投票",
	verdictUnstable:  "⚠ 不稳定：调换各方顺序后有裁判改变了选择",
	aliases:          "匿名代号",
	aliasFmt:         func(alias, debater string) string { return fmt.Sprintf("%s = %s", alias, debater) },
	stances:          "立场变化",
	movedFmt:         func(moved, of int) string { return fmt.Sprintf("%[2]d 人次中 %[1]d 次转变", moved, of) },
	conformityFmt:    func(count int) string { return fmt.Sprintf("从众 %d", count) },
	persuasionFmt:    func(count int) string { return fmt.Sprintf("被说服 %d", count) },
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
	movedTowardFmt:   func(debater string) string { return fmt.Sprintf("转向 %s", debater) },
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
	auditFlagFmt: func(model, check string, count, of int, low, high, expected float64) string {
		return fmt.Sprintf("%s：%s，%d / %d 条裁决（95%% 区间 %.0f–%.0f%%；无偏差时期望 %.0f%%）", model, check, count, of, low, high, expected)
	},
	auditTooFewFmt: func(verdicts, fewest int) string {
		return fmt.Sprintf("%d 条裁决不足以在 95%% 水平上显示偏差：少于 %d 条时不标记任何检查。", verdicts, fewest)
	},
	auditTooFewOne: func(verdicts, fewest int) string {
		return fmt.Sprintf("%d 条裁决不足以在 95%% 水平上显示偏差：少于 %d 条时不标记任何检查。", verdicts, fewest)
	},
	kept:       "坚持",
	moved:      "转变",
	notStated:  "未说明",
	conformity: "从众",
	persuasion: "被说服",
	disagree:   "立场行与裁判解读不一致",
	quotes:     "共享文档引用",
	quoteCountFmt: func(debater string, made, verified, unverified int) string {
		return fmt.Sprintf("%s 共 %d 条，已核实 %d 条，未核实 %d 条", debater, made, verified, unverified)
	},
	quoteVerified:    "✓ 已核实",
	quoteUnverified:  "✗ 未核实",
	quoteLineFmt:     func(document, line string) string { return fmt.Sprintf("%s 第 %s 行", document, line) },
	quoteLinesFmt:    func(document, lines string) string { return fmt.Sprintf("%s 第 %s 行", document, lines) },
	quotesRepository: "共享文档与代码仓库引用",
	repository:       "引用的代码仓库",
	repositoryFmt:    func(commit string) string { return fmt.Sprintf("提交 %s", commit) },
	repositoryDirty:  func(digest string) string { return fmt.Sprintf("，含未提交的改动 (sha256 %s)", digest) },
	repoNoCommit:     "尚无提交",
	judges:           "评审团",
	votes:            "投票",
	noSide:           "不支持任何一方",
	voteStatus: map[tree.VoteStatus]string{
		tree.VoteDropped:  "未计入",
		tree.VoteRecused:  "回避",
		tree.VoteUnstable: "不稳定",
	},
	reasoning:       "理由",
	modelReasoning:  "模型的推理过程",
	none:            "无。",
	notReached:      "未进行。",
	noAnswerFmt:     func(step, errors string) string { return fmt.Sprintf("缺少%s — %s", step, errors) },
	noAnswer:        "未收到回答",
	judgeErrors:     "裁判错误",
	rawJudgment:     "裁判的原始回答（无效）：",
	otherErrors:     "错误",
	missing:         "缺席",
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
	colFailures:     "失败节点",
	colFailedCalls:  "失败调用",
	colFallbacks:    "回退",
	colTokens:       "Token",
	colCost:         "费用",
	total:           "合计",
	motionCalls:     "动议（见下文）",
	runCalls:        "运行级调用（修改建议）",
	conclusions:     "各议题结论",
	incompleteFmt: func(failed, interrupted int) string {
		return fmt.Sprintf("未完成：失败节点 %d 个，中断节点 %d 个；以下为已得出的结论。", failed, interrupted)
	},
	proposedEdits: "需要更新到共享文档的内容",
	noEdits:       "未提出修改建议。",
	fallbacks:     "模型回退",
	fallbackFmt: func(topic, participant, from, to, node string) string {
		return fmt.Sprintf("%s：%s 从 %s 回退到 %s（于 %s）", topic, participant, from, to, node)
	},
	noFallbacks: "没有参与者回退到备用模型。",
	adaptations: "对服务器的适配",
	adaptedFmt: func(model, host, sent, said string) string {
		return fmt.Sprintf("%s（%s）：%s。服务器的原话：“%s”", model, host, sent, said)
	},
	withoutFmt:    func(param string) string { return fmt.Sprintf("请求不再发送 %s", param) },
	insteadFmt:    func(sent, param string) string { return fmt.Sprintf("请求改为发送 %s，代替 %s", sent, param) },
	systemAsUser:  "系统消息改为作为第一条用户消息发送",
	demo:          "演示：本报告中的所有回答均由内置的脚本模型生成，未调用任何真实模型。",
	contents:      "目录",
	legend:        "状态",
	listSep:       "、",
	colon:         "：",
	colonSep:      "：",
	debateTitle:   func(id string) string { return fmt.Sprintf("辩论 %s", id) },
	debate:        "辩论",
	debateType:    "类型",
	state:         "辩论状态",
	created:       "创建时间",
	updated:       "更新时间",
	arguments:     "论点",
	argumentTree:  "论点树",
	noArguments:   "没有论点。",
	replyTo:       func(seq int) string { return fmt.Sprintf("回复 #%d", seq) },
	replyHidden:   "回复一条未显示的论点",
	argID:         func(id string) string { return fmt.Sprintf("编号 %s", id) },
	noContent:     "（无内容）",
	stateTimeline: "状态时间线",
	emptyTimeline: func(state string) string { return fmt.Sprintf("没有论点；辩论状态为%s。", state) },
	colSeq:        "序号",
	colArgument:   "论点",
	colBy:         "发言方",
	colStateAfter: "之后状态",
	colTime:       "时间",
	motion:        "动议",
	turns:         "轮次",
	turnsFmt:      func(turns, most int) string { return fmt.Sprintf("%d（最多 %d）", turns, most) },
	document:      "文档",
	documentFmt: func(path, id string, version int) string {
		return fmt.Sprintf("%s — `%s`（第 %d 版）", path, id, version)
	},
	runStarted: "运行开始",
	human:      "真人（通过服务器作出裁决）",
	motionErrorFmt: func(role string, turn int, message string) string {
		return fmt.Sprintf("%s第 %d 轮：%s", role, turn, message)
	},
	motionsHeading: "动议",
	colMotion:      "动议",
	colState:       "辩论状态",
	colTurns:       "轮次",
	colArguments:   "论点数",
	motionDebate:   func(reason, id string) string { return fmt.Sprintf("%s（辩论 `%s`）。", reason, id) },
	finalWord: func(seq int, argument, role string) string {
		return fmt.Sprintf("最终发言 — #%d %s（%s）", seq, argument, role)
	},
	roles: chineseRoles,
	cachedFmt: func(tokens string) string {
		return fmt.Sprintf("；其中 %s 个提示 token 来自服务方缓存", tokens)
	},
	eligibleFmt: func(tokens string, share float64) string {
		return fmt.Sprintf("；%s 个可缓存（占提示 token 的 %.1f %%：同一模型已发送过的前缀）", tokens, share)
	},
	byModelFmt: func(model, prompt, eligible string, share float64, cached string) string {
		return fmt.Sprintf("%s：提示 %s token，可缓存 %s（%.1f %%），服务方缓存 %s", model, prompt, eligible, share, cached)
	},
	unansweredFmt: func(model string, failed int) string {
		return fmt.Sprintf("%s：没有一次调用得到回答（%d 次失败）", model, failed)
	},
	reasoningTokensFmt: func(tokens string) string { return fmt.Sprintf("；推理 token %s", tokens) },
	estimatedFmt: func(calls int) string {
		return fmt.Sprintf("；%d 次调用的服务方未报告用量，为估算值", calls)
	},
	providerCostFmt: func(cost string) string { return fmt.Sprintf("（服务方报告 %s）", cost) },
	callCache:       "调用缓存",
	cacheAllFmt: func(calls int, tokens string) string {
		return fmt.Sprintf("全部 %d 次调用（%s token）均由缓存作答：本次运行未发出调用，未付任何费用", calls, tokens)
	},
	cacheSomeFmt: func(cached, calls int, tokens string, fresh int) string {
		return fmt.Sprintf("%[2]d 次调用中有 %[1]d 次由缓存作答（%[3]s token，不再付费）；%[4]d 次为新调用", cached, calls, tokens, fresh)
	},
	cacheCostFmt: func(cost string) string { return fmt.Sprintf("；缓存的回答当初花费 %s", cost) },
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
	quoteSayings:  chineseQuoteSayings,
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
