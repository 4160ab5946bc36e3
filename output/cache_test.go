package output

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// TestStepSummarySaysCached: the job summary of a run whose every call the
// cache answered says that the run made no call and paid nothing; one that
// made calls does not.
func TestStepSummarySaysCached(t *testing.T) {
	t.Parallel()
	const said = "The call cache answered every call: this run made no call and paid nothing."
	for _, tt := range []struct {
		name  string
		cache *tree.CacheUse
		says  bool
	}{
		{"every call cached", &tree.CacheUse{Cached: 5}, true},
		{"some made", &tree.CacheUse{Cached: 4, Fresh: 1}, false},
		{"no cache", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := rendertest.Converged()
			run.Cache = tt.cache
			s := stepSummary(run, nil, "")
			if got := strings.Contains(s, said); got != tt.says {
				t.Errorf("says the cache answered everything: %v, want %v:\n%s", got, tt.says, s)
			}
		})
	}
}
