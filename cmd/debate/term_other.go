//go:build !unix

package main

import "os"

// ttyWidth returns 0: the width is not known here and the display assumes 80.
func ttyWidth(*os.File) int { return 0 }

// notifyResize does nothing where there is no SIGWINCH.
func notifyResize(chan<- os.Signal) {}
