package stats

import "math"

// tail95 is the chance each tail of a two-sided 95 % test leaves out.
const tail95 = 0.025

// Tails returns the chances that a binomial count of n trials of chance p
// is at most k and at least k: P(X ≤ k) and P(X ≥ k), exactly (to the
// precision of a float64), not by a normal approximation.
func Tails(k, n int, p float64) (below, above float64) {
	switch {
	case n <= 0 || k < 0 || k > n:
		return math.NaN(), math.NaN()
	case p <= 0:
		return 1, boolFloat(k == 0)
	case p >= 1:
		return boolFloat(k == n), 1
	}
	below, above = 1, 1
	if k < n {
		below = betaInc(float64(n-k), float64(k+1), 1-p)
	}
	if k > 0 {
		above = betaInc(float64(k), float64(n-k+1), p)
	}
	return below, above
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Excludes reports whether k successes in n trials are too many or too few
// for a chance of p at 95 %: whether either binomial tail from k holds less
// than 2.5 %, which is when the exact (Clopper–Pearson) interval of k in n
// leaves p out. No count of fewer than MinTrials(p) trials excludes p.
func Excludes(k, n int, p float64) bool {
	if n <= 0 || k < 0 || k > n || math.IsNaN(p) {
		return false
	}
	below, above := Tails(k, n, p)
	return below < tail95 || above < tail95
}

// MinTrials returns the fewest trials from which some count can exclude a
// chance of p at 95 % (Excludes): all successes or none, whichever is the
// less likely under p. A chance of 1/3 takes 4 trials, one of 1/2 takes 6.
func MinTrials(p float64) int {
	q := min(p, 1-p)
	if q <= 0 || math.IsNaN(q) {
		return 1
	}
	return int(math.Floor(math.Log(tail95)/math.Log(q))) + 1
}

// ClopperPearson returns the exact 95 % interval of k successes in n
// trials: the chances under which neither binomial tail from k holds less
// than 2.5 %. With no trials it is the whole of 0–1.
func ClopperPearson(k, n int) Interval {
	if n <= 0 || k < 0 || k > n {
		return Interval{0, 1}
	}
	iv := Interval{0, 1}
	if k > 0 {
		// P(X ≥ k) grows with the chance: the low end is where it is 2.5 %.
		iv.Low = solve(func(p float64) bool { _, above := Tails(k, n, p); return above < tail95 })
	}
	if k < n {
		// P(X ≤ k) falls as the chance grows: the high end is where it is 2.5 %.
		iv.High = solve(func(p float64) bool { below, _ := Tails(k, n, p); return below >= tail95 })
	}
	return iv
}

// solve returns the chance in 0–1 where below turns from true to false,
// by bisection to 1e-12.
func solve(below func(p float64) bool) float64 {
	lo, hi := 0.0, 1.0
	for hi-lo > 1e-12 {
		mid := (lo + hi) / 2
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// betaInc is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), on the side where it converges fast.
func betaInc(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	lab, _ := math.Lgamma(a + b)
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

// betaFraction evaluates the continued fraction of the incomplete beta
// function; it converges in about the square root of max(a, b) steps.
func betaFraction(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	clamp := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c, d := 1.0, 1/clamp(1-(a+b)*x/(a+1))
	h := d
	for m := 1.0; m < 1e7; m++ {
		even := m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		d = 1 / clamp(1+even*d)
		c = clamp(1 + even/c)
		h *= d * c
		odd := -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		d = 1 / clamp(1+odd*d)
		c = clamp(1 + odd/c)
		step := d * c
		h *= step
		if math.Abs(step-1) < eps {
			break
		}
	}
	return h
}
