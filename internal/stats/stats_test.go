package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilson checks the intervals of Newcombe (1998), Statistics in
// Medicine 17:857–872, table II, method 3.
func TestWilson(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k, n     int
		low, hig float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tt := range tests {
		got := Wilson(tt.k, tt.n)
		if !near(got.Low, tt.low, 5e-5) || !near(got.High, tt.hig, 5e-5) {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tt.k, tt.n, got.Low, got.High, tt.low, tt.hig)
		}
	}
}
