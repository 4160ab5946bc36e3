package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// The grammar subset Mermaid emits, one statement a line.
var (
	mmNode     = regexp.MustCompile(`^    (n_[A-Za-z0-9_]*)\["([^"]*)"\]$`)
	mmEdge     = regexp.MustCompile(`^    (n_[A-Za-z0-9_]*) --> (n_[A-Za-z0-9_]*)$`)
	mmClassDef = regexp.MustCompile(`^    classDef ([a-z]+) ([a-z-]+:[#0-9a-z]+(?:,[a-z-]+:[#0-9a-z]+)*)$`)
	mmClass    = regexp.MustCompile(`^    class (n_[A-Za-z0-9_]*(?:,n_[A-Za-z0-9_]*)*) ([a-z]+)$`)
	// A label may hold no character Mermaid reads as syntax inside quotes
	// except '#' starting an entity code.
	mmLabel  = regexp.MustCompile("^(?:[^\"#`<>|;&\\[\\]{}\\\\\x00-\x1f\x7f]|#(?:\\d+|quot);)*$")
	mmEntity = regexp.MustCompile(`#(\d+|quot);`)
)

// mermaidGraph is a parsed Mermaid block.
type mermaidGraph struct {
	labels  map[string]string // node id → decoded label
	order   []string
	edges   [][2]string
	classes map[string]string // node id → class
}

// parseMermaid validates src against the grammar subset and returns what it
// declares, or an error naming the first offending line.
func parseMermaid(src string) (*mermaidGraph, error) {
	if !strings.HasSuffix(src, "\n") {
		return nil, fmt.Errorf("no trailing newline")
	}
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if lines[0] != "graph TD" {
		return nil, fmt.Errorf("line 1: %q, want \"graph TD\"", lines[0])
	}
	g := &mermaidGraph{labels: map[string]string{}, classes: map[string]string{}}
	defs := map[string]bool{}
	for i, ln := range lines[1:] {
		at := fmt.Sprintf("line %d %q", i+2, ln)
		switch {
		case mmNode.MatchString(ln):
			m := mmNode.FindStringSubmatch(ln)
			if _, dup := g.labels[m[1]]; dup {
				return nil, fmt.Errorf("%s: node declared twice", at)
			}
			if !mmLabel.MatchString(m[2]) {
				return nil, fmt.Errorf("%s: label holds an unescaped character", at)
			}
			g.labels[m[1]] = mmEntity.ReplaceAllStringFunc(m[2], func(e string) string {
				code := e[1 : len(e)-1]
				if code == "quot" {
					return `"`
				}
				n, _ := strconv.Atoi(code)
				return string(rune(n))
			})
			g.order = append(g.order, m[1])
		case mmEdge.MatchString(ln):
			m := mmEdge.FindStringSubmatch(ln)
			for _, id := range m[1:] {
				if _, ok := g.labels[id]; !ok {
					return nil, fmt.Errorf("%s: edge to undeclared node %s", at, id)
				}
			}
			g.edges = append(g.edges, [2]string{m[1], m[2]})
		case mmClassDef.MatchString(ln):
			defs[mmClassDef.FindStringSubmatch(ln)[1]] = true
		case mmClass.MatchString(ln):
			m := mmClass.FindStringSubmatch(ln)
			if !defs[m[2]] {
				return nil, fmt.Errorf("%s: class %s used before classDef", at, m[2])
			}
			for _, id := range strings.Split(m[1], ",") {
				if _, ok := g.labels[id]; !ok {
					return nil, fmt.Errorf("%s: class on undeclared node %s", at, id)
				}
				g.classes[id] = m[2]
			}
		default:
			return nil, fmt.Errorf("%s: not in the grammar", at)
		}
	}
	return g, nil
}

var hostileTitles = []string{
	`He said "no" and 'maybe'`,
	"[brackets] (parens) {braces} <angles>",
	"back`tick` and ```fence```",
	"pipe | and -->|edge label| arrow",
	"#1 priority; DROP TABLE nodes; #quot; &amp; &#35;",
	"line one\nline two\r\nline three",
	"<script>alert(1)</script><img src=x onerror=alert(1)>",
	"emoji 🚀🔥 and 中文标题：是否迁移？ and Ünïcödé",
	"end",
	"graph TD",
	"\x00control\x1b[31mred\x7f chars",
	"right-to-left \u202eoverride\u200b and zero\u2028width",
	"a\\b\\\\c and %% comment",
	"style n_root fill:#f00",
	strings.Repeat("very long title ", 20),
	strings.Repeat("长", 100),
	"",
}

