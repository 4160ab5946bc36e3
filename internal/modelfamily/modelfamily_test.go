package modelfamily

import "testing"

func TestOf(t *testing.T) {
	t.Parallel()
	tests := []struct{ model, want string }{
		{"gpt-4o", "openai"},
		{"openai/gpt-5-mini", "openai"},
		{"o3-mini", "openai"},
		{"chatgpt-4o-latest", "openai"},
		{"claude-sonnet-4-5", "anthropic"},
		{"anthropic/claude-opus-4", "anthropic"},
		{"gemini-2.5-pro", "google"},
		{"google/gemma-3-27b-it", "google"},
		{"meta-llama/llama-3.3-70b-instruct", "meta"},
		{"Qwen/Qwen3-235B-A22B", "qwen"},
		{"deepseek-chat", "deepseek"},
		{"mistralai/magistral-medium", "mistral"},
		{"x-ai/grok-4", "xai"},
		{"z-ai/glm-4.6", "zhipu"},
		{"moonshotai/kimi-k2", "moonshot"},
		{"acme/house-model", "acme"},
		{"house-model-7b", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Of(tt.model); got != tt.want {
			t.Errorf("Of(%q) = %q, want %q", tt.model, got, tt.want)
		}
	}
}
