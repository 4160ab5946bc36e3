package demo

import (
	"github.com/debatehq/debate/providers/scripted"
	"strings"
	"unicode/utf8"
)

// demoQuoteMinRunes is the shortest line of a shared document a demo
// debater quotes.
const demoQuoteMinRunes = 30

// demoQuote is what a demo debater adds to its root position when the
// prompt asks for quotes of the shared documents: a list item of the first
// document, word for word, except that the second debater misquotes its
// own, so that a demo shows both a verified and an unverified quote. It is
// "" when the prompt asks for none or has no such line to quote.
func demoQuote(c scripted.Call, voice int) string {
	if len(c.Messages) < 2 || !strings.Contains(c.Messages[0].Content, `<quote doc=`) {
		return ""
	}
	name, lines := demoDocument(c.Last())
	if len(lines) == 0 {
		return ""
	}
	text := lines[voice%len(lines)]
	if voice == 1 {
		first, rest, _ := strings.Cut(text, " ")
		text = first + " always " + rest
	}
	lead := "The shared document settles this:"
	if strings.Contains(c.Messages[0].Content, "逐字引用") {
		lead = "背景文档已有定论:"
	}
	return lead + ` <quote doc="` + name + `">` + text + `</quote>`
}

// demoDocument returns the name and the quotable lines (list items of some
// length, without their marker) of the first document a prompt shows: a
// "### NAME" heading followed by a fenced block.
func demoDocument(prompt string) (string, []string) {
	lines := strings.Split(prompt, "\n")
	for i := 0; i+2 < len(lines); i++ {
		name, ok := strings.CutPrefix(lines[i], "### ")
		fence := lines[i+2]
		if !ok || lines[i+1] != "" || !strings.HasPrefix(fence, "```") {
			continue
		}
		var out []string
		for _, l := range lines[i+3:] {
			if l == fence {
				break
			}
			if item, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok && utf8.RuneCountInString(item) >= demoQuoteMinRunes {
				out = append(out, item)
			}
		}
		return name, out
	}
	return "", nil
}
