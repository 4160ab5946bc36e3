// Package rendertest holds hand-built debate runs shaped like the ones the
// orchestrator produces, one per situation a report must show, for the tests
// of every package that renders or writes runs.
package rendertest

import (
	"encoding/json"
	"time"

	"github.com/debatehq/debate/tree"
)

var (
	partyA = tree.Participant{ID: "party-a", Label: "Party A", Model: "gpt-5.2"}
	partyB = tree.Participant{ID: "party-b", Label: "Party B", Model: "kimi-k2.5"}
	partyC = tree.Participant{ID: "party-c", Label: "Party C", Model: "gemini-3.1-pro-preview", Fallback: "claude-sonnet-4-6"}
	judge  = tree.Participant{ID: "reviewer", Label: "Judge", Model: "qwen3.5-plus"}
)

// Fixture is a named run.
type Fixture struct {
	Name string
	Run  *tree.Run
}

// Fixtures returns fresh copies of every fixture run: a converged one-node
// topic, a three-level tree with forced verdicts and a fallback, a topic with
// a failed node and a missing debater, an interrupted run of two topics, and
// a Chinese-language topic. Only the forced one and the Chinese one have
// shared documents, the Chinese one without proposed edits.
func Fixtures() []Fixture {
	return []Fixture{
		{"converged", Converged()},
		{"forced", Forced()},
		{"failed", Failed()},
		{"interrupted", Interrupted()},
		{"chinese", Chinese()},
	}
}

func baseRun(maxRounds int) *tree.Run {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	return &tree.Run{
		SchemaVersion: tree.SchemaVersion,
		StartedAt:     start,
		FinishedAt:    start.Add(6*time.Minute + 42*time.Second),
		MaxRounds:     maxRounds,
		Debaters:      []tree.Participant{partyA, partyB, partyC},
		Judge:         judge,
	}
}

// settled sets every topic's decision from its tree, as the engine does
// when a topic ends.
func settled(run *tree.Run) *tree.Run {
	for i := range run.Topics {
		run.Topics[i].Settle()
	}
	return run
}

// node returns a finished node with its answers; models default to the
// debaters' primary models and the judge's.
func node(id, title string, status tree.Status, stop string) *tree.Node {
	n := tree.NewNode(id, title, "")
	n.Status = status
	n.StopReason = stop
	for _, p := range []tree.Participant{partyA, partyB, partyC, judge} {
		n.Models[p.ID] = p.Model
	}
	for _, p := range []tree.Participant{partyA, partyB, partyC} {
		n.RebuttalModels[p.ID] = p.Model
	}
	return n
}

func answers(a, b, c string) map[string]string {
	m := map[string]string{}
	for id, s := range map[string]string{"party-a": a, "party-b": b, "party-c": c} {
		if s != "" {
			m[id] = s
		}
	}
	return m
}

func child(parent *tree.Node, d tree.Divergence, status tree.Status, stop string) *tree.Node {
	n := node(tree.ChildID(parent.ID, len(parent.Children)), d.Title, status, stop)
	n.Context = d.Title
	dv := d
	n.Divergence = &dv
	parent.Children = append(parent.Children, n)
	return n
}

