package main

import (
	"io"
	"os"
	"os/signal"
)

// terminal is what the progress display needs of the stream it draws on.
type terminal struct {
	ok     bool       // a terminal: draw live lines
	width  func() int // its width in columns, read at each redraw
	resize <-chan os.Signal
	stop   func() // releases the resize subscription
}

// terminalOf returns the terminal w is, if it is one. Tests replace it
// through env.term.
func (e *env) terminalOf(w io.Writer) terminal {
	if e.term != nil {
		return e.term(w)
	}
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return terminal{stop: func() {}}
	}
	c := make(chan os.Signal, 1)
	notifyResize(c)
	return terminal{ok: true, width: func() int { return ttyWidth(f) }, resize: c, stop: func() { signal.Stop(c) }}
}
