// Package prefix measures how much of a prompt a provider could serve from
// its cache: the longest prefix of the prompt already sent earlier in the
// run under the same key (a model at an endpoint).
//
// Providers cache in blocks of tokens, so a Book counts in blocks of Block
// bytes: a prompt's cache-eligible length is the number of its leading
// whole blocks that an earlier prompt of the same key began with.
//
// Sent one after the other, prompts count the same in any order: every
// distinct prefix counts once for each prompt that carries it but the
// first. Prompts sent at the same moment may each miss a prefix the other
// is adding, as they would at a provider.
//
// A Book remembers at most MaxBlocks prefixes; past that it forgets the
// oldest, as a provider's cache does.
package prefix

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Block is the granularity of the measure, in bytes: about 64 tokens, half
// the 128-token steps in which OpenAI caches prefixes, and a quarter of
// the map operations of a finer block.
const Block = 256

// shards is how many locks share the prefixes: each prefix is kept, and
// checked, under the lock its hash picks.
const shards = 256

// MaxBlocks is how many prefixes a Book remembers (128 MiB of prompts'
// distinct text, in about 10 MB).
const MaxBlocks = 1 << 19

// Book remembers the prefixes sent per key. The zero value is ready to use
// and safe for concurrent use.
type Book struct {
	once   sync.Once
	seed   maphash.Seed
	shards [shards]shard
	sums   sync.Map // key → *atomic.Int64, the bytes found shared
	// perShard bounds each shard; 0: MaxBlocks / shards.
	perShard int
}

// shard is a set of prefix hashes that forgets its oldest past its bound.
type shard struct {
	mu   sync.Mutex
	seen map[uint64]struct{}
	ring []uint64 // the hashes in seen, oldest at next once full
	next int
}

// Add records the prompt made of parts, joined, as sent under key and
// returns how many of its leading bytes (a multiple of Block) an earlier
// prompt of the same key shared. The parts are hashed where they lie, not
// joined first.
func (b *Book) Add(key string, parts ...string) int {
	b.once.Do(func() {
		b.seed = maphash.MakeSeed()
		if b.perShard == 0 {
			b.perShard = MaxBlocks / shards
		}
	})
	// The key starts the hash, so one set serves every key.
	var h maphash.Hash
	h.SetSeed(b.seed)
	h.WriteString(key)
	h.WriteByte(0)
	matched, hit, size := 0, true, 0
	for _, part := range parts {
		for len(part) > 0 {
			n := min(len(part), Block-size%Block)
			h.WriteString(part[:n])
			part, size = part[n:], size+n
			if size%Block != 0 {
				continue
			}
			sum := h.Sum64()
			// Past the first miss every prefix is new to a provider's
			// cache, but it is added for the prompts to come.
			if b.shards[sum%shards].seenBefore(sum, b.perShard) && hit {
				matched = size
				continue
			}
			hit = false
		}
	}
	if matched > 0 {
		n, _ := b.sums.LoadOrStore(key, new(atomic.Int64))
		n.(*atomic.Int64).Add(int64(matched))
	}
	return matched
}

// seenBefore reports whether sum is in s, adding it if not.
func (s *shard) seenBefore(sum uint64, limit int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.seen[sum]; ok {
		return true
	}
	if s.seen == nil {
		s.seen = map[uint64]struct{}{}
	}
	s.seen[sum] = struct{}{}
	if len(s.ring) < limit {
		s.ring = append(s.ring, sum)
		return false
	}
	delete(s.seen, s.ring[s.next])
	s.ring[s.next] = sum
	s.next = (s.next + 1) % limit
	return false
}

// Totals returns the bytes that Add found shared, summed per key.
func (b *Book) Totals() map[string]int {
	m := map[string]int{}
	b.sums.Range(func(k, v any) bool {
		m[k.(string)] = int(v.(*atomic.Int64).Load())
		return true
	})
	return m
}
