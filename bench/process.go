package bench

import (
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// sampleHeap samples the bytes of heap objects every interval until the
// returned function is called, which returns the largest sample.
func sampleHeap(interval time.Duration) (stop func() uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[0].Value.Uint64()
	}
	peak := read()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	}()
	return sync.OnceValue(func() uint64 {
		close(done)
		<-finished // peak is the goroutine's no more
		return max(peak, read())
	})
}

func gomaxprocs() int { return runtime.GOMAXPROCS(0) }

// loadAverage is the machine's load average over 1, 5 and 15 minutes as
// /proc/loadavg gives it; "" where there is no such file.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
