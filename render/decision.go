package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	gmtext "github.com/yuin/goldmark/text"

	"github.com/debatehq/debate/tree"
)

// decisionWords are the sentences of a topic's decision paragraph in one
// language.
type decisionWords struct {
	heading     string
	headingList string
	statistics  string
	colVerdicts string
	missingFmt  func(missing int) string // count, after the count given
	droppedFmt  func(dropped int) string // count, after the count given
	outcomes    map[tree.Outcome]string
	causes      map[tree.Cause]string
	agreedFmt   func(points int) string // consensus points
	byJudge     string
	byPanel     string
	settledFmt  func(by string, count int, verdicts string) string // who, count of verdicts
	splitFmt    func(count int, divergences string) string         // count
	noVerdict   func(missing, of int, divergences string) string   // count missing, count of divergences
	dropped     func(dropped, of int, divergences string) string   // count dropped, count of divergences
	failedFmt   func(node, reason string) string                   // node, stop reason
	interrupted string
	partialFmt  func(names string) string       // names
	budgetFmt   func(nodes string) string       // nodes
	disputedFmt func(divergences string) string // list
	overLimit   string
	none        string
	listSep     string
	end         string
}

var decisionEnglish = decisionWords{
	heading:     "Decision",
	headingList: "Decisions",
	statistics:  "Statistics",
	colVerdicts: "Verdicts",
	missingFmt:  func(missing int) string { return fmt.Sprintf(" + %d missing", missing) },
	droppedFmt:  func(dropped int) string { return fmt.Sprintf(" + %d dropped by the order check", dropped) },
	outcomes: map[tree.Outcome]string{tree.Agreed: "agreed", tree.Decided: "decided",
		tree.Divided: "split", tree.Undecided: "undecided"},
	causes: map[tree.Cause]string{tree.CauseFailed: "failed", tree.CauseInterrupted: "interrupted",
		tree.CausePartial: "partial", tree.CauseNoVerdict: "no-verdict", tree.CauseBudget: "budget"},
	agreedFmt: func(points int) string {
		return fmt.Sprintf("The debaters agreed on every point (consensus points: %d); nothing stays in dispute", points)
	},
	byJudge: "the judge's forced verdicts",
	byPanel: "the panel's majority votes",
	settledFmt: func(by string, count int, verdicts string) string {
		return fmt.Sprintf("Settled by %s (%d): %s", by, count, verdicts)
	},
	splitFmt: func(count int, divergences string) string {
		return fmt.Sprintf("No majority, or a verdict that changed with the order of the sides (%d): %s", count, divergences)
	},
	noVerdict: func(missing, of int, divergences string) string {
		return fmt.Sprintf("The judge gave no verdict, even after repair, on %d of %d forced divergences: %s", missing, of, divergences)
	},
	dropped: func(dropped, of int, divergences string) string {
		return fmt.Sprintf("The order check dropped the verdict on %d of %d forced divergences: the judge gave none when asked again with the sides reversed: %s", dropped, of, divergences)
	},
	failedFmt: func(node, reason string) string {
		return fmt.Sprintf("Node %s failed (%s); the debate stopped there", node, reason)
	},
	interrupted: "The run was stopped before this topic ended",
	partialFmt: func(names string) string {
		return fmt.Sprintf("Debaters were missing from a step (%s), so no agreement can be claimed", names)
	},
	budgetFmt: func(nodes string) string {
		return fmt.Sprintf("The run's budget forced verdicts before the round limit at %s", nodes)
	},
	disputedFmt: func(divergences string) string { return fmt.Sprintf("Still in dispute: %s", divergences) },
	overLimit:   "beyond params.maxDivergences, not debated",
	none:        "none",
	listSep:     "; ",
	end:         ".",
}

