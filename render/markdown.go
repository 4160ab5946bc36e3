package render

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	gmtext "github.com/yuin/goldmark/text"
)

var (
	// atxHeading matches an ATX heading, optionally inside block quotes:
	// prefix, hashes, rest.
	atxHeading = regexp.MustCompile(`^((?: {0,3}>[ \t]?)*)( {0,3})(#{1,6})([ \t].*)?$`)
	// setextUnderline matches the line under a setext heading.
	setextUnderline = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	// fenceOpen matches the opening line of a fenced code block.
	fenceOpen = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")
	// htmlBlockStart matches the start of an HTML block that runs until an end
	// marker rather than a blank line (CommonMark types 1 to 5); unclosed, it
	// would swallow the rest of the report.
	htmlBlockStart = regexp.MustCompile(`^( {0,3})(<(?i:script|pre|style|textarea)(?:[ \t>]|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[)`)
	// paragraphBreaker matches lines that start something other than a
	// paragraph, so a setext underline after them is not a heading.
	paragraphBreaker = regexp.MustCompile(`^(?: {4,}| {0,3}(?:[-+*>|]|\d{1,9}[.)])(?:[ \t]|$))`)
	// thematicBreak matches a line that is a horizontal rule.
	thematicBreak = regexp.MustCompile(`^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	// orderedStart matches text that would open an ordered list.
	orderedStart = regexp.MustCompile(`^(\d{1,9})([.)])`)
)

// embedText returns model or user Markdown made safe to place under a heading
// of the given level: its headings (ATX and setext) are placed below that
// level in order (see nesting), capped at 6; '#' inside fenced code is left alone; an unclosed code
// fence is closed; HTML blocks that would run to the end of the document are
// escaped; line endings become "\n" and trailing blank lines are dropped.
func embedText(text string, level int) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimRight(text, " \t\n")
	if text == "" {
		return ""
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines)+1)
	headings := nesting{level: level}
	var (
		fenceChar byte // '`' or '~' while inside a fenced block
		fenceLen  int
		para      = -1 // index in out of the open paragraph's first line
	)
	for _, ln := range lines {
		if fenceChar != 0 {
			out = append(out, ln)
			if closesFence(ln, fenceChar, fenceLen) {
				fenceChar = 0
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(ln); m != nil && !(m[1][0] == '`' && strings.Contains(m[2], "`")) {
			fenceChar, fenceLen = m[1][0], len(m[1])
			out = append(out, ln)
			para = -1
			continue
		}
		if m := atxHeading.FindStringSubmatch(ln); m != nil {
			out = append(out, m[1]+m[2]+strings.Repeat("#", headings.place(len(m[3])))+m[4])
			para = -1
			continue
		}
		if m := setextUnderline.FindStringSubmatch(ln); m != nil && para >= 0 {
			h := 2
			if m[1][0] == '=' {
				h = 1
			}
			var words []string
			for _, p := range out[para:] {
				words = append(words, strings.TrimSpace(p))
			}
			out = append(out[:para], strings.Repeat("#", headings.place(h))+" "+strings.Join(words, " "))
			para = -1
			continue
		}
		switch {
		case strings.TrimSpace(ln) == "":
			para = -1
		case paragraphBreaker.MatchString(ln):
			// Indented lines continue an open paragraph; anything else
			// listed there starts a block of its own.
			if para < 0 || !strings.HasPrefix(ln, "    ") {
				para = -1
			}
		case para < 0:
			para = len(out)
		}
		if m := htmlBlockStart.FindStringSubmatchIndex(ln); m != nil {
			ln = ln[:m[3]] + `\` + ln[m[3]:]
		}
		out = append(out, ln)
	}
	if fenceChar != 0 {
		out = append(out, strings.Repeat(string(fenceChar), fenceLen))
	}
	return settleHeadings(strings.Join(out, "\n"), level)
}

// settleHeadings is embedText's last pass. The line-based pass above handles
// the usual cases; CommonMark has more (a list marker that cannot interrupt a
// paragraph, lazy continuation lines …), so here the report's own parser
// finds any heading still at or above level: an ATX heading gets more '#', a
// setext heading's underline is escaped into plain text. Should the text
// still resist, it is shown verbatim in a code block.
func settleHeadings(text string, level int) string {
	if !mayHoldHeading(text) {
		return text
	}
	for range 8 {
		src := []byte(text)
		edit, stuck := -1, false
		insert := ""
		ast.Walk(markdown.Parser().Parse(gmtext.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			h, ok := n.(*ast.Heading)
			if !entering || !ok || h.Level > level {
				return ast.WalkContinue, nil
			}
			if h.Lines().Len() == 0 {
				stuck = true
				return ast.WalkStop, nil
			}
			first, last := h.Lines().At(0), h.Lines().At(h.Lines().Len()-1)
			start := bytes.LastIndexByte(src[:first.Start], '\n') + 1
			if i := bytes.IndexByte(src[start:first.Start], '#'); i >= 0 {
				edit, insert = start+i, strings.Repeat("#", demote(h.Level, level)-h.Level)
				return ast.WalkStop, nil
			}
			// A setext heading: its underline is the line after its text.
			nl := bytes.IndexByte(src[last.Stop:], '\n')
			if nl < 0 {
				stuck = true
				return ast.WalkStop, nil
			}
			under := last.Stop + nl + 1
			i := bytes.IndexAny(src[under:], "=-")
			if i < 0 {
				stuck = true
				return ast.WalkStop, nil
			}
			edit, insert = under+i, `\`
			return ast.WalkStop, nil
		})
		switch {
		case stuck:
			return fenced("text", text)
		case edit < 0:
			return text
		}
		text = text[:edit] + insert + text[edit:]
	}
	return fenced("text", text)
}

// mayHoldHeading reports whether text could hold a heading at all, so that
// settleHeadings parses only such text: an ATX heading needs a '#', a setext
// heading an underline, a line of only '=' or only '-' once the block quote
// markers and indentation of its containers are dropped.
func mayHoldHeading(text string) bool {
	if strings.Contains(text, "#") {
		return true
	}
	// A lone carriage return ends a line too, for the parser.
	if strings.Contains(text, "\r") {
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	for ln := range strings.Lines(text) {
		rest := strings.TrimRight(strings.TrimLeft(ln, " \t>"), " \t\n")
		if rest != "" && (strings.Trim(rest, "=") == "" || strings.Trim(rest, "-") == "") {
			return true
		}
	}
	return false
}

// nesting places the headings of a text embedded under a heading of a given
// level so that a reader never skips a level: the first goes one below it,
// each later one at most one below the heading before it, and one no deeper
// than an earlier one at that one's place. "## a", "#### b", "## c" under a
// level-2 heading become "### a", "#### b", "### c".
type nesting struct {
	level int
	open  []placed // the headings a next one may sit under, outermost first
}

// placed is a heading's level in the text and in the report.
type placed struct{ from, to int }

// place returns the level in the report of the next heading, of level h in
// the text.
func (o *nesting) place(h int) int {
	for len(o.open) > 0 && o.open[len(o.open)-1].from >= h {
		o.open = o.open[:len(o.open)-1]
	}
	to := o.level + 1
	if n := len(o.open); n > 0 {
		to = o.open[n-1].to + 1
	}
	to = min(6, to)
	o.open = append(o.open, placed{h, to})
	return to
}

// demote returns the level a heading of level h gets under a heading of the
// given level.
func demote(h, level int) int {
	return min(6, h+level)
}

// closesFence reports whether ln closes a fence opened with n times c.
func closesFence(ln string, c byte, n int) bool {
	t := strings.TrimLeft(ln, " ")
	if len(ln)-len(t) > 3 {
		return false
	}
	i := 0
	for i < len(t) && t[i] == c {
		i++
	}
	return i >= n && strings.TrimSpace(t[i:]) == ""
}

// inlineText returns s collapsed to one line and escaped so that it reads as
// plain inline text wherever a report places it: inside a heading, a list item
// or a table cell. Markdown emphasis and code spans keep working.
func inlineText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '<' || r == '|' || r == '\\' && i == len(s)-1:
			b.WriteByte('\\')
		case i == 0 && (r == '#' || r == '>'):
			b.WriteByte('\\')
		case i == 0 && strings.ContainsRune("+-*_", r) && (len(s) == 1 || s[1] == ' ' || thematicBreak.MatchString(s)):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if strings.HasSuffix(out, "#") {
		out = out[:len(out)-1] + `\#`
	}
	// "1. x" or "1) x" at the start would open an ordered list.
	if m := orderedStart.FindStringSubmatch(out); m != nil {
		out = m[1] + `\` + out[len(m[1]):]
	}
	return out
}

// shorten collapses whitespace in s and cuts it to at most n runes, at a word
// boundary when one is near, marking the cut with "…".
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	for i := len(r) - 1; i >= (n-1)*2/3; i-- {
		if r[i] == ' ' {
			r = r[:i]
			break
		}
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// fenced returns body in a fenced code block with the given info string,
// using a fence longer than any backtick run inside body.
func fenced(info, body string) string {
	longest, run := 0, 0
	for i := 0; i < len(body); i++ {
		if body[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return fmt.Sprintf("%s%s\n%s\n%s\n", f, info, strings.TrimRight(body, "\n"), f)
}

// Thousands formats a count as the reports print it, with commas between
// groups of three digits: 41,230.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatCost formats a cost with two to four decimals.
func formatCost(c float64) string {
	s := fmt.Sprintf("%.4f", c)
	for strings.HasSuffix(s, "0") && len(s)-strings.IndexByte(s, '.') > 3 {
		s = s[:len(s)-1]
	}
	return s
}
