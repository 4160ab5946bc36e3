package render

import (
	"fmt"
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/tree"
)

// Motion renders a motion of a run, a protocol debate played in batch: the
// argument tree and state timeline of Arguments, with the run's facts added
// to its header — the motion's id, each role with its model, how the debate
// ended, the turns used, the documents and the tokens spent — and the errors
// the motion met.
func Motion(run *tree.Run, m *tree.Motion) []byte {
	doc := motionDoc(run, m)
	if run != nil && run.Demo {
		// Under the title, as a topic report says it; MotionHTML says it
		// in its own banner.
		title, rest, _ := strings.Cut(doc.head, "\n\n")
		doc.head = title + "\n\n> **" + wordsFor(run).demo + "**\n\n" + rest
	}
	return []byte(visible(doc.markdown()))
}

// MotionHTML returns the HTML page of a motion: Motion's report, with the
// motion's status as a badge under its title and each argument in a section
// coloured, like a topic page's nodes, by what it did to the debate, the
// reasoning a model gave with an argument folded under that argument, as
// TopicHTML folds it under an answer. Like HTML it is self-contained, runs
// no script and loads nothing.
func MotionHTML(run *tree.Run, m *tree.Motion) ([]byte, error) {
	doc := motionDoc(run, m)
	reasoning := make(map[string]string, len(m.Arguments))
	for _, a := range m.Arguments {
		reasoning[a.ID] = a.Reasoning
	}
	p := newPage(run)
	w := p.r.w
	markdown := func(s string) template.HTML { return p.md(func(r *report) { r.b.WriteString(s) }) }
	title, head, _ := strings.Cut(doc.head, "\n")
	body := motionBody{
		Title: markdown(title),
		Badges: []legendKey{
			{Class: statusClass(m.Status), Word: w.motionStatus(m.Status)},
			{Class: stateClass(protocol.State(m.State), m.Status), Word: w.stateWord(protocol.State(m.State))},
		},
		Head: markdown(head),
		Tree: markdown(doc.tree),
	}
	for _, s := range doc.args {
		body.Args = append(body.Args, argView{
			Open: markdown(s.open), Class: stateClass(s.a.StateAfter, m.Status), Anchor: argAnchor(s.a.Seq),
			Heading: visible(argHeading(s.a.Seq, string(s.a.Type), string(s.a.Role))),
			State:   w.stateWord(s.a.StateAfter), Body: markdown(s.md), Reasoning: p.reasoning(reasoning[s.a.ID]),
		})
	}
	body.Timeline = markdown(doc.timeline)
	return p.finish(m.Title, "motion", body)
}

// motionBody is the body of a motion's page.
type motionBody struct {
	Title, Head, Tree, Timeline template.HTML
	Badges                      []legendKey // how the motion ended, where the debate stands
	Args                        []argView
}

// argView is an argument's section.
type argView struct {
	Open           template.HTML // the Markdown before the section
	Class, Anchor  string
	Heading, State string
	Body           template.HTML
	Reasoning      *reasoningView
}

// stateClass returns the status class whose colour a debate state takes on
// a motion's page: an open debate (a debater's turn) is split, one waiting
// for the arbitrator is forced, and a closed one takes the colour of how
// the motion ended.
func stateClass(s protocol.State, ended tree.Status) string {
	switch s {
	case protocol.AwaitingOpponent, protocol.AwaitingProposer:
		return statusClass(tree.Split)
	case protocol.AwaitingArbitrator, protocol.InterventionPending:
		return statusClass(tree.Forced)
	case protocol.Closed:
		return statusClass(ended)
	}
	return statusClass(tree.Pending)
}

// motionDoc is the Markdown of a motion's report in parts: the debate's
// argument tree and timeline, the run's facts and the errors added to its
// header, in the run's language.
func motionDoc(run *tree.Run, m *tree.Motion) argDoc {
	w := wordsFor(run)
	d, args := MotionDebate(m)
	doc := argumentsDoc(d, args, w)
	var h strings.Builder
	item := func(label, value string) { fmt.Fprintf(&h, "%s\n", headerItem(w, label, value)) }
	item(w.motion, inlineText(m.ID))
	for _, r := range []struct {
		role protocol.Role
		p    tree.Participant
	}{{protocol.Proposer, m.Proposer}, {protocol.Opponent, m.Opponent}, {protocol.Arbitrator, m.Arbitrator}} {
		item(upperFirst(w.roleWord(r.role)), roleModel(w, r.p, m.Fallbacks))
	}
	item(w.status, w.motionStatus(m.Status)+" — "+inlineText(w.say(m.Because, m.StopReason)))
	item(w.turns, w.turnsFmt(m.Turns, m.MaxTurns))
	for _, doc := range m.Documents {
		item(w.document, w.documentFmt(inlineText(doc.Path), inlineText(doc.DocID), doc.Version))
	}
	u := m.Usage
	tokens := w.tokensFmt(Thousands(u.Total()), Thousands(u.PromptTokens), Thousands(u.CompletionTokens), u.Calls)
	if u.Failures > 0 {
		tokens += w.failedCallsFmt(u.Failures)
	}
	item(w.tokens, tokens)
	if u.Cost > 0 {
		item(w.cost, formatCost(u.Cost))
	}
	if run != nil && !run.StartedAt.IsZero() {
		item(w.runStarted, argTime(run.StartedAt))
	}

	// The run's facts go after the debate's own header lines.
	if len(m.Errors) > 0 {
		fmt.Fprintf(&h, "\n## %s\n\n", w.otherErrors)
		for _, e := range m.Errors {
			fmt.Fprintf(&h, "- %s\n", w.motionErrorFmt(w.roleWord(protocol.Role(e.Role)), e.Turn, inlineText(w.say(e.Because, e.Message))))
			if strings.TrimSpace(e.Raw) != "" {
				h.WriteString("\n" + strings.TrimRight(indentLines(fenced("", e.Raw), "  "), "\n") + "\n")
			}
		}
	}
	doc.head += h.String()
	return doc
}

