package quality

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The goods of the generated passage task: each problem's passage is a
// numbered depot's ledger, one sentence per good, and asks for one good's
// count.
var goods = []string{"pears", "apples", "plums", "lemons", "cherries", "figs", "quinces", "apricots"}

// Passage task counts lie from passageLow to passageHigh; depots are
// numbered from 1000, in a shuffled block of maxDepot.
const (
	passageLow, passageHigh = 10, 99
	maxDepot                = 9000
)

// passageLine is the ledger's sentence on a count of goods: the sentence a
// debater quotes.
func passageLine(depot, count int, good string) string {
	return fmt.Sprintf("The ledger of depot %d records %d crates of %s.", depot, count, good)
}

// Passages returns n problems of the passage task, drawn from seed: a short
// ledger of four goods, each with its own count, and a question on one of
// them that only the ledger answers. Every problem has a depot of its own,
// so no two ask the same question.
func Passages(n int, seed uint64) []Problem {
	rng := rand.New(rand.NewPCG(seed, 0x70617373616765))
	depots := rng.Perm(maxDepot)
	ps := make([]Problem, n)
	for i := range ps {
		depot := 1000 + depots[i%maxDepot] + maxDepot*(i/maxDepot)
		kinds := rng.Perm(len(goods))[:4]
		counts := rng.Perm(passageHigh - passageLow + 1)[:len(kinds)]
		lines := []string{fmt.Sprintf("Stock-taking at depot %d, week %d.", depot, 1+rng.IntN(52))}
		for k, g := range kinds {
			lines = append(lines, passageLine(depot, passageLow+counts[k], goods[g]))
		}
		ask := rng.IntN(len(kinds))
		ps[i] = Problem{
			ID:       fmt.Sprintf("passage-%04d", i+1),
			Question: fmt.Sprintf("According to the passage, how many crates of %s does the ledger of depot %d record?", goods[kinds[ask]], depot),
			Answer:   strconv.Itoa(passageLow + counts[ask]),
			Passage:  strings.Join(lines, "\n") + "\n",
		}
	}
	return ps
}
