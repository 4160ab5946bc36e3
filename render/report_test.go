package render

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

func TestReportsGolden(t *testing.T) {
	for _, f := range rendertest.Fixtures() {
		t.Run(f.Name, func(t *testing.T) {
			reports, pages := map[string]string{}, map[string]string{}
			for i := range f.Run.Topics {
				topic := &f.Run.Topics[i]
				reports[topic.ID], pages[topic.ID] = "topic-"+topic.ID+".md", "topic-"+topic.ID+".html"
				base := filepath.Join("testdata", "report_"+f.Name+"_"+topic.ID)
				md := Topic(f.Run, topic)
				golden.Assert(t, base+".md", md)
				golden.Assert(t, base+".mermaid", []byte(Mermaid(topic.Root)))
				golden.Assert(t, base+".tree.txt", []byte(TextTree(topic.Root)))
				page, err := TopicHTML(f.Run, topic)
				if err != nil {
					t.Fatal(err)
				}
				golden.Assert(t, base+".html", page)
			}
			sum := Summary(f.Run, reports)
			golden.Assert(t, filepath.Join("testdata", "report_"+f.Name+"_summary.md"), sum)
			page, err := SummaryHTML(f.Run, pages)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", "report_"+f.Name+"_summary.html"), page)
		})
	}
}

// TestReportsStable renders each fixture many times: map iteration order must
// never show in the output.
func TestReportsStable(t *testing.T) {
	for _, f := range rendertest.Fixtures() {
		first := Summary(f.Run, nil)
		firstTopic := Topic(f.Run, &f.Run.Topics[0])
		for range 20 {
			if !bytes.Equal(first, Summary(f.Run, nil)) || !bytes.Equal(firstTopic, Topic(f.Run, &f.Run.Topics[0])) {
				t.Fatalf("%s: output differs between two renders of the same run", f.Name)
			}
		}
	}
}

// TestTopicShows checks what each situation must make visible, independent of
// the golden files' exact layout.
func TestTopicShows(t *testing.T) {
	tests := []struct {
		fixture string
		topic   int
		has     []string
		hasNot  []string
	}{
		{"converged", 0, []string{
			"# Topic pagination: ",
			"> - **Date:** 2026-03-14 09:30 UTC (duration 2m10s)",
			"Party A — gpt-5.2; Party B — kimi-k2.5; Party C — gemini-3.1-pro-preview",
			"> - **Judge:** Judge — qwen3.5-plus",
			"> - **Depth reached:** 0 (round 1)",
			"> - **Tokens:** 22,335 (prompt 18,230, completion 4,105) in 7 calls",
			"> - **Status:** converged ✓",
			"## Round 1 — root (converged ✓)",
			"### Positions", "#### Party A — gpt-5.2", "#### Rebuttal by Party C",
			"##### Proposal", "##### Risks", "##### Setext headings must be demoted too",
			"## Conclusion", "- **Move unbounded list endpoints to opaque cursors** — ", "*(root)*",
			"```mermaid\ngraph TD\n", "```text\nroot — ",
		}, []string{"\n# Risks", "\n## Proposal", "\n===\n", "> - **Cost:**"}},
		{"forced", 0, []string{
			"Party C — claude-sonnet-4-6 (fell back from gemini-3.1-pro-preview at d2: 2 consecutive failures: 503 Service Unavailable)",
			"#### Party C — claude-sonnet-4-6 (fell back from gemini-3.1-pro-preview)",
			"#### Party C — gemini-3.1-pro-preview\n",
			"> - **Cost:** 0.8734",
			"## Round 2 — divergence d1: Operational cost of running two PostgreSQL clusters vs one CockroachDB cluster (converged ✓)",
			"## Round 3 — divergence d2.1: Latency budget for cross-region reads of shared tables (forced verdict)",
			"### Judge's forced verdict",
			"1. **d1: Operational cost of running two PostgreSQL clusters vs one CockroachDB cluster** — Party B vs Party C (uninvolved: Party A)",
			"   - Party B: Two clusters double on-call and migrations.",
			"   - **Recommendation:** Replicate custom prices to the EU cluster with logical replication.",
			"*Sides: Party A vs Party B. Uninvolved: Party C.*",
			"# this is not a heading, it is inside code",
			"an unclosed fence in a model answer must not swallow the report\n```\n",
			"### Synthesis", "#### What to do",
			"- **Replicate custom prices to the EU or read them cross-region** *(d2.1)*: Replicate custom prices",
		}, []string{"##### this is not a heading"}},
		{"failed", 0, []string{
			"## Round 2 — divergence d2: Total cost of ownership of building (failed)",
			"#### Party B — kimi-k2.5\n\n> ⚠ No position — kimi-k2.5: 429 Too Many Requests (after 2 retries)",
			"**Judge errors:**", "- judge answer: no JSON object found",
			"The judge's raw answer (not valid):",
			"**Status:** failed — the judge's answer had no valid JSON after a repair and a fallback",
			"> - **Status:** failed",
			"> - **Tokens:** 37,530 (prompt 30,110, completion 7,420) in 16 calls, 4 failed",
		}, nil},
		{"interrupted", 1, []string{
			"## Round 2 — divergence d1: Do build times stay acceptable? (interrupted)",
			"**Status:** interrupted — interrupted by the user during the rebuttal step",
			"### Rebuttals\n\n*Not reached.*",
			"## Round 2 — divergence d2: Access control per service (interrupted)",
			"### Positions\n\n*Not reached.*",
			"> - **Status:** interrupted",
			"#### Party C — gemini-3.1-pro-preview\n\n> ⚠ No position — interrupted",
		}, nil},
		{"chinese", 0, []string{
			"# 辩题 6：议题 6：是否将消息队列从 RabbitMQ 迁移到 Kafka？",
			"> - **日期：**", "> - **参与模型：** 方 A — gpt-5.2", "> - **评审模型：** 裁判 — qwen3.5-plus",
			"> - **最大轮数：** 2", "> - **实际深度：** 1（第 2 轮）",
			"## 第 1 轮 — 根议题", "### 立场", "#### 方 A — gpt-5.2", "### 反驳", "#### 方 A 的反驳", "### 裁判搜集",
			"**合意：**", "**分歧 (2 个)：**", "(未站队：方 C)",
			"## 第 2 轮 — 分歧 d2：两套消息系统的运维成本 (强制裁决)", "### 裁判强制裁决", "**裁判推荐：**", "**理由：**",
			"## 最终结论", "### 合意要点", "### 裁决要点", "### 辩论路径概览", "已收敛 ✓",
			"##### 理由",
		}, []string{"Positions", "Rebuttals", "Conclusion"}},
	}
	runs := map[string]*tree.Run{}
	for _, f := range rendertest.Fixtures() {
		runs[f.Name] = f.Run
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			run := runs[tt.fixture]
			got := string(Topic(run, &run.Topics[tt.topic]))
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("report lacks %q", s)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(got, s) {
					t.Errorf("report has %q", s)
				}
			}
		})
	}
}

