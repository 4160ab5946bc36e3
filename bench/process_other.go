//go:build !unix

package bench

import "time"

// peakRSS is not measured on this system.
func peakRSS() uint64 { return 0 }

// processCPU is not measured on this system.
func processCPU(int) time.Duration { return 0 }
