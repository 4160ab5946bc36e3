package prompts

import (
	"fmt"
	"io"
	"text/template"
	"text/template/parse"
)

// Bounds on what a template may cost, checked when it is loaded and when it
// renders, so that an override cannot keep a run or validate busy.
const (
	// MaxTemplateBytes bounds a template override file: 1 MiB.
	MaxTemplateBytes = 1 << 20
	// MaxCalls bounds the {{template}} calls one part of a step makes,
	// counted on its text with each loop body once: calls nested ten deep,
	// ten at each level, would make ten billion.
	MaxCalls = 10_000
	// MaxPromptBytes bounds one rendered message: 64 MiB.
	MaxPromptBytes = 64 << 20
)

// errTooLong is a rendering stopped at MaxPromptBytes.
var errTooLong = fmt.Errorf("the rendered prompt is longer than %d MiB", MaxPromptBytes>>20)

// countCalls returns an error when a part of t makes more than MaxCalls
// template calls, or calls itself.
func countCalls(t *template.Template) error {
	c := &counter{t: t, done: map[string]int{}, open: map[string]bool{}}
	for _, part := range []string{"system", "user"} {
		if t.Lookup(part) == nil {
			continue
		}
		n, err := c.template(part)
		if err != nil {
			return fmt.Errorf("{{define %q}}: %w", part, err)
		}
		if n > MaxCalls {
			return fmt.Errorf("{{define %q}} makes more than %d {{template}} calls; nest fewer", part, MaxCalls)
		}
	}
	return nil
}

// counter counts the calls of t's templates, once each.
type counter struct {
	t    *template.Template
	done map[string]int  // calls made by each template counted
	open map[string]bool // templates being counted, to find a cycle
}

// template returns the calls the template name makes, itself excluded,
// saturating past MaxCalls.
func (c *counter) template(name string) (int, error) {
	if n, ok := c.done[name]; ok {
		return n, nil
	}
	if c.open[name] {
		return 0, fmt.Errorf("template %q calls itself", name)
	}
	tt := c.t.Lookup(name)
	if tt == nil || tt.Tree == nil {
		return 0, nil // an undefined template fails when it executes
	}
	c.open[name] = true
	n, err := c.node(tt.Tree.Root)
	delete(c.open, name)
	c.done[name] = n
	return n, err
}

// node returns the calls n makes.
func (c *counter) node(n parse.Node) (int, error) {
	var kids []parse.Node
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return 0, nil
		}
		kids = n.Nodes
	case *parse.IfNode:
		kids = []parse.Node{n.List, n.ElseList}
	case *parse.RangeNode:
		kids = []parse.Node{n.List, n.ElseList}
	case *parse.WithNode:
		kids = []parse.Node{n.List, n.ElseList}
	case *parse.TemplateNode:
		inner, err := c.template(n.Name)
		return min(inner+1, MaxCalls+1), err
	}
	sum := 0
	for _, k := range kids {
		m, err := c.node(k)
		if err != nil {
			return 0, err
		}
		sum = min(sum+m, MaxCalls+1)
	}
	return sum, nil
}

// capped is a writer that fails past MaxPromptBytes, which stops the
// template writing to it.
type capped struct {
	w    io.Writer
	left int
}

func newCapped(w io.Writer) *capped {
	return &capped{w: w, left: MaxPromptBytes}
}

func (c *capped) Write(p []byte) (int, error) {
	if len(p) > c.left {
		c.left = 0
		return 0, errTooLong
	}
	c.left -= len(p)
	return c.w.Write(p)
}