func TestSummaryShows(t *testing.T) {
	tests := []struct {
		fixture string
		has     []string
	}{
		{"converged", []string{
			"# Debate summary",
			"| ID | Topic | Decision | Rounds | Consensus | Divergences | Verdicts | Failed nodes | Failed calls | Fallbacks | Tokens | Cost |",
			"| pagination | Should the public API keep offset pagination or move to cursors? | agreed | 1 | 3 | 0 | 0 | 0 | 0 | 0 | 22,335 | — |",
			"## Proposed edits to the shared documents\n\nNo edits were proposed.\n",
		}},
		{"forced", []string{
			"| billing-db | Should the billing service move from PostgreSQL to a distributed SQL database? | decided | 3 | 4 | 6 | 2 | 0 | 2 | 1 | 118,289 | 0.8734 |",
			"## Fallbacks\n\n- billing-db: Party C switched from gemini-3.1-pro-preview to claude-sonnet-4-6 at d2 — ",
			"### billing-db: Should the billing service move from PostgreSQL to a distributed SQL database? — decided\n\nStay on PostgreSQL and add an EU cluster.",
			"#### What to do",
			"## Proposed edits to the shared documents\n\n### docs/decisions.md",
		}},
		{"failed", []string{"| undecided | 2 | 2 | 2 | 0 | 1 |", "> ⚠ Incomplete: 1 failed and 0 interrupted nodes"}},
		{"interrupted", []string{
			"| owners | Require code owners' approval for every merge? | agreed | 1 |",
			"| repo-layout | Monorepo or one repository per service? | undecided | 2 | 1 | 2 | 0 | 0 | 0 | 0 | 14,100 | — |",
			"| **Total** | | | | 2 | 2 | 0 | 0 | 0 | 0 | 24,600 | — |", "No participant fell back to its fallback model.",
		}},
		{"chinese", []string{"# 辩论汇总", "| 编号 | 议题 | 决定 | 轮数 | 合意数 | 分歧数 | 裁决 |", "## 各议题结论", "## 需要更新到共享文档的内容", "未提出修改建议。"}},
	}
	runs := map[string]*tree.Run{}
	for _, f := range rendertest.Fixtures() {
		runs[f.Name] = f.Run
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got := string(Summary(runs[tt.fixture], nil))
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("summary lacks %q", s)
				}
			}
		})
	}
}

// TestTopicNeverStarted renders a topic the run stopped before its root
// began: the report and summary still say what there is.
func TestTopicNeverStarted(t *testing.T) {
	run := rendertest.Interrupted()
	run.Topics = append(run.Topics, tree.Topic{ID: "later", Title: "A topic never started", Status: tree.Interrupted})
	md := string(Topic(run, &run.Topics[2]))
	for _, want := range []string{"# Topic later: A topic never started", "> - **Status:** interrupted", "### Path overview\n\n*Not reached.*\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if sum := string(Summary(run, nil)); !strings.Contains(sum, "| later | A topic never started | undecided | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | — |") {
		t.Errorf("summary lacks the row of the topic never started:\n%s", sum)
	}
}

