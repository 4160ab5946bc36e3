// Package tree holds the domain of tree-recursive debates: runs, topics, nodes,
// the judge's judgments, statuses, node ids, and the walks and aggregations over
// a finished tree. It is pure: no I/O, no clocks, no randomness.
package tree

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// SchemaVersion is the version of the run.json schema that Run encodes to.
const SchemaVersion = 5

// Status is the state of a node or of a whole topic.
type Status string

// The statuses a node or topic can end in. Pending is only seen while a run is
// still going; a finished run never contains it.
const (
	Pending   Status = "pending"
	Split     Status = "split"
	Converged Status = "converged"
	// Partial is a node where the judge found no divergence among the
	// debaters who answered, but not every debater answered both steps; a
	// topic is partial when any of its decided nodes lacked a debater.
	Partial     Status = "partial"
	Forced      Status = "forced"
	Failed      Status = "failed"
	Interrupted Status = "interrupted"
)

// Step names one of the three steps of a node, or the calls that follow a tree.
type Step string

// The steps of a node, in order, and the optional synthesis steps.
const (
	StepPosition  Step = "position"
	StepRebuttal  Step = "rebuttal"
	StepJudge     Step = "judge"
	StepSynthesis Step = "synthesis"
	StepEdits     Step = "edits"
	// StepVerdict is a panel judge's forced verdicts on the divergences the
	// chair listed, and the order check's second asking.
	StepVerdict Step = "verdict"
)

// RootID is the id of every topic's root node.
const RootID = "root"

// ChildID returns the id of the i-th (0-based) child of the node with id parent:
// root → d1, d2 …; d1 → d1.1, d1.2 ….
func ChildID(parent string, i int) string {
	n := strconv.Itoa(i + 1)
	if parent == RootID || parent == "" {
		return "d" + n
	}
	return parent + "." + n
}

// ParentID is the inverse of ChildID: the id of a node's parent, "d1.2" →
// "d1", "d1" → RootID, and "" for the root itself (or "").
func ParentID(id string) string {
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		return id[:i]
	}
	if id == RootID || id == "" {
		return ""
	}
	return RootID
}

// DepthOf returns the depth a node id implies: 0 for root, 1 for d1, 2 for d1.1.
func DepthOf(id string) int {
	if id == RootID || id == "" {
		return 0
	}
	return strings.Count(id, ".") + 1
}

// Participant is a debater or the judge as the run saw it.
type Participant struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Model    string `json:"model"`
	Fallback string `json:"fallback,omitempty"`
}

// Name returns the label, or the id when there is no label.
func (p Participant) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

// Usage counts tokens and attempts: Calls those that were answered,
// Failures those that failed (a call retried twice that then succeeds counts
// one call and two failures). Cost is in the currency of the configured
// price table, or what the providers reported for models without a price,
// and is zero when neither is known. CachedPromptTokens (served from the
// provider's cache) are part of PromptTokens and ReasoningTokens part of
// CompletionTokens; EstimatedCalls counts the calls whose provider reported
// no usage, so that their tokens were estimated from the text.
type Usage struct {
	PromptTokens       int `json:"promptTokens"`
	CompletionTokens   int `json:"completionTokens"`
	CachedPromptTokens int `json:"cachedPromptTokens,omitempty"`
	// CacheEligiblePromptTokens are the prompt tokens of the longest prefix
	// already sent to the same model and endpoint earlier in the run:
	// what a provider could serve from its cache, estimated from bytes.
	// Counted for the run (its usage and byModel), not per topic.
	CacheEligiblePromptTokens int     `json:"cacheEligiblePromptTokens,omitempty"`
	ReasoningTokens           int     `json:"reasoningTokens,omitempty"`
	Calls                     int     `json:"calls"`
	EstimatedCalls            int     `json:"estimatedCalls,omitempty"`
	Failures                  int     `json:"failures,omitempty"`
	Cost                      float64 `json:"cost,omitempty"`
	// ProviderCost is what the providers reported the calls cost
	// (OpenRouter's usage.cost), whatever the price table says.
	ProviderCost float64 `json:"providerCost,omitempty"`
}

