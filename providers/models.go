package providers

import "strings"

// reasoningPrefixes are the model families that take max_completion_tokens
// and refuse sampling settings.
var reasoningPrefixes = []string{"o1", "o3", "o4", "gpt-5", "gpt-6"}

// reasoningModel reports whether model belongs to a reasoning family. A
// gateway's vendor prefix ("openai/o3-mini") is ignored.
func reasoningModel(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	for _, p := range reasoningPrefixes {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}
