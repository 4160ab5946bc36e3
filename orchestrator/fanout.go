package orchestrator

import (
	"fmt"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"
)

// each runs fn for every index in [0,n), all at once when parallel, else one
// after the other, and returns when all have ended. A panic in fn(i) does not
// stop the others: it comes back as the i-th entry, nil for the indices that
// did not panic. Results belong in slots indexed by i, never in completion
// order.
func each(n int, parallel bool, fn func(i int)) []*panics.Recovered {
	out := make([]*panics.Recovered, n)
	if !parallel {
		for i := range n {
			out[i] = panics.Try(func() { fn(i) })
		}
		return out
	}
	var wg conc.WaitGroup
	for i := range n {
		wg.Go(func() { out[i] = panics.Try(func() { fn(i) }) })
	}
	wg.Wait()
	return out
}

// firstPanic returns the first panic of ps, nil if there is none.
func firstPanic(ps []*panics.Recovered) *panics.Recovered {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

// panicValue says what a recovered panic was, without its stack. A panic
// that conc carried from another goroutine is unwrapped to the original.
func panicValue(p *panics.Recovered) string {
	v := p.Value
	for {
		inner, ok := v.(*panics.Recovered)
		if !ok {
			break
		}
		v = inner.Value
	}
	if err, ok := v.(error); ok {
		return err.Error()
	}
	return fmt.Sprint(v)
}
