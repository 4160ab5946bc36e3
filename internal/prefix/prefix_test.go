package prefix

import (
	"strings"
	"sync"
	"testing"
)

func TestAdd(t *testing.T) {
	t.Parallel()
	shared := strings.Repeat("s", 10*Block)
	tests := []struct {
		name  string
		sent  []string // under key "m" unless prefixed by "other:"
		key   string
		next  string
		wants int
	}{
		{name: "first prompt", next: shared, key: "m", wants: 0},
		{name: "same prompt again", sent: []string{shared}, key: "m", next: shared, wants: 10 * Block},
		{name: "shared head, new tail", sent: []string{shared + "a" + strings.Repeat("x", Block)}, key: "m",
			next: shared + "b" + strings.Repeat("x", Block), wants: 10 * Block},
		{name: "partial block does not count", sent: []string{shared + "abc"}, key: "m", next: shared + "abc", wants: 10 * Block},
		{name: "other key shares nothing", sent: []string{shared}, key: "n", next: shared, wants: 0},
		{name: "differs in the first block", sent: []string{"z" + shared}, key: "m", next: shared, wants: 0},
		{name: "shorter than a block", sent: []string{"hi"}, key: "m", next: "hi", wants: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b Book
			for _, s := range tt.sent {
				b.Add("m", s)
			}
			if got := b.Add(tt.key, tt.next); got != tt.wants {
				t.Errorf("Add = %d, want %d", got, tt.wants)
			}
		})
	}
}

// TestAddParts: a prompt given in parts counts as the parts joined, however
// they fall across blocks.
func TestAddParts(t *testing.T) {
	t.Parallel()
	whole := strings.Repeat("0123456789", 3*Block/10) + "tail"
	splits := [][]string{
		{whole},
		{whole[:1], whole[1:]},
		{whole[:Block], "", whole[Block:]},
		{whole[:Block-1], whole[Block-1 : Block+1], whole[Block+1:]},
		{whole[:7], whole[7 : 2*Block+3], whole[2*Block+3:]},
	}
	for _, parts := range splits {
		var b Book
		if got := b.Add("m", parts...); got != 0 {
			t.Errorf("first prompt in %d parts counts %d, want 0", len(parts), got)
		}
		if got, want := b.Add("m", whole), len(whole)/Block*Block; got != want {
			t.Errorf("prompt added in %d parts, then whole: %d, want %d", len(parts), got, want)
		}
		var c Book
		c.Add("m", whole)
		if got, want := c.Add("m", parts...), len(whole)/Block*Block; got != want {
			t.Errorf("prompt added whole, then in %d parts: %d, want %d", len(parts), got, want)
		}
	}
}

// TestAddLongestOfMany checks that the longest of several earlier prefixes
// counts, whichever was sent first.
func TestAddLongestOfMany(t *testing.T) {
	t.Parallel()
	var b Book
	head := strings.Repeat("h", 4*Block)
	b.Add("m", head+strings.Repeat("a", 4*Block))
	b.Add("m", head+strings.Repeat("b", 2*Block))
	if got, want := b.Add("m", head+strings.Repeat("a", 3*Block)+strings.Repeat("c", Block)), 7*Block; got != want {
		t.Errorf("Add = %d, want %d", got, want)
	}
}

// TestAddConcurrent: prompts sent at once each count a leading part of
// what they share, the totals add up what the calls returned, and every
// prefix is in the book once they are all done.
func TestAddConcurrent(t *testing.T) {
	t.Parallel()
	var b Book
	p := strings.Repeat("p", 8*Block)
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Go(func() { got[i] = b.Add("m", p) })
	}
	wg.Wait()
	sum := 0
	for _, n := range got {
		if n%Block != 0 || n > len(p) {
			t.Errorf("a call counts %d bytes of a %d-byte prompt", n, len(p))
		}
		sum += n
	}
	if sum > 7*len(p) || b.Totals()["m"] != sum {
		t.Errorf("calls found %v, totals %v; want at most %d in all, totals their sum", got, b.Totals(), 7*len(p))
	}
	if n := b.Add("m", p); n != len(p) {
		t.Errorf("a prompt sent after the others counts %d, want %d", n, len(p))
	}
}

// TestBounded: past its bound a Book forgets the oldest prefixes and
// remembers the newest.
func TestBounded(t *testing.T) {
	t.Parallel()
	b := Book{perShard: 4}
	old := strings.Repeat("Q", 4*Block)
	b.Add("m", old)
	for i := range 64 * shards {
		b.Add("m", strings.Repeat(string(rune('a'+i%26)), Block)+strings.Repeat("x", i%7+1))
		b.Add(strings.Repeat("k", i), strings.Repeat("f", Block)) // a block of another key
	}
	kept := 0
	for i := range b.shards {
		if n := len(b.shards[i].seen); n > 4 || n != len(b.shards[i].ring) {
			t.Fatalf("shard %d holds %d prefixes (ring %d), bound 4", i, n, len(b.shards[i].ring))
		}
		kept += len(b.shards[i].seen)
	}
	if got := b.Add("m", old); got != 0 {
		t.Errorf("an evicted prompt counts %d bytes shared, want 0", got)
	}
	recent := strings.Repeat("r", Block)
	b.Add("m", recent)
	if got := b.Add("m", recent); got != Block || kept == 0 {
		t.Errorf("a recent prompt counts %d, want %d (kept %d)", got, Block, kept)
	}
}

// TestTotalsOrderFree checks that the total per key does not depend on the
// order the prompts came in.
func TestTotalsOrderFree(t *testing.T) {
	t.Parallel()
	head := strings.Repeat("h", 3*Block)
	prompts := []string{head + strings.Repeat("a", 2*Block), head, head + strings.Repeat("a", Block) + strings.Repeat("b", Block)}
	orders := [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}}
	for _, order := range orders {
		var b Book
		for _, i := range order {
			b.Add("m", prompts[i])
		}
		if got, want := b.Totals()["m"], 7*Block; got != want {
			t.Errorf("order %v: total %d, want %d", order, got, want)
		}
	}
}
