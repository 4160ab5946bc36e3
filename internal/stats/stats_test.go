package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestIntervals checks the intervals of Newcombe (1998), Statistics in
// Medicine 17:857–872, table II: method 3 (Wilson) and method 5 (exact,
// Clopper–Pearson).
func TestIntervals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method   string
		of       func(k, n int) Interval
		k, n     int
		low, hig float64
	}{
		{"Wilson", Wilson, 81, 263, 0.2553, 0.3662},
		{"Wilson", Wilson, 15, 148, 0.0624, 0.1605},
		{"Wilson", Wilson, 0, 20, 0, 0.1611},
		{"Wilson", Wilson, 1, 29, 0.0061, 0.1718},
		{"ClopperPearson", ClopperPearson, 81, 263, 0.2527, 0.3676},
		{"ClopperPearson", ClopperPearson, 15, 148, 0.0578, 0.1617},
		{"ClopperPearson", ClopperPearson, 0, 20, 0, 0.1684},
		{"ClopperPearson", ClopperPearson, 1, 29, 0.0009, 0.1776},
		{"ClopperPearson", ClopperPearson, 2, 2, 0.1581, 1},
	}
	for _, tt := range tests {
		got := tt.of(tt.k, tt.n)
		if !near(got.Low, tt.low, 5e-5) || !near(got.High, tt.hig, 5e-5) {
			t.Errorf("%s(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tt.method, tt.k, tt.n, got.Low, got.High, tt.low, tt.hig)
		}
	}
}

// TestTails compares the tails with the sum of the binomial's terms.
func TestTails(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 5, 17, 60} {
		for _, p := range []float64{0.01, 1.0 / 3, 0.5, 0.9} {
			terms := make([]float64, n+1)
			for k := range terms {
				lc, _ := math.Lgamma(float64(n + 1))
				lk, _ := math.Lgamma(float64(k + 1))
				lnk, _ := math.Lgamma(float64(n - k + 1))
				terms[k] = math.Exp(lc - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
			}
			for k := 0; k <= n; k++ {
				var below, above float64
				for i, x := range terms {
					if i <= k {
						below += x
					}
					if i >= k {
						above += x
					}
				}
				gb, ga := Tails(k, n, p)
				if !near(gb, below, 1e-12) || !near(ga, above, 1e-12) {
					t.Errorf("Tails(%d, %d, %.3f) = %g, %g; the terms sum to %g, %g", k, n, p, gb, ga, below, above)
				}
			}
		}
	}
}

// TestExcludes: the exact test flags k of n exactly when the exact interval
// leaves p out, and never from fewer than MinTrials(p) trials.
func TestExcludes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k, n int
		p    float64
		want bool
	}{
		{2, 2, 1.0 / 3, false}, // an unbiased judge does this 11 % of the time
		{3, 3, 1.0 / 3, false},
		{4, 4, 1.0 / 3, true},
		{40, 40, 0.5, true},
		{5, 5, 0.5, false},
		{6, 6, 0.5, true},
		{0, 9, 1.0 / 3, false},
		{0, 10, 1.0 / 3, true},
		{14, 40, 1.0 / 3, false},
	}
	for _, tt := range tests {
		if got := Excludes(tt.k, tt.n, tt.p); got != tt.want {
			t.Errorf("Excludes(%d, %d, %.3f) = %v, want %v", tt.k, tt.n, tt.p, got, tt.want)
		}
	}
	for _, p := range []float64{0.05, 0.2, 1.0 / 3, 0.5, 2.0 / 3, 0.97} {
		m := MinTrials(p)
		for n := 1; n <= m; n++ {
			any := false
			for k := 0; k <= n; k++ {
				iv := ClopperPearson(k, n)
				if Excludes(k, n, p) != !iv.Contains(p) {
					t.Errorf("p %.3f, %d of %d: Excludes %v but the interval %.4f–%.4f", p, k, n, Excludes(k, n, p), iv.Low, iv.High)
				}
				any = any || Excludes(k, n, p)
			}
			if any != (n == m) {
				t.Errorf("p %.3f: %d trials can exclude it: %v; MinTrials says %d", p, n, any, m)
			}
		}
	}
	if got := MinTrials(1.0 / 3); got != 4 {
		t.Errorf("MinTrials(1/3) = %d, want 4", got)
	}
}
