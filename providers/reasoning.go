package providers

// ReasoningModel reports whether the client takes model for a reasoning
// model by its name: its requests then carry max_completion_tokens instead
// of max_tokens, and no temperature.
func ReasoningModel(model string) bool { return reasoningModel(model) }
