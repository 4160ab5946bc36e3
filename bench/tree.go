// Package bench makes the program's performance figures reproducible
// (debate bench). Tree runs a config file through batch.Run, the entry
// "debate run" calls — the providers' clients, the engine with its journal,
// the reports — against the scripted model (providers/scripted) served on
// loopback with a fixed latency and a fault mix; Serve drives a protocol server over
// HTTP the way vjcspy/aweave's agents do.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TreeOptions describe a generated batch workload. Every topic has the same
// tree: each node above the last level splits into Fanout children, so a
// topic has 1 + Fanout + … + Fanout^(Depth-1) nodes of 2×Debaters + 1 calls.
type TreeOptions struct {
	Topics      int
	Debaters    int
	Fanout      int
	Depth       int           // levels, params.maxRounds
	Latency     time.Duration // of every answer of the fake
	Concurrency int           // the run's cap on calls in flight
	Faults      float64       // share of calls that fail, from 0 to 1
	// ContextTokens is the size of a shared context (sharedContext.inline)
	// every topic carries, in tokens of four bytes; 0 for none.
	ContextTokens int
	Seed          uint64 // of the fault picks
	// Dir is the work folder (config, journal, reports); a temporary one,
	// removed afterwards, when empty.
	Dir string
}

// Check reports the first option out of range, naming its flag.
func (o TreeOptions) Check() error {
	switch {
	case o.Topics < 1 || o.Topics > 10000:
		return fmt.Errorf("--topics must be from 1 to 10000 (got %d)", o.Topics)
	case o.Debaters < 2 || o.Debaters > 26:
		return fmt.Errorf("--debaters must be from 2 to 26 (got %d)", o.Debaters)
	case o.Fanout < 1 || o.Fanout > 10:
		return fmt.Errorf("--fanout must be from 1 to 10 (got %d)", o.Fanout)
	case o.Depth < 1 || o.Depth > 6:
		return fmt.Errorf("--depth must be from 1 to 6 (got %d)", o.Depth)
	case o.Latency < 0 || o.Latency > time.Minute:
		return fmt.Errorf("--latency must be from 0 to 1m (got %v)", o.Latency)
	case o.Concurrency < 1:
		return fmt.Errorf("--concurrency must be at least 1 (got %d)", o.Concurrency)
	case o.ContextTokens < 0 || o.ContextTokens > 1_000_000:
		return fmt.Errorf("--context-tokens must be from 0 to 1000000 (got %d)", o.ContextTokens)
	case !(o.Faults >= 0 && o.Faults < 1):
		return fmt.Errorf("--faults must be a share from 0 to below 1, e.g. 0.2 (got %v)", o.Faults)
	}
	return nil
}

// TreeReport is what Tree measured. Durations are in milliseconds.
type TreeReport struct {
	Version int `json:"version"` // ReportVersion
	Options struct {
		Topics      int     `json:"topics"`
		Debaters    int     `json:"debaters"`
		Fanout      int     `json:"fanout"`
		Depth       int     `json:"depth"`
		LatencyMS   float64 `json:"latencyMs"`
		Concurrency int     `json:"concurrency"`
		Faults      float64 `json:"faults"`
		// ContextTokens is the size of the shared context, in tokens.
		ContextTokens int `json:"contextTokens,omitempty"`
	} `json:"options"`
	Nodes    int     `json:"nodes"`    // in every topic's tree
	Calls    int     `json:"calls"`    // model calls answered (run usage)
	Requests int     `json:"requests"` // HTTP requests the fake served, retries included
	WallMS   float64 `json:"wallMs"`
	// CriticalPathMS is levels × 3 dependent calls × latency; BoundMS the
	// lower bound on wall time once the cap is counted too (see bound).
	CriticalPathMS float64 `json:"criticalPathMs"`
	BoundMS        float64 `json:"boundMs"`
	Ratio          float64 `json:"ratio"` // wall ÷ bound
	// PeakInFlight is counted by the fake API: a request the client gave up
	// on (a timeout) counts until the fake sees the connection go.
	PeakInFlight int `json:"peakInFlight"`
	// CPUPerCallMS is the process's CPU time during the run, until its
	// last topic finished, ÷ requests: the engine, prompts, journal and
	// HTTP client, and the fake server too. The reports, written once per
	// run, are ReportsCPUMS.
	CPUPerCallMS float64 `json:"cpuPerCallMs"`
	PeakHeapMB   float64 `json:"peakHeapMB"` // heap objects, sampled every 10ms
	PeakRSSMB    float64 `json:"peakRssMB"`  // the process's high-water mark (Linux)
	ReportsMS    float64 `json:"reportsMs"`  // writing the reports after the run
	ReportsCPUMS float64 `json:"reportsCpuMs"`

	TopicsReported int `json:"topicsReported"` // topics with a report written
	Injected       int `json:"faultsInjected"` // requests answered with a fault
	Retries        int `json:"retries"`        // requests repeating an earlier one
	Fallbacks      int `json:"fallbacks"`
	FailedNodes    int `json:"failedNodes"`
	Unfinished     int `json:"unfinishedTopics"` // topics neither converged nor forced

	// PromptTokens are the run's prompt tokens; CacheEligibleTokens those
	// in a prefix already sent to the same model and endpoint.
	PromptTokens        int `json:"promptTokens"`
	CacheEligibleTokens int `json:"cacheEligibleTokens"`
	// CacheShare is CacheEligibleTokens ÷ PromptTokens.
	CacheShare float64 `json:"cacheShare"`
	// EffectivePromptTokens prices cache-eligible tokens at a quarter of a
	// fresh one, a typical cached price: fresh + ¼ × cache-eligible.
	EffectivePromptTokens float64 `json:"effectivePromptTokens"`
}

