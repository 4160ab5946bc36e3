//go:build !unix

package main

import "syscall"

// detached is the default process attributes where sessions do not exist.
func detached() *syscall.SysProcAttr { return nil }
