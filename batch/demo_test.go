package batch

import (
	"context"
	"reflect"
	"testing"

	"github.com/debatehq/debate/configs"
)

// TestDemoLeavesConfig: a demo plays a copy of the config adapted to the
// scripted model; the caller's config keeps its endpoints, its arbitrator
// and its retry delay.
func TestDemoLeavesConfig(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"../configs/examples/full.jsonc", "../configs/examples/motion.jsonc"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			anyKey := func(string) (string, bool) { return "sk-demo", true }
			cfg, err := configs.Load(path, configs.Options{Getenv: anyKey})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Output.Dir = t.TempDir()
			before := cfg.Clone()
			res, err := Run(context.Background(), cfg, Options{Demo: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Files) == 0 {
				t.Fatal("the demo wrote nothing")
			}
			if !reflect.DeepEqual(*cfg, before) {
				t.Errorf("Run changed the caller's config: base URL %q → %q, retry delay %d → %d",
					before.API.BaseURL, cfg.API.BaseURL, before.Fallback.RetryDelay, cfg.Fallback.RetryDelay)
			}
		})
	}
}