// lastCPU keeps the process's CPU time when the last topic finished.
type lastCPU struct {
	mu  sync.Mutex
	cpu time.Duration
}

// event is a batch run's Events: each finished topic takes the reading.
func (l *lastCPU) event(ev tree.Event) {
	if ev.Kind != tree.TopicFinished {
		return
	}
	t := testkit.CPUTime()
	l.mu.Lock()
	l.cpu = max(l.cpu, t)
	l.mu.Unlock()
}

func (l *lastCPU) at() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cpu
}

// Tree runs the workload and measures it.
func Tree(ctx context.Context, o TreeOptions) (*TreeReport, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "debate-bench-")
		if err != nil {
			return nil, fmt.Errorf("bench tree: %w", err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	timeout := max(10*o.Latency, 2*time.Second)
	wl := &workload{fanout: o.Fanout, faults: o.Faults, timeout: timeout, rng: rand.New(rand.NewPCG(o.Seed, 1))}
	fake := scripted.New(scripted.WithLatency(o.Latency), scripted.WithScript(wl.reply), scripted.WithoutLog())
	base, stop, err := loopback.Serve(fake)
	if err != nil {
		return nil, fmt.Errorf("bench tree: start the fake API: %w", err)
	}
	defer stop()

	path := filepath.Join(dir, "bench.jsonc")
	if err := writeConfig(path, o, base+"/v1", timeout); err != nil {
		return nil, err
	}
	cfg, err := configs.Load(path, configs.Options{})
	if err != nil {
		return nil, fmt.Errorf("bench tree: the generated config: %w", err)
	}
	peak := sampleHeap(10 * time.Millisecond)
	var ran lastCPU
	cpu0 := testkit.CPUTime()
	res, err := batch.Run(ctx, cfg, batch.Options{Events: ran.event})
	done, cpu := time.Now(), testkit.CPUTime()-cpu0
	peakHeap := peak()
	if res == nil {
		return nil, fmt.Errorf("bench tree: run: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("bench tree: %w", err)
	}
	run, runErr := res.Run, res.Err
	wall, reports := run.FinishedAt.Sub(run.StartedAt), done.Sub(run.FinishedAt)

	r := &TreeReport{Version: ReportVersion, Nodes: nodesPerTopic(o), Calls: run.Usage.Calls, Requests: fake.Count(),
		WallMS: ms(wall), PeakInFlight: fake.MaxInFlight(), ReportsMS: ms(reports),
		PeakHeapMB: mb(peakHeap), PeakRSSMB: mb(peakRSS()),
		Injected: int(wl.injected.Load()), Retries: int(wl.retries.Load())}
	r.Options.Topics, r.Options.Debaters, r.Options.Fanout, r.Options.Depth = o.Topics, o.Debaters, o.Fanout, o.Depth
	r.Options.LatencyMS, r.Options.Concurrency, r.Options.Faults = ms(o.Latency), o.Concurrency, o.Faults
	r.Options.ContextTokens = o.ContextTokens
	u := run.Usage
	r.PromptTokens, r.CacheEligibleTokens, r.CacheShare = u.PromptTokens, u.CacheEligiblePromptTokens, u.CacheShare()
	r.EffectivePromptTokens = float64(u.PromptTokens-u.CacheEligiblePromptTokens) + float64(u.CacheEligiblePromptTokens)/4
	critical, bound := bounds(o)
	r.CriticalPathMS, r.BoundMS = ms(critical), ms(bound)
	if bound > 0 {
		r.Ratio = float64(wall) / float64(bound)
	}
	if at := ran.at(); at > 0 && r.Requests > 0 {
		r.CPUPerCallMS, r.ReportsCPUMS = ms(at-cpu0)/float64(r.Requests), ms(cpu0+cpu-at)
	}
	for _, t := range run.Topics {
		r.Fallbacks += len(t.Fallbacks)
		t.Root.Walk(func(n *tree.Node) {
			if n.Status == tree.Failed {
				r.FailedNodes++
			}
		})
		if t.Status != tree.Converged && t.Status != tree.Forced {
			r.Unfinished++
		}
	}
	r.TopicsReported = topicReports(res.Files, run)
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return r, fmt.Errorf("bench tree: run: %w", runErr)
	}
	return r, ctx.Err()
}

// writeConfig writes the workload as a config file, the way a user would.
func writeConfig(path string, o TreeOptions, baseURL string, timeout time.Duration) error {
	type participant struct {
		ID       string `json:"id"`
		Label    string `json:"label"`
		Model    string `json:"model"`
		Fallback string `json:"fallback"`
	}
	type topic struct {
		ID         string `json:"id"`
		Title      string `json:"title"`
		Background string `json:"background"`
	}
	off := false
	cfg := map[string]any{
		"api":      map[string]any{"baseURL": baseURL, "apiKey": "bench-key", "timeout": timeout.Milliseconds()},
		"reviewer": participant{ID: "judge", Label: "Judge", Model: judgeModel, Fallback: judgeFallback},
		"params":   map[string]any{"maxRounds": o.Depth, "concurrency": o.Concurrency, "synthesis": &off},
		// Short backoff: the bench measures the engine, not the waits.
		"fallback": map[string]any{"retryDelay": 10},
		"output":   map[string]any{"dir": filepath.Join(filepath.Dir(path), "out"), "format": []string{"markdown"}},
	}
	var debaters []participant
	for i := range o.Debaters {
		debaters = append(debaters, participant{ID: fmt.Sprintf("party-%d", i+1), Label: fmt.Sprintf("Party %c", 'A'+i),
			Model: fmt.Sprintf("bench-model-%d", i+1), Fallback: fmt.Sprintf("bench-fallback-%d", i+1)})
	}
	cfg["debaters"] = debaters
	var topics []topic
	for i := range o.Topics {
		id := fmt.Sprintf("t%04d", i+1)
		topics = append(topics, topic{ID: id, Title: fmt.Sprintf("Bench topic %d %s %s", i+1, topicMark(id), mark(tree.RootID)),
			Background: "A generated topic: every node above the last level splits into the same number of divergences."})
	}
	cfg["topics"] = topics
	if o.ContextTokens > 0 {
		cfg["sharedContext"] = map[string]any{"inline": sharedContext(o.ContextTokens)}
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("bench tree: config: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("bench tree: %w", err)
	}
	return nil
}

// sharedContext returns a generated design document of about n tokens
// (four bytes each), numbered so that no two of its lines are alike.
func sharedContext(n int) string {
	var b strings.Builder
	for i := 1; b.Len() < 4*n; i++ {
		fmt.Fprintf(&b, "%d. Decision %d: every service keeps its own store and publishes its changes.\n", i, i)
	}
	return b.String()[:4*n]
}

func nodesPerTopic(o TreeOptions) int {
	n, level := 0, 1
	for range o.Depth {
		n += level
		level *= o.Fanout
	}
	return n
}

// bounds returns the critical path (levels × 3 dependent calls × latency)
// and the lower bound on the run's wall time once the cap on calls in flight
// is counted: every call of a node's stage (positions, rebuttals, judge)
// waits for the stage before, so for each stage k the calls of stage k and
// after cannot start before k-1 latencies and need at least
// ceil(calls ÷ cap) latencies once started. The bound is the largest of
// these; without a binding cap it is the critical path.
func bounds(o TreeOptions) (critical, bound time.Duration) {
	var stages []int
	nodes := o.Topics
	for range o.Depth {
		stages = append(stages, nodes*o.Debaters, nodes*o.Debaters, nodes)
		nodes *= o.Fanout
	}
	critical = time.Duration(len(stages)) * o.Latency
	rest := 0
	for k := len(stages) - 1; k >= 0; k-- {
		rest += stages[k]
		waves := (rest + o.Concurrency - 1) / o.Concurrency
		bound = max(bound, time.Duration(k+waves)*o.Latency)
	}
	return critical, bound
}

// topicReports counts the topics whose report file was written.
func topicReports(files []string, run *tree.Run) int {
	written := map[string]bool{}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > 0 {
			written[filepath.Base(f)] = true
		}
	}
	n := 0
	for i := range run.Topics {
		if written[output.TopicFile(&run.Topics[i])] {
			n++
		}
	}
	return n
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
