package render

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/debatehq/debate/tree"
)

// titleRunes is how long a title may be in the path overview.
const titleRunes = 40

// Mermaid returns a Mermaid "graph TD" of the tree under root, the content of
// a ```mermaid block: one node per debate node labelled with its id, shortened
// title and status, an edge from every parent to each child, and a class per
// status. Node ids are safe identifiers (n_root, n_d1_2) and labels are quoted
// with every character Mermaid could read as syntax written as an entity code.
func Mermaid(root *tree.Node) string {
	return mermaid(root, &english)
}

// mermaid is Mermaid with the status words of w.
func mermaid(root *tree.Node, w *words) string {
	var b strings.Builder
	b.WriteString("graph TD\n")
	ids := map[*tree.Node]string{}
	used := map[string]bool{}
	var statuses []tree.Status
	seen := map[tree.Status]bool{}
	root.Walk(func(n *tree.Node) {
		id := mermaidID(n.ID)
		for base, i := id, 2; used[id]; i++ {
			id = fmt.Sprintf("%s_%d", base, i)
		}
		used[id] = true
		ids[n] = id
		label := fmt.Sprintf("%s%s%s (%s)", n.ID, w.colonSep, shorten(n.Title, titleRunes), w.statusWord(n.Status))
		fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, mermaidLabel(label))
		if !seen[n.Status] {
			seen[n.Status] = true
			statuses = append(statuses, n.Status)
		}
	})
	root.Walk(func(n *tree.Node) {
		for _, c := range n.Children {
			fmt.Fprintf(&b, "    %s --> %s\n", ids[n], ids[c])
		}
	})
	for _, s := range statuses {
		style, ok := mermaidStyles[s]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "    classDef %s %s\n", s, style)
		var members []string
		root.Walk(func(n *tree.Node) {
			if n.Status == s {
				members = append(members, ids[n])
			}
		})
		fmt.Fprintf(&b, "    class %s %s\n", strings.Join(members, ","), s)
	}
	return b.String()
}

// mermaidStyles colours a node's border by its status; fills are left to the
// viewer's theme so that the graph reads in light and dark mode.
var mermaidStyles = map[tree.Status]string{
	tree.Converged:   "stroke:#2da44e,stroke-width:2px",
	tree.Partial:     "stroke:#bf8700,stroke-width:2px,stroke-dasharray:2",
	tree.Forced:      "stroke:#bf8700,stroke-width:2px",
	tree.Failed:      "stroke:#cf222e,stroke-width:3px",
	tree.Interrupted: "stroke:#8c959f,stroke-width:2px,stroke-dasharray:4",
}

// mermaidID turns a node id into a Mermaid identifier: "n_" and the id with
// every character other than an ASCII letter or digit replaced by "_".
func mermaidID(id string) string {
	var b strings.Builder
	b.WriteString("n_")
	for _, r := range id {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// mermaidLabel escapes s for a double-quoted Mermaid label: ASCII letters,
// digits, spaces and harmless punctuation stay; other ASCII characters become
// "#code;" entities; printable non-ASCII runes stay; other whitespace becomes a
// space and control or format characters are dropped.
func mermaidLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .,:!?/'()+-*=_~@$%^", r)):
			b.WriteRune(r)
		case r == '"':
			b.WriteString("#quot;")
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case r < 128 && unicode.IsPrint(r):
			fmt.Fprintf(&b, "#%d;", r)
		case r >= 128 && unicode.IsGraphic(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TextTree returns the tree under root as indented text, one node a line:
// id, shortened title and status, with the cause of a failure.
func TextTree(root *tree.Node) string {
	return textTree(root, &english)
}

// textTree is TextTree with the status words of w.
func textTree(root *tree.Node, w *words) string {
	if root == nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *tree.Node, prefix, branch, next string)
	walk = func(n *tree.Node, prefix, branch, next string) {
		fmt.Fprintf(&b, "%s%s%s — %s [%s]", prefix, branch, n.ID, shorten(n.Title, 2*titleRunes), w.statusWord(n.Status))
		if n.Status == tree.Failed || n.Status == tree.Interrupted {
			if cause := nodeCause(n, w); cause != "" {
				fmt.Fprintf(&b, "%s%s", w.colonSep, shorten(cause, 2*titleRunes))
			}
		}
		b.WriteByte('\n')
		for i, c := range n.Children {
			if i == len(n.Children)-1 {
				walk(c, prefix+next, "└── ", "    ")
			} else {
				walk(c, prefix+next, "├── ", "│   ")
			}
		}
	}
	walk(root, "", "", "")
	return b.String()
}

// nodeCause returns why a node stopped: its stop reason in the words of w,
// else its errors.
func nodeCause(n *tree.Node, w *words) string {
	if n.StopReason != "" || len(n.Because) > 0 {
		return w.say(n.Because, n.StopReason)
	}
	var msgs []string
	for _, e := range n.Errors {
		msgs = append(msgs, w.say(e.Because, e.Message))
	}
	return strings.Join(msgs, w.reasonSep)
}
