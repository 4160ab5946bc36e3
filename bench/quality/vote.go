package quality

import "math/rand/v2"

// Plurality returns the answer given most often (answers that are Same
// count together), a tie drawn from seed; "" when there is none.
func Plurality(answers []string, seed uint64) string {
	var keys []string
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
	best, top := 0, []int{}
	for i := range keys {
		switch n := counts[i]; {
		case n > best:
			best, top = n, []int{i}
		case n == best:
			top = append(top, i)
		}
	}
	if len(top) == 0 {
		return ""
	}
	return keys[top[rand.New(rand.NewPCG(seed, 0x766f7465)).IntN(len(top))]]
}
