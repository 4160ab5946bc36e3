package quote

import (
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

// normalize returns s in the form quotes are compared in: NFC, typographic
// quotes and dashes as ASCII, each run of white space as one space, trimmed.
// line[i] is the 1-based line of s on which the byte i of the result stands.
func normalize(s string) (string, []int) {
	s = plain.Replace(norm.NFC.String(s))
	var b strings.Builder
	line := make([]int, 0, len(s))
	n, space := 1, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r == '\n' {
				n++
			}
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
			line = append(line, n)
		}
		space = false
		w, _ := b.WriteRune(r)
		for range w {
			line = append(line, n)
		}
	}
	return b.String(), line
}