// MotionDebate returns a motion's debate and arguments as protocol values.
func MotionDebate(m *tree.Motion) (protocol.Debate, []protocol.Argument) {
	d := protocol.Debate{
		ID: m.DebateID, Title: m.Title, Type: protocol.DebateType(m.DebateType),
		State: protocol.State(m.State), CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt,
	}
	args := make([]protocol.Argument, len(m.Arguments))
	for i, a := range m.Arguments {
		args[i] = protocol.Argument{
			ID: a.ID, DebateID: m.DebateID, ParentID: a.ParentID, Type: protocol.ArgType(a.Type),
			Role: protocol.Role(a.Role), Content: a.Content, Seq: a.Seq,
			StateAfter: protocol.State(a.StateAfter), CreatedAt: a.Time,
		}
	}
	return d, args
}

// roleModel names a role's model and any fallback it switched to.
func roleModel(w *words, p tree.Participant, fbs []tree.Fallback) string {
	if p.Model == "" {
		return "—"
	}
	s := inlineText(p.Model)
	if p.Model == tree.HumanModel {
		s = w.human
	}
	for _, f := range fbs {
		if f.Participant == p.ID {
			s = fmt.Sprintf("%s (%s)", inlineText(f.To), w.fellBackFrom(inlineText(f.From)))
		}
	}
	return s
}

func indentLines(s, pad string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// motions writes the summary's motions section: one table row per motion
// and each motion's outcome. It writes nothing for a run without motions.
func (r *report) motions() {
	if len(r.run.Motions) == 0 {
		return
	}
	w := r.w
	r.printf("## %s\n\n", w.motionsHeading)
	r.printf("| %s |\n|---|---|---|---|--:|--:|--:|--:|\n", strings.Join([]string{w.colID, w.colMotion, w.colStatus, w.colState,
		w.colTurns, w.colArguments, w.colTokens, w.colCost}, " | "))
	var usage tree.Usage
	for i := range r.run.Motions {
		m := &r.run.Motions[i]
		usage = usage.Add(m.Usage)
		r.printf("| %s | %s | %s | %s | %d | %d | %s | %s |\n", inlineText(m.ID), r.reportLink(m.ID, inlineText(m.Title)), w.motionStatus(m.Status),
			w.stateWord(protocol.State(m.State)), m.Turns, len(m.Arguments), Thousands(m.Usage.Total()), CostText(m.Usage.Cost))
	}
	if len(r.run.Motions) > 1 {
		r.printf("| **%s** | | | | | | %s | %s |\n", w.total, Thousands(usage.Total()), CostText(usage.Cost))
	}
	r.b.WriteString("\n")
	for i := range r.run.Motions {
		m := &r.run.Motions[i]
		r.printf("### %s%s%s — %s\n\n", inlineText(m.ID), w.colonSep, r.reportLink(m.ID, inlineText(m.Title)), w.motionStatus(m.Status))
		r.printf("%s\n\n", w.motionDebate(inlineText(upperFirst(w.say(m.Because, m.StopReason))), inlineText(m.DebateID)))
		if last := outcome(m); last != nil {
			r.printf("**%s%s**\n\n", w.finalWord(last.Seq, inlineText(last.Type), w.roleWord(protocol.Role(last.Role))), w.colon)
			r.block(last.Content, 3)
		}
	}
}

// outcome is the argument that settled a closed motion: the proposer's
// RESOLUTION, or the arbitrator's closing RULING.
func outcome(m *tree.Motion) *tree.MotionArgument {
	n := len(m.Arguments)
	if m.State != string(protocol.Closed) || n == 0 {
		return nil
	}
	if n >= 2 && m.Arguments[n-2].Type == string(protocol.Resolution) {
		return &m.Arguments[n-2]
	}
	return &m.Arguments[n-1]
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	c, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(c)) + s[n:]
}
