// Package textwidth measures text as a terminal shows it: East Asian wide
// characters (CJK ideographs, kana, Hangul, full-width forms, most emoji)
// take two columns, combining marks and control characters none, the rest
// one. The East Asian widths are golang.org/x/text/width's; this package adds
// the zero widths, which x/text/width does not know, and the column-wise
// String, Cut and Pad its users share.
package textwidth

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// RuneWidth returns how many columns r takes: 0 for control characters,
// zero-width spaces and joiners and combining marks; 2 for what Unicode's
// East Asian Width property calls wide or full-width (golang.org/x/text/width);
// 1 for the rest, ambiguous characters included, as terminals outside East
// Asian locales draw them.
func RuneWidth(r rune) int {
	switch {
	case r == 0 || r < 32 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return 0
	case r == 0x200b || r == 0x200c || r == 0x200d || r == 0xfeff:
		return 0
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// String returns how many columns s takes.
func String(s string) int {
	n := 0
	for _, r := range s {
		n += RuneWidth(r)
	}
	return n
}

// Cut returns s cut to at most n columns; a cut string ends in "…".
func Cut(s string, n int) string {
	if String(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := RuneWidth(r)
		if w+rw > n-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	b.WriteString("…")
	return b.String()
}

// Pad returns s followed by spaces up to n columns.
func Pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-String(s)))
}
