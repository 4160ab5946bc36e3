//go:build !unix

package daemon

import "syscall"

// detached is the default process attributes where sessions do not exist.
func detached() *syscall.SysProcAttr { return nil }