// TestPanelReport: a topic judged by a panel shows the panel, which alias
// stood for whom, each panel verdict's tally and votes, split and unstable
// verdicts, in Markdown and in HTML.
func TestPanelReport(t *testing.T) {
	t.Parallel()
	run := rendertest.Forced()
	run.Judges = []tree.Participant{run.Judge, {ID: "j2", Label: "Second judge", Model: "gpt-5.2"}}
	tp := &run.Topics[0]
	tp.Aliases = []tree.Alias{{Alias: "Debater 1", Participant: "party-b"}, {Alias: "Debater 2", Participant: "party-a"}}
	var verdicts []*tree.Verdict
	tp.Root.Walk(func(n *tree.Node) {
		if n.Judgment != nil {
			for i := range n.Judgment.ForcedVerdicts {
				verdicts = append(verdicts, &n.Judgment.ForcedVerdicts[i])
			}
		}
	})
	if len(verdicts) < 2 {
		t.Fatalf("the fixture has %d forced verdicts, want 2", len(verdicts))
	}
	*verdicts[0] = tree.Verdict{DivergenceID: verdicts[0].DivergenceID, Split: true, Votes: []tree.Vote{
		{Judge: run.Judge.ID, Model: "qwen3.5-plus", Status: tree.VoteCounted, Favors: "party-a", Recommendation: "Read cross-region."},
		{Judge: "j2", Model: "gpt-5.2", Status: tree.VoteCounted, Favors: "party-b", Recommendation: "Replicate."},
	}}
	v := verdicts[1]
	v.Unstable, v.Favors = true, "party-a"
	v.Votes = []tree.Vote{
		{Judge: run.Judge.ID, Model: "qwen3.5-plus", Status: tree.VoteCounted, Favors: "party-a", Recommendation: v.Recommendation},
		{Judge: "j2", Model: "gpt-5.2", Status: tree.VoteUnstable, Reason: "favoured party-a, then party-c with the sides reversed", Favors: "party-a", SwapFavors: "party-c"},
	}
	md := string(Topic(run, tp))
	page, err := TopicHTML(run, tp)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		has  []string
	}{
		{"markdown", md, []string{
			"> - **Judges:** Judge — qwen3.5-plus; Second judge — gpt-5.2",
			"> - **Blind aliases:** Debater 1 = Party B; Debater 2 = Party A",
			"**Recommendation:** ⚖ split: the judges are tied",
			"**Votes:** Party A 1, Party B 1",
			"     - Second judge — gpt-5.2: Party B — Replicate.",
			"⚠ unstable: a judge changed its choice",
			"     - Second judge — gpt-5.2: unstable — favoured party-a, then party-c with the sides reversed",
		}},
		{"html", string(page), []string{"Blind aliases", "Debater 1 = Party B", "Votes:", "⚖ split", "⚠ unstable", "Second judge — gpt-5.2"}},
	}
	for _, tt := range tests {
		for _, s := range tt.has {
			if !strings.Contains(tt.doc, s) {
				t.Errorf("%s lacks %q", tt.name, s)
			}
		}
	}
}

// TestSummaryTotalsAddUp: the topics table's last row holds the header's token
// total, for every fixture and for runs whose calls not all belong to a
// topic: the run's own (the proposed edits) and the motions' get a row each.
func TestSummaryTotalsAddUp(t *testing.T) {
	t.Parallel()
	type variant struct {
		name  string
		run   *tree.Run
		lines []string
	}
	var tests []variant
	for _, f := range rendertest.Fixtures() {
		tests = append(tests, variant{name: f.Name, run: f.Run})
	}
	edits := rendertest.Forced()
	edits.Usage.PromptTokens += 1000
	edits.Usage.CompletionTokens += 44
	tests = append(tests, variant{name: "edits", run: edits, lines: []string{
		"| | Run-level calls (proposed edits) | | | | | | | 0 | | 1,044 | — |",
		"| **Total** | | | | 4 | 6 | 2 | 0 | 2 | 1 | 119,333 | 0.8734 |",
	}})
	motions := rendertest.Converged()
	motions.Motions = motionRun().Motions
	for _, m := range motions.Motions {
		motions.Usage = motions.Usage.Add(m.Usage)
	}
	tests = append(tests, variant{name: "motions", run: motions, lines: []string{"| | Motions (see below) | | | | | | | 0 | | 30,912 | — |"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := string(Summary(tt.run, nil))
			var last string // of the first table, the topics'
			for _, l := range strings.Split(got, "\n") {
				if !strings.HasPrefix(l, "|") && last != "" {
					break
				}
				if strings.HasPrefix(l, "|") {
					last = l
				}
			}
			if want := "| " + Thousands(tt.run.Usage.Total()) + " |"; !strings.Contains(last, want) {
				t.Errorf("the table's last row %q lacks the header's total %q", last, want)
			}
			for _, l := range tt.lines {
				if !strings.Contains(got, l+"\n") {
					t.Errorf("summary lacks the row %q:\n%s", l, got)
				}
			}
		})
	}
}
