package bench

import (
	"fmt"
	"strings"
)

// ReportVersion is the version of the JSON reports; it changes when a field
// changes meaning or goes away.
const ReportVersion = 1

// Text lays the report out for a person.
func (r *TreeReport) Text() string {
	var b strings.Builder
	o := r.Options
	fmt.Fprintf(&b, "bench tree: %d topics × %d nodes (fan-out %d, depth %d), %d debaters, latency %gms, cap %d",
		o.Topics, r.Nodes, o.Fanout, o.Depth, o.Debaters, o.LatencyMS, o.Concurrency)
	if o.Faults > 0 {
		fmt.Fprintf(&b, ", faults %g", o.Faults)
	}
	b.WriteString("\n")
	row := func(name, format string, args ...any) {
		fmt.Fprintf(&b, "  %-22s "+format+"\n", append([]any{name}, args...)...)
	}
	row("calls", "%d answered, %d requests", r.Calls, r.Requests)
	row("wall time", "%s", msText(r.WallMS))
	row("critical path", "%s (levels × 3 calls × latency)", msText(r.CriticalPathMS))
	row("bound", "%s (the cap counted too)", msText(r.BoundMS))
	row("ratio", "%.3f (wall ÷ bound)", r.Ratio)
	row("peak calls in flight", "%d", r.PeakInFlight)
	row("CPU per call", "%.3fms (whole process: engine, client, journal, fake API)", r.CPUPerCallMS)
	row("peak memory", "heap %.1f MB, RSS %.1f MB", r.PeakHeapMB, r.PeakRSSMB)
	row("reports", "%d of %d topics, written in %s", r.TopicsReported, o.Topics, msText(r.ReportsMS))
	if o.Faults > 0 {
		row("faults", "%d injected, %d retries, %d fallbacks, %d failed nodes, %d unfinished topics",
			r.Injected, r.Retries, r.Fallbacks, r.FailedNodes, r.Unfinished)
	}
	return b.String()
}

// Text lays the report out for a person.
func (r *ServeReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "bench serve: %d writers + %d pollers for %s on loopback, GOMAXPROCS %d, load average %s → %s\n",
		r.Writers, r.Pollers, msText(r.DurationMS), r.GOMAXPROCS, orNone(r.LoadBefore), orNone(r.LoadAfter))
	lat := func(name string, l Latencies) {
		rate := ""
		if l.PerSec > 0 {
			rate = fmt.Sprintf("%8.0f/s", l.PerSec)
		}
		fmt.Fprintf(&b, "  %-18s %7d %10s  p50 %7.2fms  p99 %7.2fms  max %7.2fms\n", name, l.Count, rate, l.P50, l.P99, l.Max)
	}
	lat("writes", r.Writes)
	lat("polls", r.Polls)
	lat("wake under load", r.WakeLoaded)
	lat("wake idle", r.WakeIdle)
	fmt.Fprintf(&b, "  CPU per request    %.3fms (server and load generator)\n", r.CPUPerReq)
	fmt.Fprintf(&b, "  arguments stored   %d, seq contiguous: %v\n", r.Arguments, r.SeqChecked)
	if r.Errors > 0 {
		fmt.Fprintf(&b, "  errors             %d, first: %s\n", r.Errors, r.FirstError)
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
