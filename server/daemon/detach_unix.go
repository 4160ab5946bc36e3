//go:build unix

package daemon

import "syscall"

// detached makes a background server its own session, so that it outlives
// the command and the terminal that started it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
