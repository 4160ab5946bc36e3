package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/debatehq/debate/protocol"
)

// argTimeLayout is how argument times appear in argument trees.
const argTimeLayout = "2006-01-02 15:04:05 UTC"

// argSummaryRunes bounds the one-line summary of an argument in the tree.
const argSummaryRunes = 100

// argMaxIndent is the deepest level the argument tree indents to: a reply
// deeper than that stays at this level, marked with the argument it
// answers, so that a long chain of replies keeps its text readable on a
// phone instead of becoming a staircase.
const argMaxIndent = 4

// Arguments renders a protocol debate as Markdown: a header with the debate's
// id, type and state; the argument tree (each argument under its parent, with
// seq, type, role, time and a one-line summary); every argument in full in seq
// order; and the state timeline. Arguments whose parent is not among args are
// shown at the top level. args need not be sorted.
// It is written in English.
func Arguments(d protocol.Debate, args []protocol.Argument) []byte {
	return []byte(visible(argumentsDoc(d, args, &english).markdown()))
}

// argDoc is the Markdown of Arguments in its parts, so that a report can add
// to its header and a page can put more under each argument.
type argDoc struct {
	head     string       // the title and the header lines
	tree     string       // the argument tree
	args     []argSection // every argument in full, in seq order
	timeline string       // the state timeline
}

// argSection is one argument in full: its heading's text and the Markdown
// under it. The first one also opens the section of the arguments (open).
type argSection struct {
	a       protocol.Argument
	open    string
	heading string
	md      string
}

// argHeading is the heading of an argument's section: its seq, type and
// role, each already in the form the page needs.
func argHeading(seq int, typ, role string) string {
	return fmt.Sprintf("#%d %s · %s", seq, typ, role)
}

// markdown is the section as the Markdown report writes it.
func (s argSection) markdown() string {
	return s.open + "\n### " + s.heading + "\n\n" + s.md
}

func (doc argDoc) markdown() string {
	var b strings.Builder
	b.WriteString(doc.head)
	b.WriteString(doc.tree)
	for _, s := range doc.args {
		b.WriteString(s.markdown())
	}
	b.WriteString(doc.timeline)
	return b.String()
}

// headerItem is one "> - **key:** value" line of a report's header, as
// topic reports and motion reports write it.
func headerItem(w *words, key, value string) string {
	return fmt.Sprintf("> - **%s%s** %s", key, w.colon, value)
}

// argumentsDoc builds the Markdown of Arguments in the words of w.
func argumentsDoc(d protocol.Debate, args []protocol.Argument, w *words) argDoc {
	var doc argDoc
	args = slices.Clone(args)
	slices.SortStableFunc(args, func(a, b protocol.Argument) int { return a.Seq - b.Seq })
	seqOf := make(map[string]int, len(args))
	for _, a := range args {
		seqOf[a.ID] = a.Seq
	}
	children := map[string][]protocol.Argument{}
	var roots []protocol.Argument
	for _, a := range args {
		if _, ok := seqOf[a.ParentID]; ok && a.ParentID != a.ID {
			children[a.ParentID] = append(children[a.ParentID], a)
		} else {
			roots = append(roots, a)
		}
	}

	var b strings.Builder
	title := inlineText(d.Title)
	if title == "" {
		title = w.debateTitle(inlineText(d.ID))
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	item := func(label, value string) { fmt.Fprintf(&b, "%s\n", headerItem(w, label, value)) }
	item(w.debate, inlineText(d.ID))
	item(w.debateType, inlineText(string(d.Type)))
	item(w.state, w.stateWord(d.State))
	item(w.created, argTime(d.CreatedAt))
	item(w.updated, argTime(d.UpdatedAt))
	item(w.arguments, fmt.Sprint(len(args)))
	doc.head = b.String()

	doc.tree = argTreeMarkdown(args, roots, children, seqOf, w)
	doc.args = argSections(args, seqOf, w)

	b.Reset()
	fmt.Fprintf(&b, "\n## %s\n\n", w.stateTimeline)
	if len(args) == 0 {
		fmt.Fprintf(&b, "%s\n", w.emptyTimeline(w.stateWord(d.State)))
		doc.timeline = b.String()
		return doc
	}
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n|---:|---|---|---|---|\n", w.colSeq, w.colArgument, w.colBy, w.colStateAfter, w.colTime)
	for _, a := range args {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)),
			w.stateWord(a.StateAfter), argTime(a.CreatedAt))
	}
	doc.timeline = b.String()
	return doc
}

// argTreeMarkdown writes the argument tree: each argument under the one it
// answers, indented up to argMaxIndent levels and marked as a reply deeper
// than that.
func argTreeMarkdown(args, roots []protocol.Argument, children map[string][]protocol.Argument, seqOf map[string]int, w *words) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s\n\n", w.argumentTree)
	if len(args) == 0 {
		b.WriteString(w.noArguments + "\n")
	}
	// Iterative depth-first walk, so a long chain of replies cannot grow the
	// stack.
	type entry struct {
		a     protocol.Argument
		depth int
	}
	stack := make([]entry, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, entry{roots[i], 0})
	}
	seen := make(map[string]bool, len(args))
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[it.a.ID] {
			continue
		}
		seen[it.a.ID] = true
		fmt.Fprintf(&b, "%s- ", strings.Repeat("  ", min(it.depth, argMaxIndent)))
		if it.depth > argMaxIndent {
			fmt.Fprintf(&b, "↳ *%s* · ", w.replyTo(seqOf[it.a.ParentID]))
		}
		b.WriteString(argLabel(it.a))
		if s := inlineText(shorten(it.a.Content, argSummaryRunes)); s != "" {
			b.WriteString(" — " + s)
		}
		b.WriteString("\n")
		kids := children[it.a.ID]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, entry{kids[i], it.depth + 1})
		}
	}
	return b.String()
}

// argSections writes each argument's section: its time, what it answers, its
// id and its content.
func argSections(args []protocol.Argument, seqOf map[string]int, w *words) []argSection {
	var out []argSection
	var b strings.Builder
	for i, a := range args {
		b.Reset()
		s := argSection{a: a, heading: argHeading(a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)))}
		if i == 0 {
			s.open = fmt.Sprintf("\n## %s\n", w.arguments)
		}
		meta := []string{argTime(a.CreatedAt)}
		switch p, ok := seqOf[a.ParentID]; {
		case a.ParentID == "":
		case ok:
			meta = append(meta, w.replyTo(p))
		default:
			meta = append(meta, w.replyHidden)
		}
		meta = append(meta, w.argID(inlineText(a.ID)))
		b.WriteString("*" + strings.Join(meta, " · ") + "*\n\n")
		if body := embedText(a.Content, 3); strings.TrimSpace(body) != "" {
			b.WriteString(body + "\n")
		} else {
			b.WriteString("*" + w.noContent + "*\n")
		}
		s.md = b.String()
		out = append(out, s)
	}
	return out
}

func argLabel(a protocol.Argument) string {
	return fmt.Sprintf("**#%d %s** · %s · %s", a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)), argTime(a.CreatedAt))
}

func argTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(argTimeLayout)
}
