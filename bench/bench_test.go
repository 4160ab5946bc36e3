package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/store"

	"github.com/debatehq/debate/internal/golden"
)

func TestTree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small batch workload")
	}
	tests := []struct {
		name string
		o    TreeOptions
	}{
		{"one level", TreeOptions{Topics: 3, Debaters: 2, Fanout: 1, Depth: 1, Concurrency: 2}},
		{"a tree under a tight cap", TreeOptions{Topics: 2, Debaters: 3, Fanout: 2, Depth: 3, Latency: 5 * time.Millisecond, Concurrency: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Dir = t.TempDir()
			r, err := Tree(context.Background(), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			wantNodes := nodesPerTopic(tt.o)
			wantCalls := tt.o.Topics * wantNodes * (2*tt.o.Debaters + 1)
			if r.Nodes != wantNodes || r.Calls != wantCalls || r.Requests != wantCalls {
				t.Errorf("nodes %d, calls %d, requests %d; want %d nodes and %d calls", r.Nodes, r.Calls, r.Requests, wantNodes, wantCalls)
			}
			if r.TopicsReported != tt.o.Topics || r.FailedNodes != 0 || r.Unfinished != 0 || r.Injected != 0 || r.Retries != 0 {
				t.Errorf("reported %d of %d topics, %d failed nodes, %d unfinished, %d faults, %d retries",
					r.TopicsReported, tt.o.Topics, r.FailedNodes, r.Unfinished, r.Injected, r.Retries)
			}
			if r.PeakInFlight < 1 || r.PeakInFlight > tt.o.Concurrency {
				t.Errorf("peak in flight %d, cap %d", r.PeakInFlight, tt.o.Concurrency)
			}
			if r.WallMS <= 0 || r.CPUPerCallMS <= 0 || r.PeakHeapMB <= 0 {
				t.Errorf("wall %v ms, CPU per call %v ms, heap %v MB: not measured", r.WallMS, r.CPUPerCallMS, r.PeakHeapMB)
			}
			if tt.o.Latency > 0 && r.Ratio < 1 {
				t.Errorf("ratio %.3f below 1: the bound %v ms is not a lower bound of wall %v ms", r.Ratio, r.BoundMS, r.WallMS)
			}
		})
	}
}

// TestTreeFaults injects faults into a third of the calls: every topic must
// still be reported, and the faults must show as retries and fallbacks.
func TestTreeFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a batch workload with timeouts")
	}
	o := TreeOptions{Topics: 4, Debaters: 3, Fanout: 2, Depth: 2, Concurrency: 16, Faults: 0.3, Seed: 7, Dir: t.TempDir()}
	r, err := Tree(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if r.TopicsReported != o.Topics {
		t.Errorf("%d of %d topics reported", r.TopicsReported, o.Topics)
	}
	if r.Injected == 0 || r.Retries == 0 || r.Requests <= r.Calls {
		t.Errorf("%d faults injected, %d retries, %d requests for %d calls: the faults did not show", r.Injected, r.Retries, r.Requests, r.Calls)
	}
	// A judge's answer without JSON is both a fault and an answered call.
	if r.Requests < r.Calls || r.Requests > r.Calls+r.Injected {
		t.Errorf("%d requests for %d answered calls and %d faults", r.Requests, r.Calls, r.Injected)
	}
	t.Logf("%d faults, %d retries, %d fallbacks, %d failed nodes", r.Injected, r.Retries, r.Fallbacks, r.FailedNodes)
}

