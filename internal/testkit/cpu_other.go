//go:build !unix

package testkit

import "time"

// CPUTime is not measured on this system: it is always 0.
func CPUTime() time.Duration { return 0 }
