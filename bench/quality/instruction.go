package quality

// instruction asks for a final answer line, in the prompts' language: of a
// lone answer, or (debate) of every debater's answer and the judge's
// conclusion, as an annotation of the topic.
func instruction(lang string, debate bool) string {
	switch {
	case lang == "zh" && debate:
		return "本题有唯一正确答案，将被自动核对。辩手：给出推导，并在每次立场和反驳的最后单独写一行 `答案：<值>`，只写值。裁判：辩手们的答案一致时，把 `答案：<值>` 作为一条共识的标题；强制裁决的建议以 `答案：<值>` 结尾。"
	case lang == "zh":
		return "请解答下面的问题。给出推导，最后单独写一行 `答案：<值>`，只写值。"
	case debate:
		return "This question has one correct answer, which is checked automatically. Debaters: work it out, and end every position and rebuttal with a final line `Answer: <value>`, the value alone. Judge: when the debaters agree on the answer, make `Answer: <value>` the title of a consensus point; end a forced verdict's recommendation with `Answer: <value>`."
	}
	return "Answer the question below. Work it out, then end with a final line `Answer: <value>`, the value alone."
}
