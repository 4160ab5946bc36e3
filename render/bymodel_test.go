package render

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestSummaryByModelOfMotions: a run of motions alone, like a run of topics,
// lists each model's prompt tokens and cache-eligible share; a model whose
// every call failed says so instead of a share of nothing.
func TestSummaryByModelOfMotions(t *testing.T) {
	t.Parallel()
	run := motionRun()
	run.ByModel = map[string]tree.Usage{
		"gpt-5.2":   {PromptTokens: 16000, CacheEligiblePromptTokens: 12000, Calls: 5},
		"kimi-k2.5": {PromptTokens: 8000, CacheEligiblePromptTokens: 2000, CachedPromptTokens: 1024, Calls: 3},
		"gemini":    {Calls: 2, Failures: 2},
	}
	got := string(Summary(run, nil))
	for _, want := range []string{
		"> - gpt-5.2: 16,000 prompt tokens, 12,000 cache-eligible (75.0 %), 0 from the provider's cache\n",
		"> - kimi-k2.5: 8,000 prompt tokens, 2,000 cache-eligible (25.0 %), 1,024 from the provider's cache\n",
		"> - gemini: no call answered (2 failed)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}
