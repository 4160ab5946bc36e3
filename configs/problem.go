package configs

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with a config file, located where it was
// written. Line and Col are 1-based; Col counts runes (characters), not
// bytes, so it matches what an editor shows for non-ASCII text. A Problem
// without a position has Line 0.
type Problem struct {
	File    string // the config path as the user gave it
	Line    int
	Col     int
	Field   string // e.g. "debaters[2].model"; empty for the whole file
	Message string
}

// Error formats the problem as "file:line:col: field: message", leaving out
// the parts that are unknown.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", p.Line, p.Col)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every problem found in a config, in file order. It is the error
// Load returns when the config cannot be used.
type Problems []Problem

// Error returns one problem per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// sortProblems orders problems by position; problems without a position go
// last, and problems at the same position keep the order they were found in.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if (a.Line == 0) != (b.Line == 0) {
			if a.Line == 0 {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}
