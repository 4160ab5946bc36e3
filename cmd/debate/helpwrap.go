package main

import (
	"strings"

	"github.com/debatehq/debate/internal/textwidth"
)

// helpWidth is the most columns a line of help may take: the width of most
// terminals.
const helpWidth = 80

// wrapHelp fits help text into width columns, leaving every line that fits
// as it is. A longer line is wrapped by what it is: an example command at
// spaces outside quotes, each continued with " \" so that it still pastes
// into a shell; a usage synopsis at spaces outside brackets, under its
// arguments; a comment with "# " again; a definition ("term   meaning",
// a flag and its usage) under its meaning, together with the lines that
// continue it; prose as a paragraph with the lines that continue it.
func wrapHelp(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	var out []string
	section := ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if isHeading(line) {
			section = line
		}
		if textwidth.String(line) <= width {
			out = append(out, line)
			continue
		}
		indent := leading(line)
		body := line[indent:]
		switch {
		case strings.HasPrefix(section, "EXAMPLES") && !strings.HasPrefix(body, "#"):
			out = append(out, fill(withValues(splitOutside(body, false)), spaces(indent), spaces(indent+4), width-2, " \\")...)
		case section == "USAGE":
			// Continued under the arguments of "debate <command>".
			words := withValues(splitOutside(body, true))
			hang := indent
			if strings.HasPrefix(body, "debate ") && len(words) > 1 {
				hang = min(indent+textwidth.String(words[0]+" "+words[1]+" "), width/2)
			}
			if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && leading(lines[i+1]) > indent {
				hang = leading(lines[i+1]) // where the synopsis goes on already
			}
			out = append(out, fill(words, spaces(indent), spaces(hang), width, "")...)
		case strings.HasPrefix(body, "# "):
			out = append(out, fill(strings.Fields(body[2:]), spaces(indent)+"# ", spaces(indent)+"# ", width, "")...)
		default:
			head := term(body, width/2-indent)
			cont := indent + textwidth.String(head)
			words := strings.Fields(body[len(head):])
			for i+1 < len(lines) && continues(lines[i+1], cont, width/2) {
				i++
				words = append(words, strings.Fields(lines[i])...)
			}
			out = append(out, fill(words, spaces(indent)+head, spaces(cont), width, "")...)
		}
	}
	return strings.Join(out, "\n")
}

// isHeading reports whether line is a section heading such as "FLAGS".
func isHeading(line string) bool {
	return line != "" && strings.TrimLeft(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ ") == ""
}

// leading returns the number of spaces line starts with.
func leading(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

func spaces(n int) string { return strings.Repeat(" ", n) }

// term returns the term of a definition line: the text before the first run
// of two spaces or more, with that run, when it ends within limit columns;
// else "".
func term(body string, limit int) string {
	i := strings.Index(body, "  ")
	if i <= 0 {
		return ""
	}
	j := i + leading(body[i:])
	if j >= len(body) || textwidth.String(body[:j]) > limit {
		return ""
	}
	return body[:j]
}

// continues reports whether line goes on with the text of a paragraph whose
// lines start at column cont: it starts there and is no definition itself.
func continues(line string, cont, limit int) bool {
	return strings.TrimSpace(line) != "" && !isHeading(line) && leading(line) == cont && term(line[cont:], limit-cont) == ""
}

// splitOutside splits s at spaces outside quotes and, with brackets, outside
// [], {} and <>.
func splitOutside(s string, brackets bool) []string {
	var words []string
	var quote rune
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case brackets && strings.ContainsRune("[{<", r):
			depth++
		case brackets && strings.ContainsRune("]}>", r) && depth > 0:
			depth--
		case r == ' ' && depth == 0:
			if i > start {
				words = append(words, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		words = append(words, s[start:])
	}
	return words
}

// withValues joins each flag of a command to the value after it, so that a
// line breaks before a flag, never between a flag and its value.
func withValues(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && i+1 < len(words) && isValue(words[i+1]) {
			i++
			w += " " + words[i]
		}
		out = append(out, w)
	}
	return out
}

// isValue reports whether a word of a command can be a flag's value: a
// placeholder such as <id>, or no flag and no shell operator outside quotes.
func isValue(w string) bool {
	placeholder := len(w) > 2 && w[0] == '<' && w[len(w)-1] == '>'
	if placeholder || strings.HasPrefix(w, "'") || strings.HasPrefix(w, `"`) {
		return true
	}
	return !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "|&;><")
}

// fill lays words out in lines of at most width columns, the first starting
// with first and the others with cont; every line but the last ends with
// more (which width leaves room for). A word too long for a line has one
// of its own.
func fill(words []string, first, cont string, width int, more string) []string {
	var out []string
	line := first
	empty := true
	for _, w := range words {
		if !empty && textwidth.String(line)+1+textwidth.String(w) > width {
			out = append(out, line+more)
			line, empty = cont, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	return append(out, line)
}

// showHelp returns help text as the program prints it: within helpWidth.
func showHelp(text string) string { return wrapHelp(text, helpWidth) }
