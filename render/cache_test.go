package render

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// TestSummaryCacheLine: a run whose calls the cache answered says so in
// its summary: that it made no call and paid nothing when the cache
// answered them all, how many were cached and fresh otherwise, what the
// cached answers had cost when made; nothing without a cache.
func TestSummaryCacheLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cache    *tree.CacheUse
		language string
		want     []string
		not      []string
	}{
		{"no cache", nil, "", nil, []string{"Call cache"}},
		{"nothing cached", &tree.CacheUse{Fresh: 12}, "", nil, []string{"Call cache"}},
		{"all cached", &tree.CacheUse{Cached: 12, CachedUsage: tree.Usage{PromptTokens: 9000, CompletionTokens: 1000, Calls: 12, Cost: 0.25}}, "",
			[]string{"**Call cache:** every call (12, 10,000 tokens) was answered from the cache: this run made no call and paid nothing; the cached answers had cost 0.25 when made"}, nil},
		{"some cached", &tree.CacheUse{Fresh: 3, Cached: 9, CachedUsage: tree.Usage{PromptTokens: 1500, Calls: 9}}, "",
			[]string{"**Call cache:** 9 of 12 calls answered from the cache (1,500 tokens, not paid again); 3 made afresh"}, []string{"paid nothing", "had cost"}},
		{"all cached, in Chinese", &tree.CacheUse{Cached: 12, CachedUsage: tree.Usage{PromptTokens: 100, Calls: 12}}, "zh",
			[]string{"全部 12 次调用（100 token）均由缓存作答"}, nil},
		{"some cached, in Chinese", &tree.CacheUse{Fresh: 3, Cached: 9, CachedUsage: tree.Usage{PromptTokens: 100, Calls: 9}}, "zh",
			[]string{"12 次调用中有 9 次由缓存作答（100 token，不再付费）；3 次为新调用"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := rendertest.Converged()
			run.Cache, run.Language = tt.cache, tt.language
			md := string(Summary(run, nil))
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("summary lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(md, w) {
					t.Errorf("summary holds %q:\n%s", w, md)
				}
			}
		})
	}
}
