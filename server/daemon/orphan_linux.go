package daemon

import "syscall"

// orphanless makes the kernel send SIGTERM to a server started in the
// foreground (Launch) when the program that started it dies without stopping
// it (SIGKILL).
func orphanless(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Pdeathsig = syscall.SIGTERM
	return a
}
