package think

import "testing"

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, content   string
		fields          []string
		answer, reasons string
	}{
		{name: "plain answer kept byte for byte", content: "  An answer.\n", answer: "  An answer.\n"},
		{name: "think block", content: "<think>\nweigh it\n</think>\n\nThe answer.", answer: "The answer.", reasons: "weigh it"},
		{name: "thinking block, upper case", content: "<THINKING>hm</Thinking>Answer", answer: "Answer", reasons: "hm"},
		{name: "reasoning block after blank lines", content: "\n\n<reasoning>r</reasoning>\nA", answer: "A", reasons: "r"},
		{name: "two blocks", content: "<think>one</think><reasoning>two</reasoning> A", answer: "A", reasons: "one\n\ntwo"},
		{name: "unclosed block is all reasoning", content: "<think>still thinking when the limit", answer: "", reasons: "still thinking when the limit"},
		{name: "closing tag alone", content: "prompt opened it\n</think>\n\nA", answer: "A", reasons: "prompt opened it"},
		{name: "closing tag alone at the start", content: "  </think>\nA", answer: "A"},
		{name: "closing tag mentioned in prose", content: "An argument.\nModels end reasoning with </think> and then answer.\nMore.",
			answer: "An argument.\nModels end reasoning with </think> and then answer.\nMore."},
		{name: "tag later in the answer stays", content: "Use <think> tags? No.", answer: "Use <think> tags? No."},
		{name: "closing tag after its opening stays", content: "say <think>x</think> then", answer: "say <think>x</think> then"},
		{name: "reasoning field", content: "A", fields: []string{"r1", ""}, answer: "A", reasons: "r1"},
		{name: "both fields and a block", content: "<think>b</think>A", fields: []string{"r1", "r2"}, answer: "A", reasons: "r1\n\nr2\n\nb"},
		{name: "unknown tag is answer", content: "<thought>x</thought>A", answer: "<thought>x</thought>A"},
		{name: "empty", content: "", answer: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer, reasoning := Split(tc.content, tc.fields...)
			if answer != tc.answer || reasoning != tc.reasons {
				t.Errorf("Split(%q, %q) = %q, %q; want %q, %q", tc.content, tc.fields, answer, reasoning, tc.answer, tc.reasons)
			}
		})
	}
}
