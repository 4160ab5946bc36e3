package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptible is the one signal helper of every command: it returns a
// context cancelled by the first Ctrl-C or SIGTERM (through e.notify in
// tests), after calling say when it is not nil; a second one exits the
// process at once. stop releases the signal handler.
func (e *env) interruptible(say func()) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	notify := e.notify
	if notify == nil {
		notify = func(c chan<- os.Signal) { signal.Notify(c, os.Interrupt, syscall.SIGTERM) }
	}
	notify(sigs)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		if say != nil {
			say()
		}
		cancel()
		select {
		case <-sigs:
			fmt.Fprintln(e.stderr, "quit")
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