// Converged returns a run whose one topic converged at the root.
func Converged() *tree.Run {
	run := baseRun(3)
	root := node(tree.RootID, "Should the public API keep offset pagination or move to cursors?", tree.Converged, "no divergences: every debater agrees")
	root.Positions = answers(
		"Cursors. Offset pagination degrades linearly: `OFFSET 100000` scans and discards 100k rows, and rows inserted while a client pages cause duplicates or skips.\n\n## Proposal\n\n1. Opaque, base64-encoded cursor of `(created_at, id)`.\n2. Keep `?page=` for one major version, marked deprecated.\n\n```sql\nSELECT * FROM orders\nWHERE (created_at, id) > ($1, $2)\nORDER BY created_at, id\nLIMIT 50;\n```",
		"I agree on cursors for the list endpoints that grow without bound (orders, events). Admin tables with a few hundred rows can keep offsets; the UI there needs \"jump to page 7\".\n\n# Risks\n\nClients that store page numbers in bookmarks will break — a deprecation window is required.",
		"Cursors, with a stable sort key that includes a unique column. A cursor must encode the sort order it was issued for, or a client switching `sort=` mid-stream gets nonsense.\n\nSetext headings must be demoted too\n===\n\nThat line above was one.",
	)
	root.Rebuttals = answers(
		"Party B's admin exception is reasonable as long as it is documented per endpoint. Party C is right that the cursor must carry the sort key; I adopt that.",
		"Party A's SQL is correct; note the composite index `(created_at, id)` it needs. I accept Party C's point about sort order.",
		"No remaining disagreement. Both proposals need the same index, which we should add before the switch.",
	)
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{
			{Point: "Move unbounded list endpoints to opaque cursors", Detail: "Cursor encodes (created_at, id) and the sort order it was issued for."},
			{Point: "Keep offset pagination for small admin tables", Detail: "Documented per endpoint; the UI needs page jumps."},
			{Point: "Deprecate ?page= over one major version", Detail: "Add the composite index (created_at, id) before the switch."},
		},
		Divergences: []tree.Divergence{},
	}
	run.Topics = []tree.Topic{{
		ID: "pagination", Title: root.Title, Status: tree.Converged, Root: root, Fallbacks: []tree.Fallback{},
		Background:    "The v2 API lists orders with `?page=N&per_page=50`. The largest tenant has 4.1M orders.",
		CoreQuestions: []string{"Is offset pagination still acceptable at our largest tenant's size?", "What breaks for existing clients?"},
		Usage:         tree.Usage{PromptTokens: 18230, CompletionTokens: 4105, Calls: 7},
		StartedAt:     run.StartedAt.Add(2 * time.Second),
		FinishedAt:    run.StartedAt.Add(2*time.Minute + 12*time.Second),
	}}
	run.Usage = run.Topics[0].Usage
	return settled(run)
}

