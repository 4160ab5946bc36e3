package quality

import "math/rand/v2"

// Plurality returns the answer given most often (answers that are Same
// count together), a tie drawn from seed; "" when there is none.
func Plurality(answers []string, seed uint64) string {
	keys, top := leaders(answers)
	if len(top) == 0 {
		return ""
	}
	return keys[top[rand.New(rand.NewPCG(seed, 0x766f7465)).IntN(len(top))]]
}

// pluralityChance is the chance that Plurality of answers is want, over
// the draw of its tie: 1/k when want is one of the k answers tied for the
// most, else 0.
func pluralityChance(answers []string, want string) float64 {
	keys, top := leaders(answers)
	for _, i := range top {
		if Same(keys[i], want) {
			return 1 / float64(len(top))
		}
	}
	return 0
}

// leaders returns the distinct answers (Same ones counted together) and
// the indices of those given most often.
func leaders(answers []string) (keys []string, top []int) {
	counts := map[int]int{}
	for _, a := range answers {
		i := 0
		for i < len(keys) && !Same(keys[i], a) {
			i++
		}
		if i == len(keys) {
			keys = append(keys, a)
		}
		counts[i]++
	}
	best := 0
	for i := range keys {
		switch n := counts[i]; {
		case n > best:
			best, top = n, []int{i}
		case n == best:
			top = append(top, i)
		}
	}
	return keys, top
}