// Add returns the sum of u and v. Counts stop at the largest int and costs
// at the largest float64 rather than wrap or become infinite.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:              addCount(u.PromptTokens, v.PromptTokens),
		CompletionTokens:          addCount(u.CompletionTokens, v.CompletionTokens),
		CachedPromptTokens:        addCount(u.CachedPromptTokens, v.CachedPromptTokens),
		CacheEligiblePromptTokens: addCount(u.CacheEligiblePromptTokens, v.CacheEligiblePromptTokens),
		ReasoningTokens:           addCount(u.ReasoningTokens, v.ReasoningTokens),
		Calls:                     addCount(u.Calls, v.Calls),
		EstimatedCalls:            addCount(u.EstimatedCalls, v.EstimatedCalls),
		Failures:                  addCount(u.Failures, v.Failures),
		Cost:                      addCost(u.Cost, v.Cost),
		ProviderCost:              addCost(u.ProviderCost, v.ProviderCost),
	}
}

// addCount adds two counts, saturating at the bounds of int.
func addCount(a, b int) int {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt
	}
	return s
}

// addCost adds two costs, saturating at the largest finite float64; NaN
// counts as zero.
func addCost(a, b float64) float64 {
	if math.IsNaN(a) {
		a = 0
	}
	if math.IsNaN(b) {
		b = 0
	}
	return max(min(a+b, math.MaxFloat64), -math.MaxFloat64)
}

// MergeByModel adds every model's usage in src to dst, which it returns
// (made when nil and src has any).
func MergeByModel(dst, src map[string]Usage) map[string]Usage {
	for m, u := range src {
		if dst == nil {
			dst = make(map[string]Usage, len(src))
		}
		dst[m] = dst[m].Add(u)
	}
	return dst
}

// CacheShare returns the share of prompt tokens that were cache-eligible,
// 0 when no prompt tokens were counted.
func (u Usage) CacheShare() float64 {
	if u.PromptTokens == 0 {
		return 0
	}
	return float64(min(u.CacheEligiblePromptTokens, u.PromptTokens)) / float64(u.PromptTokens)
}

// Total returns prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Consensus is one point all debaters agree on.
type Consensus struct {
	Point  string `json:"point"`
	Detail string `json:"detail"`
}

// Divergence is one point still disputed, with each involved party's claim.
// Sides maps a party id to a summary of its claim; Uninvolved lists the parties
// that took no clear side.
type Divergence struct {
	ID         string            `json:"id"`
	Title      string            `json:"title"`
	Sides      map[string]string `json:"sides"`
	Uninvolved []string          `json:"uninvolved"`
}

// Verdict is the judge's forced decision on a divergence at the round limit.
type Verdict struct {
	DivergenceID   string `json:"divergenceId"`
	Recommendation string `json:"recommendation"`
	Reasoning      string `json:"reasoning"`
	// Missing marks a divergence the judge gave no verdict on, even after
	// repair, in an answer whose consensus was kept.
	Missing bool `json:"missing,omitempty"`
	// OverLimit marks a divergence beyond the node's limit of child debates
	// (params.maxDivergences): it was neither debated nor decided.
	OverLimit bool `json:"overLimit,omitempty"`
	// Favors is the id of the debater whose side the verdict takes, "none",
	// or empty when the judge did not say.
	Favors string `json:"favors,omitempty"`
	// Votes are the panel's answers on the divergence, in panel order; set
	// when the panel has more than one judge, or recusal or the order check
	// is on.
	Votes []Vote `json:"votes,omitempty"`
	// Split marks a tie among the counted votes: no side won, the votes
	// hold each side's recommendation, and Recommendation is empty.
	Split bool `json:"split,omitempty"`
	// Unstable marks a verdict on which at least one judge changed its
	// choice when the sides were shown in reverse order.
	Unstable bool `json:"unstable,omitempty"`
	// Read lists the debaters in the order the judge that gave the verdict
	// read their answers.
	Read []string `json:"read,omitempty"`
}

