package output

import (
	"os"
	"path/filepath"
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
			path := filepath.Join(t.TempDir(), "summary.md")
			getenv := func(k string) (string, bool) { return path, k == "GITHUB_STEP_SUMMARY" }
			if err := GitHub(run, nil, nil, getenv, nil); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(b), said); got != tt.says {
				t.Errorf("says the cache answered everything: %v, want %v:\n%s", got, tt.says, b)
			}
		})
	}
}
