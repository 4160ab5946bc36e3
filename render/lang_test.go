package render

import "testing"

// TestReasonInChinese checks that the reasons the program writes read in
// Chinese in a zh report, part by part, and stay as written otherwise.
func TestReasonInChinese(t *testing.T) {
	tests := []struct{ in, zh string }{
		{"all debaters agreed", "各方达成一致"},
		{"round limit 3 reached: verdicts forced", "达到轮数上限 3：强制裁决"},
		{"round limit 3 reached: verdicts forced; 2 verdicts missing after repair", "达到轮数上限 3：强制裁决；修复后仍缺 2 条裁决"},
		{"budget of 50000 tokens reached: verdicts forced", "达到 50000 token 预算：强制裁决"},
		{"2 divergences: split into child debates", "2 个分歧：拆分为子辩论"},
		{"1 divergence: split into a child debate", "1 个分歧：拆分为子辩论"},
		{`empty answer (finish_reason "stop", 93 bytes of reasoning came back alone)`, `空回答（finish_reason "stop", 93 bytes of reasoning came back alone）`},
		{`the provider's content filter withheld the answer (finish_reason "content_filter"), categories: violence`, `服务方的内容过滤拦下了回答（finish_reason "content_filter"）, categories: violence`},
		{`the model refused: "I can't help with that."`, `模型拒绝回答："I can't help with that."`},
		{"2 failed attempts, last 503", "失败 2 次，最后一次：503"},
		{"1 failed attempt, timeout", "失败 1 次：timeout"},
		{"model not found (404)", "模型不存在 (404)"},
		{"no debater answered the position step", "没有辩手给出立场"},
		{"judge answer: no JSON object found", "judge answer: no JSON object found"},
		{cutMessage, "在 token 上限处被截断（params.maxTokensPerResponse：4000）：回答不完整"},
		{`cut at the token limit before any answer (finish_reason "length", 4000 completion tokens): raise params.maxTokensPerResponse`,
			`在给出回答前就达到 token 上限（finish_reason "length", 4000 completion tokens）：请调高 params.maxTokensPerResponse`},
	}
	for _, tt := range tests {
		if got := chinese.reason(tt.in); got != tt.zh {
			t.Errorf("zh reason(%q) = %q, want %q", tt.in, got, tt.zh)
		}
		if got := english.reason(tt.in); got != tt.in {
			t.Errorf("en reason(%q) = %q, want it unchanged", tt.in, got)
		}
	}
}