// VoteStatus says whether and why a judge's vote counted.
type VoteStatus string

// Vote statuses.
const (
	VoteCounted  VoteStatus = "counted"
	VoteDropped  VoteStatus = "dropped"  // the judge failed, even on its fallback
	VoteRecused  VoteStatus = "recused"  // a debater of the judge's model takes a side
	VoteUnstable VoteStatus = "unstable" // the judge's choice changed with the order
)

// OrderCheckReason begins the words of the reason of a vote that the
// order check (params.verdictCheck "swap") dropped: the judge answered,
// but gave no verdict when asked again with the sides reversed.
const OrderCheckReason = "order check"

// OrderCheckDropped tells whether a missing verdict is missing because the
// order check dropped every vote: the judges answered, but not again with
// the sides reversed.
func (v Verdict) OrderCheckDropped() bool {
	if !v.Missing || len(v.Votes) == 0 {
		return false
	}
	for _, x := range v.Votes {
		if x.Status != VoteDropped || !x.droppedByOrderCheck() {
			return false
		}
	}
	return true
}

// droppedByOrderCheck tells whether the order check dropped the vote: by
// its code, or in a run.json before reasons had codes by its words.
func (x Vote) droppedByOrderCheck() bool {
	if len(x.Because) > 0 {
		return x.Because[0].Code == OrderCheckFailed || x.Because[0].Code == OrderCheckNone
	}
	return strings.HasPrefix(x.Reason, OrderCheckReason)
}

// Vote is one judge's answer on one divergence.
type Vote struct {
	Judge  string     `json:"judge"`
	Model  string     `json:"model,omitempty"`
	Status VoteStatus `json:"status"`
	Reason string     `json:"reason,omitempty"`
	// Because is Reason as codes, which the reports say.
	Because        []Reason `json:"because,omitempty"`
	Favors         string   `json:"favors,omitempty"`
	Recommendation string   `json:"recommendation,omitempty"`
	Reasoning      string   `json:"reasoning,omitempty"`
	// SwapFavors is the judge's favors when asked again with the sides in
	// reverse order (params.verdictCheck "swap").
	SwapFavors string `json:"swapFavors,omitempty"`
	// Read lists the debaters in the order this judge read their answers
	// (reversed for SwapFavors).
	Read []string `json:"read,omitempty"`
}

// Judgment is what the judge returned for a node.
type Judgment struct {
	Consensus      []Consensus  `json:"consensus"`
	Divergences    []Divergence `json:"divergences"`
	ForcedVerdicts []Verdict    `json:"forcedVerdicts,omitempty"`
	// Stances are each debater's stance after the node's rebuttals as the
	// judge read them.
	Stances []Stance `json:"stances,omitempty"`
}

// NodeError records a failure inside a node: which participant, at which step.
type NodeError struct {
	Participant string `json:"participant"`
	Step        Step   `json:"step"`
	Message     string `json:"message"`
	// Because is Message as codes, which the reports say.
	Because []Reason `json:"because,omitempty"`
}

// Warning records what a reader of a kept answer must know about it: which
// participant, at which step, and why (a debater's answer cut at the token
// limit).
type Warning struct {
	Participant string `json:"participant"`
	Step        Step   `json:"step"`
	Message     string `json:"message"`
	// Because is Message as codes, which the reports say.
	Because []Reason `json:"because,omitempty"`
}

// Absence records a debater missing from a step of a node: who, at which
// step, and why (its last error, in words).
type Absence struct {
	Participant string `json:"participant"`
	Step        Step   `json:"step"`
	Reason      string `json:"reason"`
	// Because is Reason as codes, which the reports say.
	Because []Reason `json:"because,omitempty"`
}

// Reasoning is what a participant gave as its reasoning at one step of a
// node, kept apart from its answer, which never contains it.
type Reasoning struct {
	Participant string `json:"participant"`
	Step        Step   `json:"step"`
	Text        string `json:"text"`
}