// Forced returns a run whose topic split over three rounds, ended in forced
// verdicts and saw Party C fall back to its second model.
func Forced() *tree.Run {
	run := baseRun(3)
	root := node(tree.RootID, "Should the billing service move from PostgreSQL to a distributed SQL database?", tree.Split, "2 divergences remain")
	root.Positions = answers(
		"Stay on PostgreSQL. Our write rate is 900 tx/s at peak; a single primary with a hot standby handles 10× that. A distributed database buys horizontal writes we do not need and costs us operational simplicity.\n\n# Evidence\n\n- p99 write latency today: 4 ms.\n- Storage growth: 60 GB/year.",
		"Move to CockroachDB. The EU contract signed in January requires that EU customers' invoices never leave the EU region, and a single-primary PostgreSQL in us-east cannot satisfy that without a second, separate deployment.",
		"Neither, yet: split the EU tenants into a second PostgreSQL cluster in eu-west. It meets residency without a new database. Here is the routing rule:\n\n```go\n# this is not a heading, it is inside code\nif tenant.Region == \"eu\" {\n\treturn euPool\n}\n```",
	)
	root.Rebuttals = answers(
		"Party C's split meets residency at the cost of cross-cluster reporting. I accept that over a database migration.",
		"Party C's split doubles the on-call surface and every schema migration must run twice. That is the operational cost Party A wanted to avoid.",
		"Party B overstates it: migrations are already scripted per environment. But I concede cross-region reporting needs a plan.",
	)
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{
			{Point: "Current write volume does not need horizontal write scaling", Detail: "900 tx/s peak against a single primary's headroom of roughly 10×."},
		},
		Divergences: []tree.Divergence{
			{ID: "D1", Title: "Operational cost of running two PostgreSQL clusters vs one CockroachDB cluster", Sides: map[string]string{"party-b": "Two clusters double on-call and migrations.", "party-c": "Migrations are already scripted; the cost is small."}, Uninvolved: []string{"party-a"}},
			{ID: "D2", Title: "Whether the EU contract requires multi-region writes or only data residency", Sides: map[string]string{"party-a": "Residency only: EU data at rest in the EU.", "party-b": "Writes must be accepted in the EU region too."}, Uninvolved: []string{"party-c"}},
		},
	}
	d1 := child(root, root.Judgment.Divergences[0], tree.Converged, "no divergences left")
	d1.Positions = answers(
		"I take no side on ownership, but I back Party C: our Terraform already parameterises the region; a second cluster is a variable change.",
		"I revise: with migrations run by the same pipeline the second cluster costs one more target, not double the work.",
		"Defending my position: the pipeline runs `migrate up` per environment today; adding eu-west is one line.",
	)
	d1.Rebuttals = answers("Agreed with both.", "Nothing left to dispute.", "Agreed.")
	d1.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "A second PostgreSQL cluster adds one pipeline target, not double the work", Detail: "Migrations and Terraform are already parameterised by region."}},
	}

	forcedResidency(root)
	run.Topics = []tree.Topic{{
		ID: "billing-db", Title: root.Title, Status: tree.Forced, Root: root,
		Annotations: []string{"The EU contract (clause 7.2) was signed in January 2026."},
		Fallbacks:   []tree.Fallback{{Participant: "party-c", From: "gemini-3.1-pro-preview", To: "claude-sonnet-4-6", Node: "d2", Reason: "2 consecutive failures: 503 Service Unavailable"}},
		Usage:       tree.Usage{PromptTokens: 96412, CompletionTokens: 21877, Calls: 27, Failures: 2, Cost: 0.8734},
		Synthesis:   "Stay on PostgreSQL and add an EU cluster.\n\n# What to do\n\n1. Route EU tenants to an eu-west primary.\n2. Replicate price overrides to the EU; keep the base catalogue in us-east.",
	}}
	run.Usage = run.Topics[0].Usage
	run.Config = json.RawMessage(`{"debaters":[{"id":"party-a","label":"Party A","model":"gpt-5.2"},{"id":"party-b","label":"Party B","model":"kimi-k2.5"},{"id":"party-c","label":"Party C","model":"gemini-3.1-pro-preview","fallback":"claude-sonnet-4-6"}],"reviewer":{"id":"reviewer","label":"Judge","model":"qwen3.5-plus"},"params":{"maxRounds":3}}`)
	run.Documents = []string{"docs/decisions.md"}
	run.Adaptations = []tree.Adaptation{
		{Endpoint: "https://api.openai.com/v1", Model: "o3-deployment", Param: "max_tokens", Change: "max_completion_tokens", How: tree.Replaced,
			Reason: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."},
		{Endpoint: "https://api.openai.com/v1", Model: "o3-deployment", Param: "temperature", Change: "left out (the model's default)", How: tree.LeftOut,
			Reason: "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported."},
	}
	run.Edits = "## docs/decisions.md\n\n- Add: \"EU tenants are served by an eu-west PostgreSQL primary (clause 7.2).\"\n- Replace the line \"All data lives in us-east\" with \"Customer data lives in the customer's region.\""
	return settled(run)
}

