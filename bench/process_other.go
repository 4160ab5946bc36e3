//go:build !unix

package bench

import (
	"os"
	"time"
)

// peakRSS is not measured on this system.
func peakRSS() uint64 { return 0 }

// processCPU is not measured on this system.
func processCPU(int) time.Duration { return 0 }

// terminate stops p; there is no SIGTERM on this system.
func terminate(p *os.Process) error { return p.Kill() }