// Finish is how a participant's answer at one step of a node ended when its
// provider gave a finish reason other than "stop" or "length" ("eos",
// "end_turn", a number): a finished answer all the same, its reason kept.
type Finish struct {
	Participant string `json:"participant"`
	Step        Step   `json:"step"`
	Reason      string `json:"reason"`
}

// Node is one debate in the tree: the root topic or a divergence.
type Node struct {
	ID         string      `json:"id"`
	Depth      int         `json:"depth"`
	Round      int         `json:"round"`
	Title      string      `json:"title"`
	Context    string      `json:"context"`
	Divergence *Divergence `json:"divergence,omitempty"`
	Status     Status      `json:"status"`
	StopReason string      `json:"stopReason"`
	// Because is StopReason as codes, which the reports say; absent from
	// a run.json before schema version 5.
	Because []Reason `json:"because,omitempty"`
	// Positions and Rebuttals map a debater id to its text. Models maps a
	// debater id to the model that wrote its position, and the judge's id to
	// the model that wrote the judgment; RebuttalModels maps a debater id to
	// the model that wrote its rebuttal. A fallback at the rebuttal step
	// never changes the model credited with the position.
	Positions      map[string]string `json:"positions"`
	Rebuttals      map[string]string `json:"rebuttals"`
	Models         map[string]string `json:"models"`
	RebuttalModels map[string]string `json:"rebuttalModels"`
	Judgment       *Judgment         `json:"judgment,omitempty"`
	RawJudgment    string            `json:"rawJudgment,omitempty"`
	Errors         []NodeError       `json:"errors"`
	// Warnings mark answers that were kept with a flaw, in config order.
	Warnings []Warning `json:"warnings"`
	// Missing lists the debaters who took no part in a step of a node that
	// went on without them, in config order: such a node cannot converge.
	Missing []Absence `json:"missing,omitempty"`
	// Reasoning holds the reasoning of the node's answers (positions,
	// rebuttals, the judgment used) that came with any, in config order.
	Reasoning []Reasoning `json:"reasoning,omitempty"`
	// Budget marks a node whose verdicts the run's budget forced before
	// the round limit: the topic was cut short.
	Budget bool `json:"budget,omitempty"`
	// Finishes are the unusual finish reasons of the node's answers, in
	// config order.
	Finishes []Finish `json:"finishReasons,omitempty"`
	// Quotes holds the quotes of the node's answers, as the engine checked
	// them, for each answer that made any, in config order and position
	// before rebuttal.
	Quotes   []AnswerQuotes `json:"quotes,omitempty"`
	Children []*Node        `json:"children"`
}

// NewNode returns an empty pending node with its maps and slices made, so that
// it encodes to the same JSON whether or not anything was added.
func NewNode(id, title, context string) *Node {
	d := DepthOf(id)
	return &Node{
		ID: id, Depth: d, Round: d + 1, Title: title, Context: context,
		Status:    Pending,
		Positions: map[string]string{}, Rebuttals: map[string]string{},
		Models: map[string]string{}, RebuttalModels: map[string]string{}, Errors: []NodeError{}, Warnings: []Warning{}, Children: []*Node{},
	}
}

// SetReasoning records the reasoning of participant's answer at step,
// replacing any recorded before for the same participant and step; an empty
// text removes it.
func (n *Node) SetReasoning(participant string, step Step, text string) {
	for i, r := range n.Reasoning {
		if r.Participant == participant && r.Step == step {
			n.Reasoning = append(n.Reasoning[:i], n.Reasoning[i+1:]...)
			break
		}
	}
	if text != "" {
		n.Reasoning = append(n.Reasoning, Reasoning{Participant: participant, Step: step, Text: text})
	}
}

