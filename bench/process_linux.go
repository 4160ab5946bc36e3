package bench

import "syscall"

// orphanless makes the kernel send SIGTERM to a server started for the
// bench when the bench itself dies without stopping it (SIGKILL).
func orphanless(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Pdeathsig = syscall.SIGTERM
	return a
}