var decisionChinese = decisionWords{
	heading:     "决定",
	headingList: "各议题的决定",
	statistics:  "统计",
	colVerdicts: "裁决",
	missingFmt:  func(missing int) string { return fmt.Sprintf(" + 缺失 %d", missing) },
	droppedFmt:  func(dropped int) string { return fmt.Sprintf(" + 被顺序检查舍弃 %d", dropped) },
	outcomes: map[tree.Outcome]string{tree.Agreed: "一致", tree.Decided: "已裁决",
		tree.Divided: "分裂", tree.Undecided: "未决"},
	causes: map[tree.Cause]string{tree.CauseFailed: "失败", tree.CauseInterrupted: "中断",
		tree.CausePartial: "缺席", tree.CauseNoVerdict: "无裁决", tree.CauseBudget: "预算"},
	agreedFmt: func(points int) string {
		return fmt.Sprintf("辩手在所有要点上达成一致（共识 %d 条），没有遗留争议", points)
	},
	byJudge: "裁判强制裁决",
	byPanel: "评审团多数票",
	settledFmt: func(by string, count int, verdicts string) string {
		return fmt.Sprintf("%s（%d 项）：%s", by, count, verdicts)
	},
	splitFmt: func(count int, divergences string) string {
		return fmt.Sprintf("评审团在 %d 个分歧上未形成多数，或裁决随双方顺序改变：%s", count, divergences)
	},
	noVerdict: func(missing, of int, divergences string) string {
		return fmt.Sprintf("裁判在 %d 个分歧（共 %d 个）上即使修复后仍未给出裁决：%s", missing, of, divergences)
	},
	dropped: func(dropped, of int, divergences string) string {
		return fmt.Sprintf("顺序检查舍弃了 %d 个分歧（共 %d 个）上的裁决：双方顺序对调后裁判未再给出裁决：%s", dropped, of, divergences)
	},
	failedFmt: func(node, reason string) string {
		return fmt.Sprintf("节点 %s 失败（%s），辩论在此停止", node, reason)
	},
	interrupted: "运行在本议题结束前被中止",
	partialFmt: func(names string) string {
		return fmt.Sprintf("有辩手缺席某一步骤（%s），不能称为一致", names)
	},
	budgetFmt: func(nodes string) string {
		return fmt.Sprintf("运行预算在轮数上限之前强制裁决于 %s", nodes)
	},
	disputedFmt: func(divergences string) string { return fmt.Sprintf("仍有争议：%s", divergences) },
	overLimit:   "超出 params.maxDivergences，未辩论",
	none:        "无",
	listSep:     "；",
	end:         "。",
}

// decisionWords returns the decision sentences in the report's language.
func (r *report) decisionWords() *decisionWords {
	return r.w.decision
}

// topicDecision returns a topic's decision, cause and verdict counts, worked
// out from its tree when the topic does not carry them.
func topicDecision(t *tree.Topic) (tree.Outcome, tree.Cause, tree.VerdictCount) {
	if t.Decision != "" {
		return t.Decision, t.Cause, t.Verdicts
	}
	o, c := t.Decide()
	return o, c, t.Root.CountVerdicts()
}

// decisionWord is the decision in a word or two, with its cause.
func (r *report) decisionWord(t *tree.Topic) string {
	dw := r.decisionWords()
	o, c, _ := topicDecision(t)
	s := dw.outcomes[o]
	if c != "" {
		s += " (" + dw.causes[c] + ")"
	}
	return s
}

// DecisionPlain says in the run's language what a topic decided and how
// (agreement, the judge's verdicts, a panel's votes), and what stays in
// dispute, as plain text without Markdown: the paragraph that opens its
// report, without the decision word, for CI annotations.
func DecisionPlain(run *tree.Run, t *tree.Topic) string {
	r := &report{run: run, w: wordsFor(run)}
	return r.decisionPlain(t)
}

// decisionPlain is decisionSentences as plain text.
func (r *report) decisionPlain(t *tree.Topic) string { return plain(r.decisionSentences(t)) }

// plain returns inline Markdown as the text it shows, without its markup.
func plain(md string) string {
	src := []byte(md)
	return string(plainText(markdown.Parser().Parse(gmtext.NewReader(src)), src))
}

// decisionParagraph is the paragraph that opens a topic's report: the
// decision in bold, then its sentences.
func (r *report) decisionParagraph(t *tree.Topic) string {
	return fmt.Sprintf("**%s%s%s** — %s", r.decisionWords().heading, r.w.colonSep, r.decisionWord(t), r.decisionSentences(t))
}