// Walk calls fn for n and every node below it, depth first, parents before
// children, children in order.
func (n *Node) Walk(fn func(*Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Fallback records a participant switching to its fallback model.
type Fallback struct {
	Participant string `json:"participant"`
	From        string `json:"from"`
	To          string `json:"to"`
	Node        string `json:"node"`
	Reason      string `json:"reason"`
	// Because is Reason as codes, which the reports say.
	Because []Reason `json:"because,omitempty"`
}

// Alias is the neutral name a debater had in a topic's blind prompts.
type Alias struct {
	Alias       string `json:"alias"`
	Participant string `json:"participant"`
}

// Topic is one topic of a run together with its debate tree.
type Topic struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Background    string   `json:"background,omitempty"`
	Annotations   []string `json:"annotations,omitempty"`
	CoreQuestions []string `json:"coreQuestions,omitempty"`
	Status        Status   `json:"status"`
	// Decision is what the topic decided, and Cause why it is Undecided;
	// Verdicts counts its forced verdicts by what became of them. Settle
	// sets all three from the tree.
	Decision  Outcome      `json:"decision"`
	Cause     Cause        `json:"cause,omitempty"`
	Verdicts  VerdictCount `json:"verdicts"`
	Root      *Node        `json:"root"`
	Fallbacks []Fallback   `json:"fallbacks"`
	Usage     Usage        `json:"usage"`
	// ByModel is Usage per model.
	ByModel map[string]Usage `json:"byModel,omitempty"`
	// Aliases say which neutral name stood for which debater in the topic's
	// blind prompts, in alias order; absent when the prompts named them.
	Aliases []Alias `json:"aliases,omitempty"`
	// Seed is the seed the topic drew its aliases and orders from: the
	// run's when it was given one, else derived from the topic as
	// configured; absent for a topic that never started.
	Seed uint64 `json:"seed,omitempty"`
	// Ledger is each debater's stance at each child node; Stances its
	// figures.
	Ledger  []LedgerEntry  `json:"ledger,omitempty"`
	Stances *StanceFigures `json:"stances,omitempty"`
	// Quotes counts the quotes of the topic's answers, when quotes were
	// checked.
	Quotes *QuoteTally `json:"quotes,omitempty"`
	// Synthesis is the judge's written conclusion for the topic, if asked for.
	Synthesis string `json:"synthesis,omitempty"`
	// StartedAt and FinishedAt bound the topic's own work within the run.
	StartedAt  time.Time `json:"startedAt,omitzero"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
	// Cache says, for a run with a call cache, how many of the topic's
	// calls were made afresh and which the cache answered.
	Cache *CacheUse `json:"cache,omitempty"`
	// Sessions are the coding-agent sessions the topic's calls ran in, by
	// participant in config order, then by the node of their first call.
	Sessions []AgentSession `json:"sessions,omitempty"`
}

// AgentSession is one session of a coding agent within a topic: the calls
// of one debater along one path of the tree that continued it.
type AgentSession struct {
	Participant string `json:"participant"`
	// Agent is the agent's label (its kind, and model after a "/").
	Agent string `json:"agent"`
	// ID is the session id the agent reported.
	ID string `json:"id"`
	// ForkedFrom is the session this one branched from (a child node
	// continuing its parent's session beside a sibling), "" if none.
	ForkedFrom string `json:"forkedFrom,omitempty"`
	// Calls name the calls that ran in the session, "node step" each
	// ("root position", "root rebuttal", "d1 position"), in order.
	Calls []string `json:"calls"`
	// ResumeFailed counts the calls whose resume of an earlier session
	// failed and that started this one afresh with the whole prompt.
	ResumeFailed int `json:"resumeFailed,omitempty"`
}

// CacheUse is how a topic's answered calls split between calls made by
// the run and answers taken from the call cache.
type CacheUse struct {
	// Fresh counts the calls this run made (and paid for).
	Fresh int `json:"fresh"`
	// Cached counts the answers taken from the cache.
	Cached int `json:"cached"`
	// CachedUsage is the tokens and cost of the cached answers when they
	// were made: counted in the topic's usage, not paid by this run.
	CachedUsage Usage `json:"cachedUsage"`
}

// Add returns the sum of two cache uses; nil stands for none.
func (c *CacheUse) Add(o *CacheUse) *CacheUse {
	if c == nil || o == nil {
		return cmp.Or(c, o)
	}
	return &CacheUse{Fresh: c.Fresh + o.Fresh, Cached: c.Cached + o.Cached, CachedUsage: c.CachedUsage.Add(o.CachedUsage)}
}

// Adaptation is a parameter a server refused for a model, and what was
// sent instead for the rest of the run.
type Adaptation struct {
	Endpoint string `json:"endpoint"`
	Model    string `json:"model"`
	Param    string `json:"param"`
	Change   string `json:"change"`
	Reason   string `json:"reason"`
	// How is the change as a code, which the reports say; Change says it
	// in words. Absent from a run.json before schema version 5.
	How AdaptationCode `json:"how,omitempty"`
}

// AdaptationCode names how the requests of an adaptation changed.
type AdaptationCode string

// The changes an adaptation makes.
const (
	LeftOut      AdaptationCode = "left-out"       // the parameter is no longer sent
	Replaced     AdaptationCode = "replaced"       // Change names what is sent in its place
	NoStreaming  AdaptationCode = "no-streaming"   // answers are no longer streamed
	SystemAsUser AdaptationCode = "system-as-user" // the system message goes first as a user message
)

// Run is a whole batch run: what was configured and what every topic reached.
type Run struct {
	SchemaVersion int             `json:"schemaVersion"`
	StartedAt     time.Time       `json:"startedAt"`
	FinishedAt    time.Time       `json:"finishedAt"`
	Config        json.RawMessage `json:"config,omitempty"`
	Language      string          `json:"language,omitempty"`
	// Demo marks a run played against the built-in scripted model.
	Demo      bool `json:"demo,omitempty"`
	MaxRounds int  `json:"maxRounds"`
	// Cache says, for a run with a call cache, how many of all its calls
	// (topics, motions and the run's own) were made afresh and which the
	// cache answered.
	Cache *CacheUse `json:"cache,omitempty"`
	// Seed is the seed the run was given (--seed or params.seed) and drew
	// its aliases and orders from; nil when none was: each topic then drew
	// from a seed derived from the topic as configured (Topic.Seed).
	Seed     *uint64       `json:"seed,omitempty"`
	Debaters []Participant `json:"debaters"`
	Judge    Participant   `json:"judge"`
	// Judges is the whole panel, chair first, when it has more than one
	// judge; Judge is its chair.
	Judges []Participant `json:"judges,omitempty"`
	Topics []Topic       `json:"topics"`
	// Motions are the run's protocol debates, in config order.
	Motions []Motion `json:"motions,omitempty"`
	Usage   Usage    `json:"usage"`
	// ByModel is Usage per model, over the topics, the motions and the
	// edits call.
	ByModel map[string]Usage `json:"byModel,omitempty"`
	// Quotes counts the quotes of every topic's answers, when quotes were
	// checked.
	Quotes *QuoteTally `json:"quotes,omitempty"`
	// Adaptations are the parameters servers refused and what was sent
	// instead for the rest of the run.
	Adaptations []Adaptation `json:"adaptations,omitempty"`
	// Documents are the paths of the shared-context documents the judge
	// may propose edits to; none: the run had no shared documents.
	Documents []string `json:"documents,omitempty"`
	// Repository is the git repository whose files the debaters could
	// quote, as it was when the run started; nil when none was shared.
	Repository *Repository `json:"repository,omitempty"`
	// Edits holds the judge's proposed edits to the shared-context documents.
	Edits string `json:"edits,omitempty"`
	// Shard is set when the run played one slice of its selection
	// ("debate run --shard i/n"); "debate merge" combines the slices.
	Shard *Shard `json:"shard,omitempty"`
	// Stances are the stance figures over every topic's ledger.
	Stances *StanceFigures `json:"stances,omitempty"`
	// Audit is the judge audit, per judge model.
	Audit []JudgeAudit `json:"audit,omitempty"`
}
