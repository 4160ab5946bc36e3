package providers

import "strings"

// reasoningPrefixes are the model families that take max_completion_tokens
// and refuse sampling settings.
var reasoningPrefixes = []string{"o1", "o3", "o4", "gpt-5", "gpt-6"}

// ReasoningModel reports whether the client takes model for a reasoning
// model by its name: its requests then carry max_completion_tokens instead
// of max_tokens, and no temperature. A gateway's vendor prefix
// ("openai/o3-mini") is ignored.
func ReasoningModel(model string) bool {
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
