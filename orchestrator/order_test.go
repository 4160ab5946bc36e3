package orchestrator

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/providers"
)

// TestOrderIndependentOfTiming runs the same scripted debate several times
// with random call latencies, in parallel and one call at a time, and expects
// the very same run JSON every time.
func TestOrderIndependentOfTiming(t *testing.T) {
	runOnce := func(parallel bool) []byte {
		s := &script{judge: binaryTree(3), words: 3, tokens: 7}
		jittery := func(ctx context.Context, r providers.Request) (providers.Response, error) {
			time.Sleep(rand.N(2 * time.Millisecond))
			return s.answer(ctx, r)
		}
		cfg := testConfig(3, "t1", "t2", "t3")
		cfg.Params.ParallelCalls = &parallel
		cfg.Params.Synthesis = nil
		cfg.SharedContext.Documents = []configs.Document{{Path: "decisions.md", Content: "what we decided"}}
		cfg.Pricing = map[string]configs.Price{"model-a": {Input: 1.5, Output: 3}, "model-j": {Input: 0.7, Output: 1.1}}
		seed := uint64(7)
		cfg.Params.Seed = &seed
		run, err := english(cfg, completer(jittery), promptSet(t), Options{Now: fixedClock}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(run, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := runOnce(true)
	for i, parallel := range []bool{true, true, false} {
		if again := runOnce(parallel); !bytes.Equal(first, again) {
			t.Fatalf("run %d (parallel %v) differs from the first:\n%s", i+2, parallel, golden.Diff(string(first), string(again)))
		}
	}
	var run struct {
		Topics []struct{ Synthesis string }
		Edits  string
		Usage  struct{ Cost float64 }
	}
	if err := json.Unmarshal(first, &run); err != nil {
		t.Fatal(err)
	}
	if len(run.Topics) != 3 || run.Topics[2].Synthesis == "" || run.Edits == "" || run.Usage.Cost == 0 {
		t.Errorf("synthesis, edits or cost missing: %+v", run)
	}
}
