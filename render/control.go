package render

import (
	"strings"
	"unicode/utf8"
)

// visible makes text safe to print on a terminal and to put in a page: it
// keeps tabs and newlines, turns "\r\n" into "\n", shows every other C0
// control character and DEL as its Unicode control picture ("\x1b" as "␛"),
// and replaces C1 control characters and invalid UTF-8 with U+FFFD. Model
// answers, provider error messages and agent text reach the reports through
// it, so that "cat report.md" can neither retitle nor clear a terminal.
func visible(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r >= 0x80 && r <= 0x9f:
			b.WriteRune(utf8.RuneError)
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s is valid UTF-8 without a control character other
// than tab and newline.
func clean(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f {
			return false
		}
	}
	return true
}
