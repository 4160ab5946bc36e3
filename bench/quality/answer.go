// Package quality measures what debating is worth against asking once or
// taking a vote (debate bench quality): the tasks, the reading of a final
// "Answer:" line, and the intervals the figures carry.
package quality

import (
	"math/big"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// answerMarks are the labels of a final answer line, in English and Chinese,
// followed by an ASCII or a full-width colon.
var answerMarks = []string{"answer", "答案", "最终答案"}

// ReadAnswer returns the value of the last "Answer: <value>" (or
// "答案：<value>") in text, trimmed of spaces, Markdown emphasis and a final
// full stop. It reports false when text states no answer; a placeholder
// such as "<value>", echoed from the instruction, is none.
func ReadAnswer(text string) (string, bool) {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if v, ok := answerOf(lines[i]); ok {
			return v, true
		}
	}
	return "", false
}

// answerOf reads the value after the last answer label on one line.
func answerOf(line string) (string, bool) {
	rest, found := "", false
	for i := range len(line) {
		for _, m := range answerMarks {
			if i+len(m) > len(line) || !strings.EqualFold(line[i:i+len(m)], m) {
				continue
			}
			after := strings.TrimLeft(line[i+len(m):], " *_")
			for _, colon := range []string{":", "："} {
				if v, ok := strings.CutPrefix(after, colon); ok {
					rest, found = v, true
				}
			}
		}
	}
	if !found {
		return "", false
	}
	// Emphasis and spaces go from both ends, a full stop from the end only:
	// ".5" is a number.
	v := strings.TrimLeftFunc(rest, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("*_`$", r)
	})
	v = strings.TrimRightFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("*_`$。.．", r)
	})
	// "Answer: <value>" echoes the instruction: it states no answer.
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
		return "", false
	}
	return v, v != ""
}

// Same reports whether an answer read from a model matches the expected
// one: numbers compare as numbers (42, 42.0, ４２ and 4.2e1 alike; see
// number), other text after trimming and case folding.
func Same(got, want string) bool {
	g, gok := number(got)
	w, wok := number(want)
	if gok && wok {
		return g.Cmp(w) == 0
	}
	return strings.EqualFold(strings.TrimSpace(got), strings.TrimSpace(want))
}

var (
	// thousands is a number whose commas group its digits by three.
	thousands = regexp.MustCompile(`^[+-]?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$`)
	// decimalComma is a number with one comma and no point.
	decimalComma = regexp.MustCompile(`^[+-]?[0-9]*,[0-9]+$`)
)

// number parses s as an exact rational. Full-width digits, signs and marks
// read as their ASCII forms and a minus sign (−) as a hyphen. Commas that
// group the digits by three separate thousands ("1,000", "12,345.5"); else
// a lone comma is the decimal mark, as much of Europe writes it ("3,5" is
// 3.5, never 35); any other comma makes s no number.
func number(s string) (*big.Rat, bool) {
	s = strings.ReplaceAll(width.Narrow.String(strings.TrimSpace(s)), "−", "-")
	switch {
	case thousands.MatchString(s):
		s = strings.ReplaceAll(s, ",", "")
	case decimalComma.MatchString(s):
		s = strings.Replace(s, ",", ".", 1)
	}
	if s == "" || strings.Contains(s, ",") {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}