// forcedResidency adds the second divergence of Forced's root to it: a
// fallback at d2 and two forced verdicts a round below.
func forcedResidency(root *tree.Node) {
	d2 := child(root, root.Judgment.Divergences[1], tree.Split, "2 divergences remain")
	d2.Models["party-c"] = "claude-sonnet-4-6"
	d2.RebuttalModels["party-c"] = "claude-sonnet-4-6"
	d2.Positions = answers(
		"Clause 7.2 says \"Customer Data shall be stored and processed exclusively within the EEA\". Processing includes writes, so an EU write must not transit to us-east — but that is satisfied by an EU-local primary.",
		"Processing includes the API tier: a request from Berlin routed to us-east violates 7.2 even if the row lands in the EU. We need EU writes end to end.",
		"Neither side: the contract is satisfied by EU-local API + EU-local primary. No multi-region *writes* to the same rows are needed.\n\n```text\nan unclosed fence in a model answer must not swallow the report",
	)
	d2.Rebuttals = answers(
		"Party C's reading matches mine.",
		"Party C assumes an EU customer never touches a US-hosted shared table, such as the product catalogue.",
		"The catalogue holds no customer data; clause 7.2 does not cover it.",
	)
	d2.Errors = []tree.NodeError{
		{Participant: "party-c", Step: tree.StepPosition, Message: "gemini-3.1-pro-preview: 503 Service Unavailable"},
		{Participant: "party-c", Step: tree.StepPosition, Message: "gemini-3.1-pro-preview: 503 Service Unavailable"},
	}
	d2.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "EU customer rows must be written by an EU-local primary", Detail: "Clause 7.2 covers processing, including writes."}},
		Divergences: []tree.Divergence{
			{ID: "D2.1", Title: "Latency budget for cross-region reads of shared tables", Sides: map[string]string{"party-a": "80 ms extra is acceptable for catalogue reads.", "party-b": "Checkout cannot absorb 80 ms."}, Uninvolved: []string{"party-c"}},
			{ID: "D2.2", Title: "Does the product catalogue count as \"Customer Data\"?", Sides: map[string]string{"party-b": "Custom prices per customer are customer data.", "party-c": "The catalogue is vendor data."}, Uninvolved: []string{"party-a"}},
		},
	}
	d21 := child(d2, d2.Judgment.Divergences[0], tree.Forced, "round limit 3 reached: forced verdict")
	d21.Models["party-c"] = "claude-sonnet-4-6"
	d21.RebuttalModels["party-c"] = "claude-sonnet-4-6"
	d21.Positions = answers("Catalogue reads are cached for 5 minutes; the 80 ms applies to 1 in 300 requests.", "Checkout reads custom prices uncached by design.", "I back Party A for the catalogue and Party B for prices: cache the catalogue, replicate prices to the EU.")
	d21.Rebuttals = answers("Party C's split is good.", "Replicated prices would meet my latency concern.", "Nothing to add.")
	d21.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "Cache catalogue reads for five minutes", Detail: "The cross-region cost then hits one request in 300."}},
		Divergences: []tree.Divergence{
			{ID: "V1", Title: "Replicate custom prices to the EU or read them cross-region", Sides: map[string]string{"party-a": "Read cross-region.", "party-b": "Replicate."}, Uninvolved: []string{"party-c"}},
		},
		ForcedVerdicts: []tree.Verdict{{DivergenceID: "V1", Recommendation: "Replicate custom prices to the EU cluster with logical replication.", Reasoning: "Checkout latency is user-facing and prices change rarely, so replication lag is harmless."}},
	}
	d22 := child(d2, d2.Judgment.Divergences[1], tree.Forced, "round limit 3 reached: forced verdict")
	d22.Models["party-c"] = "claude-sonnet-4-6"
	d22.RebuttalModels["party-c"] = "claude-sonnet-4-6"
	d22.Positions = answers("Custom prices are negotiated per customer, so they are Customer Data.", "Agreed with Party A.", "The base catalogue is vendor data; only the price overrides are customer data.")
	d22.Rebuttals = answers("Party C's distinction is precise.", "Accepted.", "No change.")
	d22.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{},
		Divergences: []tree.Divergence{
			{ID: "V2", Title: "Base catalogue residency", Sides: map[string]string{"party-a": "Keep the base catalogue in us-east.", "party-c": "Mirror it to the EU for simplicity."}, Uninvolved: []string{"party-b"}},
		},
		ForcedVerdicts: []tree.Verdict{{DivergenceID: "V2", Recommendation: "Keep the base catalogue in us-east; treat price overrides as customer data stored in the EU.", Reasoning: "Only the overrides identify a customer; mirroring the catalogue adds work without legal benefit."}},
	}
}

