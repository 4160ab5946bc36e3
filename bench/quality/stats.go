package quality

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/debatehq/debate/internal/stats"
)

// Interval is a 95 % confidence interval.
type Interval = stats.Interval

// bootstrapResamples is how many resamples PairedDiff draws.
const bootstrapResamples = 4000

// PairedDiff returns the mean of a[i]−b[i] over paired outcomes (1 correct,
// 0 not) and its 95 % percentile interval from a paired bootstrap drawn
// from seed: the same outcomes and seed give the same interval.
func PairedDiff(a, b []bool, seed uint64) (float64, Interval) {
	n := min(len(a), len(b))
	if n == 0 {
		return 0, Interval{Low: -1, High: 1}
	}
	d := make([]int, n)
	sum := 0
	for i := range n {
		d[i] = b2i(a[i]) - b2i(b[i])
		sum += d[i]
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	means := make([]float64, bootstrapResamples)
	for r := range means {
		s := 0
		for range n {
			s += d[rng.IntN(n)]
		}
		means[r] = float64(s) / float64(n)
	}
	slices.Sort(means)
	lo := means[int(0.025*float64(len(means)))]
	hi := means[int(math.Ceil(0.975*float64(len(means))))-1]
	return float64(sum) / float64(n), Interval{Low: lo, High: hi}
}

// McNemar returns the two-sided exact McNemar p-value of paired outcomes:
// the binomial test of the discordant pairs, those a got right and b wrong
// against those b got right and a wrong.
func McNemar(a, b []bool) float64 {
	var onlyA, onlyB int
	for i := range min(len(a), len(b)) {
		switch {
		case a[i] && !b[i]:
			onlyA++
		case b[i] && !a[i]:
			onlyB++
		}
	}
	n, k := onlyA+onlyB, min(onlyA, onlyB)
	if n == 0 {
		return 1
	}
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

// VoteAccuracy is the chance that a plurality vote of n independent
// voters, each right with probability p, is right, when no two wrong answers
// agree (as the demo's agents ensure): two right answers or more always win,
// and a lone right answer wins the n-way tie with chance 1/n.
func VoteAccuracy(n int, p float64) float64 {
	if n <= 0 {
		return 0
	}
	none := math.Pow(1-p, float64(n))
	one := float64(n) * p * math.Pow(1-p, float64(n-1))
	if n == 1 {
		return p
	}
	return 1 - none - one + one/float64(n)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
