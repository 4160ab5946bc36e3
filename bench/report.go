package bench

import (
	"fmt"
	"strings"
)

// ReportVersion is the version of the JSON reports; it changes when a field
// changes meaning or goes away.
const ReportVersion = 1

// Text lays the report out for a person, in 80 columns.
func (r *TreeReport) Text() string {
	var b strings.Builder
	o := r.Options
	fmt.Fprintf(&b, "bench tree: %d topics × %d nodes (fan-out %d, depth %d), %d debaters\n",
		o.Topics, r.Nodes, o.Fanout, o.Depth, o.Debaters)
	fmt.Fprintf(&b, "  latency %gms, cap %d", o.LatencyMS, o.Concurrency)
	if o.Faults > 0 {
		fmt.Fprintf(&b, ", faults %g", o.Faults)
	}
	if o.ContextTokens > 0 {
		fmt.Fprintf(&b, ", shared context %d tokens", o.ContextTokens)
	}
	b.WriteString("\n")
	row := func(name, format string, args ...any) {
		fmt.Fprintf(&b, "  %-21s "+format+"\n", append([]any{name}, args...)...)
	}
	row("calls", "%d answered, %d requests", r.Calls, r.Requests)
	row("wall time", "%s", msText(r.WallMS))
	row("critical path", "%s (levels × 3 calls × latency)", msText(r.CriticalPathMS))
	row("bound", "%s (the cap counted too)", msText(r.BoundMS))
	row("ratio", "%.3f (wall ÷ bound)", r.Ratio)
	row("peak calls in flight", "%d", r.PeakInFlight)
	row("CPU per call", "%.3fms (the run, fake API included; reports apart)", r.CPUPerCallMS)
	row("peak memory", "heap %.1f MB, RSS %.1f MB", r.PeakHeapMB, r.PeakRSSMB)
	row("prompt tokens", "%d, %d cache-eligible (share %.3f)", r.PromptTokens, r.CacheEligibleTokens, r.CacheShare)
	row("effective prompt", "%.0f tokens (fresh + ¼ × cache-eligible)", r.EffectivePromptTokens)
	row("reports", "%d of %d topics, written in %s (%s CPU)", r.TopicsReported, o.Topics, msText(r.ReportsMS), msText(r.ReportsCPUMS))
	if o.Faults > 0 {
		row("faults", "%d injected, %d retries, %d fallbacks", r.Injected, r.Retries, r.Fallbacks)
		row("failed", "%d nodes, %d topics unfinished", r.FailedNodes, r.Unfinished)
	}
	return b.String()
}

// Text lays the report out for a person, in 80 columns.
func (r *ServeReport) Text() string {
	var b strings.Builder
	where := "a server process"
	if r.InProcess {
		where = "a server in this process"
	}
	fmt.Fprintf(&b, "bench serve: %d writers + %d pollers for %s on %s,\n  GOMAXPROCS %d\n",
		r.Writers, r.Pollers, msText(r.DurationMS), where, r.GOMAXPROCS)
	fmt.Fprintf(&b, "  load average %s before, %s after\n", orNone(r.LoadBefore), orNone(r.LoadAfter))
	fmt.Fprintf(&b, "  %-16s %7s %8s %9s %9s %9s\n", "", "count", "rate", "p50", "p99", "max")
	lat := func(name string, l Latencies) {
		rate := ""
		if l.PerSec > 0 {
			rate = fmt.Sprintf("%.0f/s", l.PerSec)
		}
		fmt.Fprintf(&b, "  %-16s %7d %8s %7.2fms %7.2fms %7.2fms\n", name, l.Count, rate, l.P50, l.P99, l.Max)
	}
	lat("writes", r.Writes)
	lat("polls", r.Polls)
	lat("wake under load", r.WakeLoaded)
	lat("wake idle", r.WakeIdle)
	if r.InProcess {
		fmt.Fprintf(&b, "  CPU per request  %.3fms (server and load generator)\n", r.CPUPerReq)
	} else {
		fmt.Fprintf(&b, "  CPU per request  %.3fms: server %.3fms, load generator %.3fms\n", r.CPUPerReq, r.ServerCPU, r.LoadCPU)
	}
	fmt.Fprintf(&b, "  arguments stored %d, seq contiguous: %v\n", r.Arguments, r.SeqChecked)
	if r.Errors > 0 {
		fmt.Fprintf(&b, "  errors           %d, first: %.55s\n", r.Errors, r.FirstError)
	}
	return b.String()
}

func msText(v float64) string {
	if v >= 10000 {
		return fmt.Sprintf("%.2fs", v/1000)
	}
	return fmt.Sprintf("%.1fms", v)
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