// Failed returns a run with a failed node (the judge gave no valid JSON) and
// a debater missing from a step.
func Failed() *tree.Run {
	run := baseRun(3)
	root := node(tree.RootID, "Adopt feature flags as a managed service or build them in-house?", tree.Split, "2 divergences remain")
	root.Positions = answers("Buy: LaunchDarkly-class services cost less than one engineer-month a year.", "Build: our flags are 40 booleans; a table and a cache do it.", "Buy, but behind our own interface so that we can switch.")
	root.Rebuttals = answers("Party B underestimates targeting rules and audit logs.", "Party A overestimates the need: we have no percentage rollouts.", "Both agree an interface is needed.")
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "Wrap flags behind an internal interface", Detail: "Whatever backs it can then change."}},
		Divergences: []tree.Divergence{
			{ID: "D1", Title: "Are percentage rollouts needed within a year?", Sides: map[string]string{"party-a": "Yes, the mobile team asked.", "party-b": "No."}, Uninvolved: []string{"party-c"}},
			{ID: "D2", Title: "Total cost of ownership of building", Sides: map[string]string{"party-b": "Two weeks once.", "party-c": "Two weeks plus upkeep."}, Uninvolved: []string{"party-a"}},
		},
	}
	d1 := child(root, root.Judgment.Divergences[0], tree.Partial, "no divergence among the debaters present; missing: Party B")
	d1.Missing = []tree.Absence{{Participant: "party-b", Step: tree.StepPosition, Reason: "kimi-k2.5: 429 Too Many Requests (after 2 retries)"}}
	d1.Positions = answers("The mobile roadmap lists staged rollouts for Q3.", "", "I back Party A: staged rollouts are on the Q3 roadmap.")
	delete(d1.Models, "party-b")
	d1.Errors = []tree.NodeError{
		{Participant: "party-b", Step: tree.StepPosition, Message: "kimi-k2.5: 429 Too Many Requests (after 2 retries)"},
	}
	d1.Rebuttals = answers("Party C agrees.", "I accept the roadmap evidence.", "Agreed.")
	d1.Judgment = &tree.Judgment{Consensus: []tree.Consensus{{Point: "Percentage rollouts are needed by Q3", Detail: "The mobile roadmap lists them."}}}

	d2 := child(root, root.Judgment.Divergences[1], tree.Failed, "the judge's answer had no valid JSON after a repair and a fallback")
	d2.Positions = answers("Upkeep: SDKs for 3 languages, an admin UI, audit logs.", "Two weeks, then near zero: the table never changes.", "Upkeep is real: every new service needs the SDK.")
	d2.Rebuttals = answers("Party B ignores the admin UI.", "The admin UI is a SQL console.", "A SQL console is not an audit log.")
	d2.Errors = []tree.NodeError{
		{Participant: "reviewer", Step: tree.StepJudge, Message: "judge answer: no JSON object found"},
		{Participant: "reviewer", Step: tree.StepJudge, Message: "repair answer: divergences[0].sides: unknown party \"party-d\""},
	}
	d2.RawJudgment = "Here is my assessment:\n```json\n{\"consensus\": [], \"divergences\": [{\"id\": \"D2.1\", \"sides\": {\"party-d\": \"...\"}}]}\n```"
	run.Topics = []tree.Topic{{
		ID: "flags", Title: root.Title, Status: tree.Failed, Root: root, Fallbacks: []tree.Fallback{},
		Usage: tree.Usage{PromptTokens: 30110, CompletionTokens: 7420, Calls: 16, Failures: 4},
	}}
	run.Usage = run.Topics[0].Usage
	return settled(run)
}

