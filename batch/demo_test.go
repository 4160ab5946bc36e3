package batch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
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

// TestDemoRepeatsFromCache: the demo config run twice with one call cache
// and no seed: the scripted model receives no request in the second run
// (its failing model's attempts included), reports the same debates, and its
// summary, Markdown and HTML, says that the cache answered every call and
// the run paid nothing.
func TestDemoRepeatsFromCache(t *testing.T) {
	t.Parallel()
	anyKey := func(string) (string, bool) { return "sk-demo", true }
	cache := t.TempDir()
	run := func() (*Result, int) {
		cfg, err := configs.Load("../configs/examples/full.jsonc", configs.Options{Getenv: anyKey})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Params.Seed != nil {
			t.Fatal("the demo config sets params.seed; the test needs none")
		}
		cfg.Output.Dir, cfg.Cache.Dir = t.TempDir(), cache
		var sent atomic.Int64
		var model *scripted.Server
		res, err := Run(context.Background(), cfg, Options{Demo: true, Events: func(e tree.Event) {
			if e.Kind == tree.RequestSent {
				sent.Add(1)
			}
		}, demoModel: func(s *scripted.Server) { model = s }})
		if err != nil {
			t.Fatal(err)
		}
		if n := int(sent.Load()); n != model.Count() {
			t.Errorf("the run says it sent %d requests; the scripted model received %d", n, model.Count())
		}
		return res, model.Count()
	}
	first, made := run()
	second, again := run()
	if made == 0 || again != 0 {
		t.Errorf("the scripted model received %d requests in the first run, %d in the second; want some, then none", made, again)
	}
	if c := second.Run.Cache; c == nil || c.Fresh != 0 || c.Cached != first.Run.Usage.Calls {
		t.Errorf("the second run's cache use %+v; want all %d calls cached", c, first.Run.Usage.Calls)
	}
	if a, b := first.Run.Usage, second.Run.Usage; a.Calls != b.Calls || a.Failures != b.Failures || a.Total() != b.Total() {
		t.Errorf("usage %+v, then %+v; want the same calls, failures and tokens", a, b)
	}
	for i := range first.Run.Topics {
		if a, b := first.Run.Topics[i], second.Run.Topics[i]; a.Seed != b.Seed || a.Decision != b.Decision || len(a.Fallbacks) != len(b.Fallbacks) {
			t.Errorf("topic %s: seed %d → %d, decision %s → %s, %d → %d fallbacks", a.ID, a.Seed, b.Seed, a.Decision, b.Decision, len(a.Fallbacks), len(b.Fallbacks))
		}
	}
	want := "every call (" + strconv.Itoa(first.Run.Usage.Calls) + ", "
	for _, f := range second.Files {
		if name := filepath.Base(f); name != "summary.md" && name != "summary.html" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); !strings.Contains(s, "Call cache") || !strings.Contains(s, want) || !strings.Contains(s, "this run made no call and paid nothing") {
			t.Errorf("%s does not say that the cache answered every call at no cost", f)
		}
	}
}
