// Package testkit holds what several packages' tests and the bench share:
// a writer safe for concurrent use that signals when a pattern appears in
// it, the process's CPU time, which benchmarks report per operation, and
// the programs a test needs, whose absence fails it under CI.
package testkit

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Buffer is a writer safe for concurrent use: a log sink or a command's
// output that a test reads while handlers or a command write it. The zero
// value is ready to use.
type Buffer struct {
	mu      sync.Mutex
	b       strings.Builder
	watches []watch
}

// watch is a pattern a test waits for, and the channel closed once the
// buffer matches it.
type watch struct {
	re   *regexp.Regexp
	seen chan struct{}
}

// Write appends p and closes the channel of every pattern now matched.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.b.Write(p)
	b.watches = slices.DeleteFunc(b.watches, func(w watch) bool {
		if !w.re.MatchString(b.b.String()) {
			return false
		}
		close(w.seen)
		return true
	})
	return n, err
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Appears returns a channel closed once what was written matches re: a
// signal a test waits for instead of sleeping.
func (b *Buffer) Appears(re *regexp.Regexp) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := watch{re, make(chan struct{})}
	if re.MatchString(b.b.String()) {
		close(w.seen)
	} else {
		b.watches = append(b.watches, w)
	}
	return w.seen
}