// Interrupted returns a run of two topics stopped by the user: one finished,
// one with a node interrupted mid-way and one never started.
func Interrupted() *tree.Run {
	run := baseRun(3)
	run.FinishedAt = run.StartedAt.Add(95 * time.Second)
	done := node(tree.RootID, "Require code owners' approval for every merge?", tree.Converged, "no divergences: every debater agrees")
	done.Positions = answers("Yes for `infra/` and `billing/`, no elsewhere.", "Yes for `infra/` and `billing/`.", "Agreed: only the two risky folders.")
	done.Rebuttals = answers("No disagreement.", "No disagreement.", "No disagreement.")
	done.Judgment = &tree.Judgment{Consensus: []tree.Consensus{{Point: "Code owners' approval for infra/ and billing/ only", Detail: "Elsewhere one review suffices."}}}

	root := node(tree.RootID, "Monorepo or one repository per service?", tree.Split, "2 divergences remain")
	root.Positions = answers("Monorepo: atomic cross-service changes.", "Per service: independent release cadence.", "Monorepo with per-folder CI.")
	root.Rebuttals = answers("Release cadence is a CI matter, not a repository one.", "Build times grow with a monorepo.", "Per-folder CI answers build times.")
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "Cross-service changes are frequent", Detail: "About one PR in five touches two services."}},
		Divergences: []tree.Divergence{
			{ID: "D1", Title: "Do build times stay acceptable?", Sides: map[string]string{"party-b": "No.", "party-c": "Yes with per-folder CI."}, Uninvolved: []string{"party-a"}},
			{ID: "D2", Title: "Access control per service", Sides: map[string]string{"party-a": "CODEOWNERS suffices.", "party-b": "Contractors must not see all code."}, Uninvolved: []string{"party-c"}},
		},
	}
	d1 := child(root, root.Judgment.Divergences[0], tree.Interrupted, "interrupted by the user during the rebuttal step")
	d1.Positions = answers("Per-folder CI with a build cache keeps PR builds under 6 minutes at our size.", "Our largest service alone builds in 9 minutes.", "")
	d1.Models = map[string]string{"party-a": "gpt-5.2", "party-b": "kimi-k2.5"}
	d2 := child(root, root.Judgment.Divergences[1], tree.Interrupted, "interrupted by the user before the node started")
	d2.Models = map[string]string{}
	run.Topics = []tree.Topic{
		{ID: "owners", Title: done.Title, Status: tree.Converged, Root: done, Fallbacks: []tree.Fallback{}, Usage: tree.Usage{PromptTokens: 9000, CompletionTokens: 1500, Calls: 7}},
		{ID: "repo-layout", Title: root.Title, Status: tree.Interrupted, Root: root, Fallbacks: []tree.Fallback{}, Usage: tree.Usage{PromptTokens: 12000, CompletionTokens: 2100, Calls: 9}},
	}
	run.Usage = run.Topics[0].Usage.Add(run.Topics[1].Usage)
	return settled(run)
}

