package configs

import (
	"math"
	"testing"
)

// TestPriceCost: prompt tokens served from the cache cost the cachedInput
// price, or the input price when there is none, and never more of them
// than the prompt held.
func TestPriceCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                       string
		price                      Price
		prompt, cached, completion int
		want                       float64
	}{
		{"cached at its own price", Price{Input: 2, CachedInput: 0.5, Output: 8}, 1_000_000, 400_000, 100_000, 0.6*2 + 0.4*0.5 + 0.1*8},
		{"cached at the input price when none is given", Price{Input: 2, Output: 8}, 1_000_000, 400_000, 100_000, 2 + 0.8},
		{"no more cached than prompted", Price{Input: 2, CachedInput: 0.5, Output: 8}, 1_000_000, 3_000_000, 0, 0.5},
		{"nothing used", Price{Input: 2, Output: 8}, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.price.Cost(tt.prompt, tt.cached, tt.completion); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Cost = %v, want %v", got, tt.want)
			}
		})
	}
}