func TestMermaidHostileTitles(t *testing.T) {
	for i, title := range hostileTitles {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			root := tree.NewNode(tree.RootID, title, "")
			root.Status = tree.Split
			c1 := tree.NewNode(tree.ChildID(root.ID, 0), title, "")
			c1.Status = tree.Failed
			c2 := tree.NewNode(tree.ChildID(c1.ID, 0), title+title, "")
			c2.Status = tree.Interrupted
			c1.Children = append(c1.Children, c2)
			root.Children = append(root.Children, c1)

			src := Mermaid(root)
			g, err := parseMermaid(src)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if len(g.order) != 3 || len(g.edges) != 2 {
				t.Fatalf("got %d nodes and %d edges, want 3 and 2:\n%s", len(g.order), len(g.edges), src)
			}
			if g.edges[0] != [2]string{"n_root", "n_d1"} || g.edges[1] != [2]string{"n_d1", "n_d1_1"} {
				t.Errorf("edges = %v", g.edges)
			}
			if g.classes["n_d1"] != "failed" || g.classes["n_d1_1"] != "interrupted" {
				t.Errorf("classes = %v", g.classes)
			}
			// The decoded label carries the shortened title, without
			// control or format characters.
			want := "root: " + printable(shorten(title, titleRunes)) + " (split)"
			if got := g.labels["n_root"]; got != want {
				t.Errorf("label decodes to %q, want %q", got, want)
			}
			for _, l := range g.labels {
				if n := len([]rune(l)); n > titleRunes+30 {
					t.Errorf("label %q is %d runes long", l, n)
				}
			}
		})
	}
}

// printable drops control and format characters and turns other spaces into
// ' ', as a label must.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case !unicode.IsGraphic(r):
			return -1
		}
		return r
	}, s)
}

func TestMermaidIDsUnique(t *testing.T) {
	root := tree.NewNode(tree.RootID, "r", "")
	// "d1.1" and "d1_1" map to the same identifier: the second must differ.
	a := tree.NewNode("d1.1", "a", "")
	b := tree.NewNode("d1_1", "b", "")
	root.Children = []*tree.Node{a, b}
	g, err := parseMermaid(Mermaid(root))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.order) != 3 {
		t.Errorf("nodes = %v, want 3 distinct", g.order)
	}
}

func TestMermaidAndTextTreeGolden(t *testing.T) {
	root := tree.NewNode(tree.RootID, hostileTitles[0], "")
	root.Status = tree.Split
	for i, title := range hostileTitles[1:6] {
		c := tree.NewNode(tree.ChildID(root.ID, i), title, "")
		c.Status = []tree.Status{tree.Converged, tree.Forced, tree.Failed, tree.Interrupted, tree.Split}[i]
		c.StopReason = "stopped: " + title
		root.Children = append(root.Children, c)
	}
	golden.Assert(t, "testdata/path_hostile.mermaid", []byte(Mermaid(root)))
	golden.Assert(t, "testdata/path_hostile.tree.txt", []byte(TextTree(root)))
}

func TestMermaidOfFixtures(t *testing.T) {
	for _, f := range rendertest.Fixtures() {
		for _, topic := range f.Run.Topics {
			if _, err := parseMermaid(mermaid(topic.Root, wordsFor(f.Run))); err != nil {
				t.Errorf("%s/%s: %v", f.Name, topic.ID, err)
			}
		}
	}
}

func TestTextTreeShape(t *testing.T) {
	root := tree.NewNode(tree.RootID, "Root", "")
	root.Status = tree.Split
	d1 := tree.NewNode("d1", "One", "")
	d1.Status = tree.Split
	d11 := tree.NewNode("d1.1", "One.one", "")
	d11.Status = tree.Converged
	d12 := tree.NewNode("d1.2", "One.two", "")
	d12.Status = tree.Failed
	d12.Errors = []tree.NodeError{{Participant: "reviewer", Step: tree.StepJudge, Message: "no JSON"}}
	d2 := tree.NewNode("d2", "Two\nlines", "")
	d2.Status = tree.Forced
	d1.Children = []*tree.Node{d11, d12}
	root.Children = []*tree.Node{d1, d2}
	want := `root — Root [split]
├── d1 — One [split]
│   ├── d1.1 — One.one [converged ✓]
│   └── d1.2 — One.two [failed]: no JSON
└── d2 — Two lines [forced verdict]
`
	if got := TextTree(root); got != want {
		t.Errorf("TextTree:\n%s\nwant:\n%s", got, want)
	}
	if TextTree(nil) != "" {
		t.Error("TextTree(nil) is not empty")
	}
}
