package quote

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// plain maps typographic quotes and dashes to their ASCII forms.
var plain = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'", "\u2032", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`, "\u2033", `"`,
	"\u00AB", `"`, "\u00BB", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
)

// lineStart is where a line of the original begins in the normal form:
// the bytes of the normal form from At on stand on Line, until the next
// lineStart.
type lineStart struct {
	At, Line int
}

// lines locate the bytes of a normal form on the lines of its original.
type lines []lineStart

// of returns the 1-based line of the original on which byte i of the
// normal form stands.
func (l lines) of(i int) int {
	k := sort.Search(len(l), func(k int) bool { return l[k].At > i })
	if k == 0 {
		return 1
	}
	return l[k-1].Line
}

// normalize returns s in the form quotes are compared in: NFC, typographic
// quotes and dashes as ASCII, each run of white space as one space, trimmed;
// and the lines of s its bytes stand on (a space stands on the line of what
// follows it).
func normalize(s string) (string, lines) {
	s = plain.Replace(norm.NFC.String(s))
	var b strings.Builder
	b.Grow(len(s))
	var at lines
	n, space := 1, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r == '\n' {
				n++
			}
			space = true
			continue
		}
		if len(at) == 0 || at[len(at)-1].Line != n {
			// The space before r, if any, starts r's line.
			at = append(at, lineStart{b.Len(), n})
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String(), at
}
