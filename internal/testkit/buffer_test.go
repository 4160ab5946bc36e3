package testkit

import (
	"fmt"
	"regexp"
	"sync"
	"testing"
)

func TestBufferAppears(t *testing.T) {
	t.Parallel()
	var b Buffer
	fmt.Fprint(&b, "listening on http://127.0.0.1:1\n")
	select {
	case <-b.Appears(regexp.MustCompile(`listening on`)):
	default:
		t.Fatal("a pattern already written does not signal at once")
	}
	done := b.Appears(regexp.MustCompile(`writer 7 done`))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { fmt.Fprintf(&b, "writer %d done\n", i) })
	}
	<-done
	wg.Wait()
	if got := len(regexp.MustCompile(`done`).FindAllString(b.String(), -1)); got != 8 {
		t.Errorf("%d lines of 8 writers kept: %q", got, b.String())
	}
}