// Chinese returns a run in Chinese that split once and ended in a forced verdict.
func Chinese() *tree.Run {
	run := baseRun(2)
	run.Language = "zh"
	// Shared documents, to which the judge proposed no edit.
	run.Documents = []string{"docs/架构决策.md"}
	run.Debaters = []tree.Participant{
		{ID: "party-a", Label: "方 A", Model: "gpt-5.2"},
		{ID: "party-b", Label: "方 B", Model: "kimi-k2.5"},
		{ID: "party-c", Label: "方 C", Model: "gemini-3.1-pro-preview", Fallback: "claude-sonnet-4-6"},
	}
	run.Judge = tree.Participant{ID: "reviewer", Label: "裁判", Model: "qwen3.5-plus"}
	root := node(tree.RootID, "议题 6：是否将消息队列从 RabbitMQ 迁移到 Kafka？", tree.Split, "仍有 2 个分歧")
	root.Positions = answers(
		"建议迁移。我们的事件量已达每秒 2 万条，RabbitMQ 集群在高峰期出现积压。\n\n## 理由\n\n1. Kafka 支持按分区水平扩展；\n2. 消息可回放，便于补数据。",
		"反对迁移。积压的根因是消费者处理慢，而不是队列本身；先优化消费者。",
		"折中：新的事件流（埋点、审计）走 Kafka，现有的任务队列继续用 RabbitMQ。",
	)
	root.Rebuttals = answers(
		"方 B 的根因分析有道理，但回放能力仍是 RabbitMQ 缺少的。",
		"方 C 的折中可以接受，但会带来两套运维。",
		"两套运维的成本可以通过托管服务降低。",
	)
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "高峰积压的直接原因是消费者处理慢", Detail: "无论是否迁移，都应先优化消费者。"}},
		Divergences: []tree.Divergence{
			{ID: "D1", Title: "是否需要消息回放能力", Sides: map[string]string{"party-a": "需要，用于补数据。", "party-b": "可以用数据库重放代替。"}, Uninvolved: []string{"party-c"}},
			{ID: "D2", Title: "两套消息系统的运维成本", Sides: map[string]string{"party-b": "成本翻倍。", "party-c": "托管服务可以降低成本。"}, Uninvolved: []string{"party-a"}},
		},
	}
	d1 := child(root, root.Judgment.Divergences[0], tree.Converged, "已无分歧")
	d1.Positions = answers("过去一年有 4 次需要补数据，每次都靠手写脚本。", "我修正立场：回放确实比数据库重放更可靠。", "我支持方 A：回放能力值得引入。")
	d1.Rebuttals = answers("同意。", "同意。", "同意。")
	d1.Judgment = &tree.Judgment{Consensus: []tree.Consensus{{Point: "需要消息回放能力", Detail: "至少用于埋点与审计事件。"}}}
	d2 := child(root, root.Judgment.Divergences[1], tree.Forced, "达到最大轮数 2：强制裁决")
	d2.Positions = answers("我倾向方 C：托管 Kafka 的运维成本可控。", "两套系统意味着两套监控、告警和值班手册。", "托管服务把大部分运维交给云厂商。")
	d2.Rebuttals = answers("方 B 的监控问题可以用统一的可观测平台解决。", "仍需两套值班知识。", "接受，但成本远低于翻倍。")
	d2.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{},
		Divergences: []tree.Divergence{
			{ID: "V1", Title: "是否接受两套消息系统并存", Sides: map[string]string{"party-b": "不接受。", "party-c": "接受。"}, Uninvolved: []string{"party-a"}},
		},
		ForcedVerdicts: []tree.Verdict{{DivergenceID: "V1", Recommendation: "接受并存，新事件流使用托管 Kafka，一年后评估是否迁移任务队列。", Reasoning: "托管服务降低了运维成本，而回放能力已被认定为必要。"}},
	}
	run.Topics = []tree.Topic{{
		ID: "6", Title: root.Title, Status: tree.Forced, Root: root, Fallbacks: []tree.Fallback{},
		Background: "当前使用自建 RabbitMQ 集群（3 节点）。",
		Usage:      tree.Usage{PromptTokens: 40200, CompletionTokens: 9800, Calls: 15},
	}}
	run.Usage = run.Topics[0].Usage
	return settled(run)
}

