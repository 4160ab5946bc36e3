package orchestrator

import (
	"errors"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/think"
)

// FuzzAnswer runs the split of reasoning from an answer (think.Split) and
// the judge-JSON extraction together, as a judge's answer goes through
// them: whatever the content, nothing panics; nothing the judge was sent is
// read from its answer; reasoning given in a block or a field never ends up
// in the answer; and JSON that only the reasoning holds is never taken as
// the judgment.
func FuzzAnswer(f *testing.F) {
	f.Add(`draft {"consensus":[],"divergences":[]}`, "Final:\n```json\n{\"consensus\":[{\"point\":\"p\",\"detail\":\"d\"}]}\n```", uint8(0), false)
	f.Add("why", "no JSON at all", uint8(1), true)
	f.Add("", "```json\n{\"a\": 1,}\n```", uint8(2), false)
	f.Add("</think>", "{", uint8(0), false)
	f.Fuzz(func(t *testing.T, reasoning, answer string, tag uint8, field bool) {
		// Arbitrary content.
		a, _ := think.Split(reasoning+answer, answer)
		if _, err := unpack(parseJudgment(a, nil, false, parties)); err == nil && !strings.Contains(a, "{") {
			t.Fatalf("a judgment from an answer without an object: %q", a)
		}
		refusesQuotes(t, a)

		// Reasoning given as real servers give it.
		if hasTag(reasoning) || hasTag(answer) {
			return // a tag in a part makes another split the right one
		}
		name := []string{"think", "thinking", "reasoning"}[tag%3]
		content, fields, want := "<"+name+">"+reasoning+"</"+name+">"+answer, []string(nil), strings.TrimSpace(answer)
		if field {
			content, fields, want = answer, []string{reasoning}, answer
		}
		got, gotReasoning := think.Split(content, fields...)
		if got != want || gotReasoning != strings.TrimSpace(reasoning) {
			t.Fatalf("Split(%q, %q) = %q, %q; want %q, %q", content, fields, got, gotReasoning, want, strings.TrimSpace(reasoning))
		}
		if !strings.Contains(answer, "{") {
			if _, err := unpack(parseJudgment(got, nil, false, parties)); !errors.Is(err, errNoJSON) {
				t.Fatalf("reasoning %q answer %q: want no JSON found, got %v", reasoning, answer, err)
			}
		}
	})
}

// hasTag reports whether s holds anything think.Split reads as a reasoning tag.
func hasTag(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "think>") || strings.Contains(l, "thinking>") || strings.Contains(l, "reasoning>")
}