func TestBounds(t *testing.T) {
	tests := []struct {
		name            string
		o               TreeOptions
		critical, bound time.Duration
	}{
		{"no binding cap", TreeOptions{Topics: 1, Debaters: 3, Fanout: 2, Depth: 3, Latency: 100 * time.Millisecond, Concurrency: 64},
			900 * time.Millisecond, 900 * time.Millisecond},
		// Stages of 60, 60, 20, 120, 120, 40, 240, 240 and 80 calls: the 840
		// calls from the second level on start after 3 latencies and take 14
		// waves of 64.
		{"SPEC's workload", TreeOptions{Topics: 20, Debaters: 3, Fanout: 2, Depth: 3, Latency: 100 * time.Millisecond, Concurrency: 64},
			900 * time.Millisecond, 1700 * time.Millisecond},
		{"one call at a time", TreeOptions{Topics: 2, Debaters: 2, Fanout: 1, Depth: 1, Latency: time.Second, Concurrency: 1},
			3 * time.Second, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			critical, bound := bounds(tt.o)
			if critical != tt.critical || bound != tt.bound {
				t.Errorf("critical path %v, bound %v; want %v and %v", critical, bound, tt.critical, tt.bound)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	good := TreeOptions{Topics: 1, Debaters: 2, Fanout: 1, Depth: 1, Concurrency: 1}
	tests := []struct {
		name string
		edit func(*TreeOptions)
		want string
	}{
		{"good", func(*TreeOptions) {}, ""},
		{"no topics", func(o *TreeOptions) { o.Topics = 0 }, "--topics must be from 1"},
		{"one debater", func(o *TreeOptions) { o.Debaters = 1 }, "--debaters must be from 2"},
		{"no fan-out", func(o *TreeOptions) { o.Fanout = 0 }, "--fanout"},
		{"too deep", func(o *TreeOptions) { o.Depth = 7 }, "--depth must be from 1 to 6 (got 7)"},
		{"negative latency", func(o *TreeOptions) { o.Latency = -time.Second }, "--latency"},
		{"no cap", func(o *TreeOptions) { o.Concurrency = 0 }, "--concurrency must be at least 1"},
		{"every call fails", func(o *TreeOptions) { o.Faults = 1 }, "--faults must be a share from 0 to below 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := good
			tt.edit(&o)
			err := o.Check()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		o    ServeOptions
		want string
	}{
		{ServeOptions{Writers: 1, Duration: time.Second}, ""},
		{ServeOptions{Writers: 0, Duration: time.Second}, "--writers must be from 1"},
		{ServeOptions{Writers: 1, Pollers: -1, Duration: time.Second}, "--pollers"},
		{ServeOptions{Writers: 1, Duration: time.Millisecond}, "--duration must be from 100ms"},
	} {
		err := tt.o.Check()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Check(%+v) = %v, want %q", tt.o, err, tt.want)
		}
	}
}

// TestServe drives a server with a tiny load, in this process and in a
// process of its own: no request fails, the writes are all stored with
// contiguous seqs, and every wake round is measured.
func TestServe(t *testing.T) {
	tests := []struct {
		name   string
		server Spawn
	}{
		{"in this process", nil},
		{"in a process of its own", helperServer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ServeOptions{Writers: 3, Pollers: 2, Duration: 300 * time.Millisecond, WakeRounds: 4, Dir: t.TempDir(), Server: tt.server}
			r, err := Serve(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Errors != 0 || !r.SeqChecked {
				t.Fatalf("%d errors (first: %s), seq contiguous %v", r.Errors, r.FirstError, r.SeqChecked)
			}
			if r.Writes.Count == 0 || r.Polls.Count == 0 || r.Writes.PerSec <= 0 || r.Writes.P50 > r.Writes.P99 || r.Writes.P99 > r.Writes.Max {
				t.Errorf("writes %+v, polls %+v", r.Writes, r.Polls)
			}
			if r.WakeIdle.Count != o.WakeRounds {
				t.Errorf("%d idle wake rounds, want %d", r.WakeIdle.Count, o.WakeRounds)
			}
			if r.InProcess != (tt.server == nil) {
				t.Errorf("in process %v", r.InProcess)
			}
			// A write cut by the end of the load may be stored without being
			// counted; nothing counted may be missing.
			motions := o.Writers
			if r.Arguments < r.Writes.Count+motions || r.Arguments > r.Writes.Count+2*motions {
				t.Errorf("%d arguments stored for %d writes counted on %d debates", r.Arguments, r.Writes.Count, motions)
			}
		})
	}
}

// TestServeChildFails: a server that ends before it listens is an error
// that quotes its stderr, and a server killed during the load is an error.
func TestServeChildFails(t *testing.T) {
	noServer := func([]string) (*exec.Cmd, error) {
		return exec.Command(os.Args[0], "-test.run=^TestHelperServe$", "-test.v"), nil // no helper variable: skips and exits
	}
	_, err := Serve(context.Background(), ServeOptions{Writers: 1, Duration: 200 * time.Millisecond, Dir: t.TempDir(), Server: noServer})
	if err == nil || !strings.Contains(err.Error(), "ended before it listened") {
		t.Errorf("a server that never listens: %v", err)
	}
}

// helperServer runs a protocol server in the test binary (TestHelperServe).
func helperServer(args []string) (*exec.Cmd, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServe$")
	cmd.Env = append(os.Environ(), "BENCH_HELPER_SERVE="+string(b))
	return cmd, nil
}

// TestHelperServe is not a test: it is the server TestServe starts in a
// process of its own, with debate serve's --addr, --db and --token flags,
// its "listening on" line and its stop on SIGTERM.
func TestHelperServe(t *testing.T) {
	raw := os.Getenv("BENCH_HELPER_SERVE")
	if raw == "" {
		t.Skip("runs only as a child process")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		t.Fatal(err)
	}
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	addr, db, token := fs.String("addr", "", ""), fs.String("db", "", ""), fs.String("token", "", "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, *db, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "helper: listening on http://%s\n", ln.Addr())
	err = errors.Join(server.New(st, server.Options{Token: *token}).Serve(ctx, ln), st.Close())
	if err != nil {
		t.Fatal(err)
	}
	os.Exit(0)
}

// TestText keeps the text reports as golden files.
func TestText(t *testing.T) {
	tr := &TreeReport{Version: ReportVersion, Nodes: 7, Calls: 980, Requests: 1203, WallMS: 1712.5, CriticalPathMS: 900, BoundMS: 1700,
		Ratio: 1.0074, PeakInFlight: 64, CPUPerCallMS: 0.2104, PeakHeapMB: 41.25, PeakRSSMB: 88.5, ReportsMS: 120.25, ReportsCPUMS: 95.5,
		TopicsReported: 20, Injected: 223, Retries: 180, Fallbacks: 9, FailedNodes: 1}
	tr.Options.Topics, tr.Options.Debaters, tr.Options.Fanout, tr.Options.Depth = 20, 3, 2, 3
	tr.Options.LatencyMS, tr.Options.Concurrency, tr.Options.Faults = 100, 64, 0.2
	golden.Assert(t, "testdata/tree.txt", []byte(tr.Text()))

	sr := &ServeReport{Version: ReportVersion, Writers: 32, Pollers: 32, DurationMS: 10003.2, GOMAXPROCS: 2,
		LoadBefore: "1.20 0.90 0.50", LoadAfter: "3.10 1.40 0.70",
		Writes:     Latencies{Count: 52000, PerSec: 5198.3, P50: 5.1, P99: 14.25, Max: 40.5},
		Polls:      Latencies{Count: 61000, PerSec: 6098.1, P50: 4.2, P99: 12.5, Max: 35},
		WakeLoaded: Latencies{Count: 50, P50: 3.5, P99: 9.25, Max: 9.25},
		WakeIdle:   Latencies{Count: 50, P50: 0.45, P99: 1.1, Max: 1.1},
		CPUPerReq:  0.151, ServerCPU: 0.102, LoadCPU: 0.049, Arguments: 52032, SeqChecked: true, Errors: 1, FirstError: "POST /debates/bench-3/arguments: HTTP 503"}
	golden.Assert(t, "testdata/serve.txt", []byte(sr.Text()))

	b, err := json.Marshal(sr)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"version":1`, `"writes":{"count":52000,"perSecond":5198.3,"p50Ms":5.1,"p99Ms":14.25`, `"wakeUnderLoad"`, `"seqContiguous":true`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
}
