package prefix

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkAdd adds prompts of 8 KiB sharing a 6 KiB head under a few
// keys, from as many goroutines as GOMAXPROCS: the time per prompt should
// not grow with the procs (run with -cpu 1,2,4).
func BenchmarkAdd(b *testing.B) {
	var book Book
	head := strings.Repeat("the shared system prompt and debate so far. ", 6<<10/44)
	var n atomic.Int64
	b.SetBytes(8 << 10)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			tail := strings.Repeat(strconv.FormatInt(i, 36)+" ", 2<<10/8)
			book.Add("model-"+strconv.FormatInt(i%4, 10), head+tail)
		}
	})
}
