// Package prefix measures how much of a prompt a provider could serve from
// its cache: the longest prefix of the prompt already sent earlier in the
// run under the same key (a model at an endpoint).
//
// Providers cache in blocks of tokens, so a Book counts in blocks of Block
// bytes: a prompt's cache-eligible length is the number of its leading
// whole blocks that an earlier prompt of the same key began with.
//
// Which call of two alike ones was first depends on timing, but the total
// per key does not: every distinct prefix counts once for each prompt that
// carries it but the first.
package prefix

import (
	"hash/maphash"
	"maps"
	"sync"
)

// Block is the granularity of the measure, in bytes (about 16 tokens).
const Block = 64

// Book remembers the prefixes sent per key. The zero value is ready to use
// and safe for concurrent use.
type Book struct {
	mu   sync.Mutex
	seed maphash.Seed
	seen map[string]map[uint64]struct{}
	sum  map[string]int
}

// Add records prompt as sent under key and returns how many of its leading
// bytes (a multiple of Block) an earlier prompt of the same key shared.
func (b *Book) Add(key, prompt string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen == nil {
		b.seen = map[string]map[uint64]struct{}{}
		b.sum = map[string]int{}
		b.seed = maphash.MakeSeed()
	}
	set := b.seen[key]
	if set == nil {
		set = map[uint64]struct{}{}
		b.seen[key] = set
	}
	var h maphash.Hash
	h.SetSeed(b.seed)
	matched, hit := 0, true
	for end := Block; end <= len(prompt); end += Block {
		h.WriteString(prompt[end-Block : end])
		sum := h.Sum64()
		if _, ok := set[sum]; ok && hit {
			matched = end
			continue
		}
		hit = false
		set[sum] = struct{}{}
	}
	b.sum[key] += matched
	return matched
}

// Totals returns the bytes that Add found shared, summed per key.
func (b *Book) Totals() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.sum)
}