// decisionSentences says what was decided and how, and what stays in
// dispute.
func (r *report) decisionSentences(t *tree.Topic) string {
	dw := r.decisionWords()
	o, c, _ := topicDecision(t)
	var given, split, missing, dropped, over []string
	panel := false
	for _, v := range t.Root.AllVerdicts() {
		title := "*" + inlineText(cmp.Or(v.Divergence.Title, v.DivergenceID)) + "*"
		panel = panel || len(v.Votes) > 0
		switch {
		case v.OverLimit:
			over = append(over, title+" ("+dw.overLimit+")")
		case v.OrderCheckDropped():
			dropped = append(dropped, title)
		case v.Missing:
			missing = append(missing, title)
		case v.Split || v.Unstable:
			split = append(split, title)
		default:
			given = append(given, title+r.w.colonSep+inlineText(strings.TrimRight(shorten(v.Recommendation, 160), ".。")))
		}
	}
	var s []string
	switch c {
	case tree.CauseFailed:
		s = append(s, r.failedSentence(t.Root))
	case tree.CauseInterrupted:
		s = append(s, dw.interrupted)
	case tree.CausePartial:
		s = append(s, dw.partialFmt(r.missingNames(t.Root)))
	case tree.CauseNoVerdict:
		all := len(given) + len(split) + len(missing) + len(dropped)
		if len(missing) > 0 {
			s = append(s, dw.noVerdict(len(missing), all, strings.Join(missing, dw.listSep)))
		}
		if len(dropped) > 0 {
			s = append(s, dw.dropped(len(dropped), all, strings.Join(dropped, dw.listSep)))
		}
		missing, dropped = nil, nil
	case tree.CauseBudget:
		s = append(s, dw.budgetFmt(budgetNodes(t.Root)))
	}
	if o == tree.Agreed {
		s = append(s, dw.agreedFmt(t.Root.Stats().Consensus))
	}
	if len(given) > 0 {
		by := dw.byJudge
		if panel {
			by = dw.byPanel
		}
		s = append(s, dw.settledFmt(by, len(given), strings.Join(given, dw.listSep)))
	}
	if len(split) > 0 {
		s = append(s, dw.splitFmt(len(split), strings.Join(split, dw.listSep)))
	}
	if open := append(append(missing, dropped...), over...); len(open) > 0 {
		s = append(s, dw.disputedFmt(strings.Join(open, dw.listSep)))
	}
	return strings.Join(s, dw.end+" ") + dw.end
}

// failedSentence names the first failed node and why it failed.
func (r *report) failedSentence(root *tree.Node) string {
	var failed *tree.Node
	root.Walk(func(n *tree.Node) {
		if failed == nil && n.Status == tree.Failed {
			failed = n
		}
	})
	if failed == nil {
		return r.decisionWords().interrupted
	}
	return r.decisionWords().failedFmt(inlineText(failed.ID), inlineText(shorten(r.w.say(failed.Because, failed.StopReason), 160)))
}

// missingNames lists the debaters missing from a step anywhere in the tree,
// each once, in the order first met.
func (r *report) missingNames(root *tree.Node) string {
	var names []string
	root.Walk(func(n *tree.Node) {
		for _, a := range n.Missing {
			if name := inlineText(r.name(a.Participant)); !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	})
	if len(names) == 0 {
		return r.decisionWords().none
	}
	return strings.Join(names, ", ")
}

// budgetNodes lists the nodes whose verdicts the budget forced.
func budgetNodes(root *tree.Node) string {
	var ids []string
	root.Walk(func(n *tree.Node) {
		if n.Budget {
			ids = append(ids, inlineText(n.ID))
		}
	})
	return strings.Join(ids, ", ")
}

// decisions writes the summary's opening: the count of topics per decision,
// then one line per topic with its decision and what it decided.
func (r *report) decisionList() {
	dw := r.decisionWords()
	r.printf("## %s\n\n", dw.headingList)
	counts := map[tree.Outcome]int{}
	for i := range r.run.Topics {
		o, _, _ := topicDecision(&r.run.Topics[i])
		counts[o]++
	}
	var parts []string
	for _, o := range tree.Outcomes {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], dw.outcomes[o]))
		}
	}
	r.printf("%s\n\n", strings.Join(parts, " · "))
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		r.printf("- **%s** · %s%s%s — %s\n", r.decisionWord(t), inlineText(t.ID), r.w.colonSep,
			r.reportLink(t.ID, inlineText(t.Title)), r.decisionSentences(t))
	}
	r.b.WriteString("\n")
}

// verdictCell counts the verdicts given, then those the judge did not give
// and those the order check dropped, each apart: a verdict missing is never
// counted as given. dropped is the part of v.Missing the order check
// dropped.
func (r *report) verdictCell(v tree.VerdictCount, dropped int) string {
	dw := r.decisionWords()
	s := fmt.Sprint(v.Given)
	if missing := v.Missing - dropped; missing > 0 {
		s += dw.missingFmt(missing)
	}
	if dropped > 0 {
		s += dw.droppedFmt(dropped)
	}
	return s
}

// OrderCheckDropped counts the verdicts of t that the order check dropped:
// missing, though the judge answered, because it gave none when asked
// again with the sides reversed. They are counted among the topic's
// missing verdicts.
func OrderCheckDropped(t *tree.Topic) int {
	if t.Root == nil {
		return 0
	}
	n := 0
	for _, v := range t.Root.AllVerdicts() {
		if v.OrderCheckDropped() {
			n++
		}
	}
	return n
}
