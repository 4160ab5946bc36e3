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

func TestAddConcurrent(t *testing.T) {
	t.Parallel()
	var b Book
	p := strings.Repeat("p", 8*Block)
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = b.Add("m", p)
		}()
	}
	wg.Wait()
	zeros := 0
	for _, n := range got {
		if n == 0 {
			zeros++
		}
	}
	if zeros != 1 {
		t.Errorf("%d calls found nothing cached, want exactly the first: %v", zeros, got)
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
