//go:build !linux

package daemon

import "syscall"

// orphanless leaves a; only Linux ends a child when its parent dies.
func orphanless(a *syscall.SysProcAttr) *syscall.SysProcAttr { return a }
