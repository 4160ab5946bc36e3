package prompts

import (
	"encoding/json"
	"strings"
	"text/template"
)

// funcs are the helper functions every template may call:
//
//	join LIST SEP    strings.Join
//	labels PARTIES   the parties' labels, as a list for join
//	hang N TEXT      indents every line of TEXT but the first by N spaces, so
//	                 that a multi-line text stays inside a Markdown list item
//	indent N TEXT    indents every line of TEXT by N spaces
//	add A B          A+B, for 1-based numbering
//	take N LIST      the first N elements of LIST (fewer if it is shorter)
//	drop N LIST      LIST without its first N elements
//	json VALUE       VALUE encoded as JSON, e.g. a quoted string
//	fence TEXT       TEXT in a Markdown code fence longer than any it holds
//	breakpoint       marks the end of a stable part of the user message (see
//	                 Message.Breaks); it renders as nothing
var funcs = template.FuncMap{
	"breakpoint": func() string { return breakMark },
	"fence":      fence,
	"join":       strings.Join,
	"labels":     labels,
	"hang":       hang,
	"indent":     indent,
	"add":        func(a, b int) int { return a + b },
	"take":       func(n int, s []string) []string { return s[:min(max(n, 0), len(s))] },
	"drop":       func(n int, s []string) []string { return s[min(max(n, 0), len(s)):] },
	"json":       toJSON,
}

func labels(ps []Party) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Label
	}
	return out
}

func hang(n int, s string) string {
	lines := strings.Split(s, "\n")
	pad := strings.Repeat(" ", n)
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

func indent(n int, s string) string {
	lines := strings.Split(s, "\n")
	pad := strings.Repeat(" ", n)
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func toJSON(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func fence(s string) string {
	longest := 0
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimLeft(line, " ")
		n := len(line) - len(strings.TrimLeft(line, "`"))
		longest = max(longest, n)
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + "\n" + s + "\n" + f
}
