// Package stats holds the small statistics the reports share: a proportion's
// 95 % Wilson score interval, and a count out of a total with it.
package stats

import "math"

// z95 is the standard normal quantile of a two-sided 95 % interval.
const z95 = 1.959963984540054

// Interval is a 95 % confidence interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Contains reports whether x lies within the interval.
func (i Interval) Contains(x float64) bool { return i.Low <= x && x <= i.High }

// Wilson returns the 95 % Wilson score interval of k successes in n trials;
// with no trials it is the whole of 0–1.
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{max(0, centre-half), min(1, centre+half)}
}

// Share is a count out of a total with its 95 % Wilson interval.
type Share struct {
	Count    int      `json:"count"`
	Of       int      `json:"of"`
	Interval Interval `json:"interval"`
}

// NewShare returns k out of n with its interval.
func NewShare(k, n int) Share { return Share{Count: k, Of: n, Interval: Wilson(k, n)} }

// Value is the share as a fraction, 0 of nothing.
func (s Share) Value() float64 {
	if s.Of == 0 {
		return 0
	}
	return float64(s.Count) / float64(s.Of)
}
