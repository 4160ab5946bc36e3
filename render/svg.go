package render

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/tree"
)

// The geometry of the SVG tree, in pixels.
const (
	boxW       = 192 // a node's box
	boxH       = 46  // a box with one line of title
	lineH      = 15  // each further line of title
	titleLines = 3   // the most lines of title a box shows
	gapX       = 18  // between neighbouring boxes
	gapY       = 42  // between levels
	margin     = 4
	labelPad   = 8   // between a label and its box's border
	colPx      = 7.2 // the widest a column of 12 px text runs (0.6 em)
	boxChars   = 24  // columns of label a box holds (CJK characters count two)
	// narrowPx is the widest tree that a 390 px phone shows at 0.8 of its
	// size or more; a wider one gives way to the table of contents there.
	narrowPx = 447
)

// svgView is the tree's drawing: its size, the edges as path data and one
// box per node.
type svgView struct {
	Width, Height int
	Label         string
	Edges         []string
	Boxes         []svgBox
	Wide          bool // too wide to read on a phone
}

// svgBox is a node's box: a link to its section, titled with the whole of
// its label, and its label's lines.
type svgBox struct {
	Anchor, Title, Class string
	X, Y                 string
	W, H                 int
	Lines                []svgLine
}

// svgLine is a line of a box's label.
type svgLine struct {
	X, Y, Text string
	Bold       bool
}

// treeView draws the tree under root as an inline SVG: a tidy top-down
// layout (leaves side by side in order, each parent centred over its
// children), one box per node coloured by its status class and labelled with
// its id and status and its title wrapped over up to titleLines lines, the
// last cut with "…" when the title is longer (the box's title holds the
// whole); every box as tall as the tallest, and a link to the node's section.
func treeView(root *tree.Node, w *words) svgView {
	titles := map[*tree.Node][]string{}
	lines := 1
	root.Walk(func(n *tree.Node) {
		titles[n] = wrapLabel(strings.Join(strings.Fields(n.Title), " "), boxChars, titleLines)
		lines = max(lines, len(titles[n]))
	})
	h := boxH + (lines-1)*lineH
	xs, ys := map[*tree.Node]float64{}, map[*tree.Node]float64{}
	leaves, depth := 0, 0
	var place func(n *tree.Node, d int) float64
	place = func(n *tree.Node, d int) float64 {
		depth = max(depth, d)
		var x float64
		if len(n.Children) == 0 {
			x = float64(leaves * (boxW + gapX))
			leaves++
		} else {
			first := place(n.Children[0], d+1)
			last := first
			for _, c := range n.Children[1:] {
				last = place(c, d+1)
			}
			x = (first + last) / 2
		}
		xs[n], ys[n] = x+margin, float64(d*(h+gapY)+margin)
		return x
	}
	place(root, 0)
	v := svgView{
		Width:  leaves*(boxW+gapX) - gapX + 2*margin,
		Height: (depth+1)*(h+gapY) - gapY + 2*margin,
		Label:  w.pathOverview,
	}
	v.Wide = v.Width > narrowPx
	root.Walk(func(n *tree.Node) {
		for _, c := range n.Children {
			x1, y1 := xs[n]+boxW/2, ys[n]+float64(h)
			x2, y2 := xs[c]+boxW/2, ys[c]
			ym := (y1 + y2) / 2
			v.Edges = append(v.Edges, fmt.Sprintf("M%s %sC%s %s %s %s %s %s",
				num(x1), num(y1), num(x1), num(ym), num(x2), num(ym), num(x2), num(y2)))
		}
	})
	// Boxes in depth-first order, the order of the sections they link to.
	root.Walk(func(n *tree.Node) {
		x, y := xs[n], ys[n]
		status := w.statusWord(n.Status)
		box := svgBox{
			Anchor: nodeAnchor(n.ID), Class: statusClass(n.Status), X: num(x), Y: num(y), W: boxW, H: h,
			Title: visible(fmt.Sprintf("%s%s%s (%s)", n.ID, w.colonSep, strings.Join(strings.Fields(n.Title), " "), status)),
			Lines: []svgLine{{X: num(x + labelPad), Y: num(y + 18), Text: visible(textwidth.Cut(n.ID+" · "+status, boxChars)), Bold: true}},
		}
		for i, l := range titles[n] {
			box.Lines = append(box.Lines, svgLine{X: num(x + labelPad), Y: num(y + 36 + float64(i*lineH)), Text: visible(l)})
		}
		v.Boxes = append(v.Boxes, box)
	})
	return v
}

// wrapLabel breaks s into at most n lines of at most cols columns: between
// words, and inside a word too long for a line (as Chinese, written without
// spaces, always is); the last line is cut with "…" when the rest does not
// fit.
func wrapLabel(s string, cols, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for word != "" {
			joined := word
			if line != "" {
				joined = line + " " + word
			}
			switch {
			case textwidth.String(joined) <= cols:
				line, word = joined, ""
			case line != "":
				lines, line = append(lines, line), ""
			default:
				head := fitWidth(word, cols)
				lines, word = append(lines, head), word[len(head):]
			}
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	if len(lines) > n {
		lines = append(lines[:n-1], textwidth.Cut(strings.Join(lines[n-1:], " "), cols))
	}
	return lines
}

// fitWidth returns the longest start of s that takes at most cols columns,
// and at least its first character.
func fitWidth(s string, cols int) string {
	width := 0
	for i, r := range s {
		width += textwidth.RuneWidth(r)
		if width > cols && i > 0 {
			return s[:i]
		}
	}
	return s
}

// num formats a coordinate without needless decimals.
func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}
