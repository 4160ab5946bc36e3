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

// Arguments renders a protocol debate as Markdown: a header with the debate's
// id, type and state; the argument tree (each argument under its parent, with
// seq, type, role, time and a one-line summary); every argument in full in seq
// order; and the state timeline. Arguments whose parent is not among args are
// shown at the top level. args need not be sorted.
func Arguments(d protocol.Debate, args []protocol.Argument) []byte {
	return []byte(argumentsDoc(d, args).markdown())
}

// argDoc is the Markdown of Arguments in its parts, so that a report can add
// to its header and a page can put more under each argument.
type argDoc struct {
	head     string       // the title and the header lines
	tree     string       // the argument tree
	args     []argSection // every argument in full, in seq order
	timeline string       // the state timeline
}

// argSection is one argument in full; the first one also opens the section
// of the arguments.
type argSection struct {
	a  protocol.Argument
	md string
}

func (doc argDoc) markdown() string {
	var b strings.Builder
	b.WriteString(doc.head)
	b.WriteString(doc.tree)
	for _, s := range doc.args {
		b.WriteString(s.md)
	}
	b.WriteString(doc.timeline)
	return b.String()
}

func argumentsDoc(d protocol.Debate, args []protocol.Argument) argDoc {
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
		title = "Debate " + inlineText(d.ID)
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- Debate: %s\n", inlineText(d.ID))
	fmt.Fprintf(&b, "- Type: %s\n", inlineText(string(d.Type)))
	fmt.Fprintf(&b, "- State: %s\n", argStateWord(d.State))
	fmt.Fprintf(&b, "- Created: %s\n", argTime(d.CreatedAt))
	fmt.Fprintf(&b, "- Updated: %s\n", argTime(d.UpdatedAt))
	fmt.Fprintf(&b, "- Arguments: %d\n", len(args))
	doc.head = b.String()

	b.Reset()
	b.WriteString("\n## Argument tree\n\n")
	if len(args) == 0 {
		b.WriteString("No arguments.\n")
	}
	// Iterative depth-first walk, so a long chain of replies cannot grow the
	// stack.
	type item struct {
		a     protocol.Argument
		depth int
	}
	stack := make([]item, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], 0})
	}
	seen := make(map[string]bool, len(args))
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[it.a.ID] {
			continue
		}
		seen[it.a.ID] = true
		fmt.Fprintf(&b, "%s- %s", strings.Repeat("  ", it.depth), argLabel(it.a))
		if s := inlineText(shorten(it.a.Content, argSummaryRunes)); s != "" {
			b.WriteString(" — " + s)
		}
		b.WriteString("\n")
		kids := children[it.a.ID]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.depth + 1})
		}
	}

	doc.tree = b.String()

	for i, a := range args {
		b.Reset()
		if i == 0 {
			b.WriteString("\n## Arguments\n")
		}
		fmt.Fprintf(&b, "\n### #%d %s · %s\n\n", a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)))
		meta := []string{argTime(a.CreatedAt)}
		switch p, ok := seqOf[a.ParentID]; {
		case a.ParentID == "":
		case ok:
			meta = append(meta, fmt.Sprintf("reply to #%d", p))
		default:
			meta = append(meta, "reply to an argument not shown")
		}
		meta = append(meta, "id "+inlineText(a.ID))
		b.WriteString("*" + strings.Join(meta, " · ") + "*\n\n")
		if body := embedText(a.Content, 3); strings.TrimSpace(body) != "" {
			b.WriteString(body + "\n")
		} else {
			b.WriteString("*(no content)*\n")
		}
		doc.args = append(doc.args, argSection{a: a, md: b.String()})
	}

	b.Reset()
	b.WriteString("\n## State timeline\n\n")
	if len(args) == 0 {
		fmt.Fprintf(&b, "No arguments; the debate is %s.\n", argStateWord(d.State))
		doc.timeline = b.String()
		return doc
	}
	b.WriteString("| Seq | Argument | By | State after | Time |\n|---:|---|---|---|---|\n")
	for _, a := range args {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)),
			argStateWord(a.StateAfter), argTime(a.CreatedAt))
	}
	doc.timeline = b.String()
	return doc
}

func argLabel(a protocol.Argument) string {
	return fmt.Sprintf("**#%d %s** · %s · %s", a.Seq, inlineText(string(a.Type)), inlineText(string(a.Role)), argTime(a.CreatedAt))
}

func argStateWord(s protocol.State) string {
	if s == protocol.None {
		return "—"
	}
	return inlineText(string(s))
}

func argTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(argTimeLayout)
}