// EveryStatus returns a run whose one topic has a node of every status —
// split, converged, forced, failed and interrupted — a fallback, and model
// text that looks like markup: a Rust type, an HTML tag, a javascript: link
// and a script.
func EveryStatus() *tree.Run {
	run := baseRun(3)
	root := node(tree.RootID, "Return Vec<String> or an iterator from the parser's public API?", tree.Split, "4 divergences: split into child debates")
	root.Positions = answers(
		"Return `Vec<String>`, not `Option<Box<dyn Error>>`: callers collect anyway. Plain text Vec<String> too.",
		"An iterator. Allocation is the caller's choice; <b>x</b> is how the old docs put it in bold.",
		"Either, but [see the docs](javascript:alert(1)) and [the RFC](https://example.org/rfc).\n\n<script>alert(2)</script>",
	)
	root.Rebuttals = answers("Iterators leak lifetimes into the API.", "Collecting is one call.", "Both are fine behind a trait.")
	root.Judgment = &tree.Judgment{
		Consensus: []tree.Consensus{{Point: "Errors stay typed", Detail: "No `Box<dyn Error>` in the public API."}},
		Divergences: []tree.Divergence{
			{ID: "D1", Title: "Is allocation on every call acceptable?", Sides: map[string]string{"party-a": "Yes.", "party-b": "No."}},
			{ID: "D2", Title: "Should the API expose lifetimes?", Sides: map[string]string{"party-a": "No.", "party-b": "Yes."}},
			{ID: "D3", Title: "Keep a compatibility shim for v1 callers?", Sides: map[string]string{"party-b": "No.", "party-c": "Yes."}},
			{ID: "D4", Title: "Where should the trait live?", Sides: map[string]string{"party-a": "In core.", "party-c": "In a new crate."}},
		},
	}
	d1 := child(root, root.Judgment.Divergences[0], tree.Converged, "all debaters agreed")
	d1.Positions = answers("Benchmarks show 2% overhead.", "Acceptable at 2%.", "Agreed.")
	d1.Rebuttals = answers("Agreed.", "Agreed.", "Agreed.")
	d1.Judgment = &tree.Judgment{Consensus: []tree.Consensus{{Point: "Allocation per call is acceptable", Detail: "2% overhead measured."}}}

	d2 := child(root, root.Judgment.Divergences[1], tree.Forced, "round limit 2 reached: verdicts forced")
	d2.Positions = answers("Lifetimes make the API hard to use.", "Lifetimes avoid copies.", "Hide them behind owned types.")
	d2.Models["party-c"] = partyC.Fallback
	d2.RebuttalModels["party-c"] = partyC.Fallback
	d2.Rebuttals = answers("Copies are cheap here.", "Not for 1 GB inputs.", "Offer both.")
	d2.Judgment = &tree.Judgment{
		Divergences:    []tree.Divergence{{ID: "D2.1", Title: "Lifetimes in the API", Sides: map[string]string{"party-a": "No.", "party-b": "Yes."}}},
		ForcedVerdicts: []tree.Verdict{{DivergenceID: "D2.1", Recommendation: "Owned types in the API; a borrowing variant behind a feature flag.", Reasoning: "Most callers parse small inputs."}},
	}

	d3 := child(root, root.Judgment.Divergences[2], tree.Failed, "no debater answered the position step")
	d3.Errors = []tree.NodeError{
		{Participant: "party-a", Step: tree.StepPosition, Message: "gpt-5.2: 503 Service Unavailable (after 2 retries)"},
		{Participant: "party-b", Step: tree.StepPosition, Message: "kimi-k2.5: 503 Service Unavailable (after 2 retries)"},
		{Participant: "party-c", Step: tree.StepPosition, Message: "claude-sonnet-4-6: 503 Service Unavailable (after 2 retries)"},
	}

	d4 := child(root, root.Judgment.Divergences[3], tree.Split, "1 divergence: split into child debates")
	d4.Positions = answers("Core keeps one dependency.", "No opinion.", "A crate lets it version alone.")
	d4.Rebuttals = answers("Versioning alone splits the docs.", "No opinion.", "Docs can link.")
	d4.Judgment = &tree.Judgment{Divergences: []tree.Divergence{{ID: "D4.1", Title: "Does a separate crate split the docs?", Sides: map[string]string{"party-a": "Yes.", "party-c": "No."}}}}
	d41 := child(d4, d4.Judgment.Divergences[0], tree.Interrupted, "")
	d41.Positions = answers("It does: two docs.rs pages.", "", "")

	run.Topics = []tree.Topic{{
		ID: "parser-api", Title: root.Title, Status: tree.Failed, Root: root,
		Fallbacks: []tree.Fallback{{Participant: "party-c", From: partyC.Model, To: partyC.Fallback, Node: "d2", Reason: "2 failed attempts, last 503"}},
		Usage:     tree.Usage{PromptTokens: 41200, CompletionTokens: 9800, Calls: 31, Failures: 7},
		StartedAt: run.StartedAt, FinishedAt: run.StartedAt.Add(3*time.Minute + 5*time.Second),
	}}
	run.Usage = run.Topics[0].Usage
	return settled(run)
}
