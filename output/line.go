package output

import (
	"fmt"
	"io"
	"sync"
)

// Line is a live display of one line on a terminal, for a command whose
// progress is a single line (the run's own display is Progress): Show
// redraws the line, a log line written through it prints above it, and
// Clear erases it. It is safe for concurrent use.
type Line struct {
	mu    sync.Mutex
	w     io.Writer
	width func() int // the terminal's columns, read at each Show
	shown string     // the line drawn, "" when none is
}

// NewLine returns a Line drawn on w, a terminal width() columns wide.
func NewLine(w io.Writer, width func() int) *Line {
	return &Line{w: w, width: width}
}

// Show redraws the line as s, cut to fit the terminal's width.
func (l *Line) Show(s string) {
	if w := l.width(); w > 1 {
		if r := []rune(s); len(r) >= w {
			s = string(r[:w-1])
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shown = s
	fmt.Fprintf(l.w, "\r%s\033[K", s)
}

// Write prints a log line above the line shown.
func (l *Line) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown != "" {
		io.WriteString(l.w, "\r\033[K")
	}
	n, err := l.w.Write(b)
	if l.shown != "" {
		fmt.Fprintf(l.w, "\r%s\033[K", l.shown)
	}
	return n, err
}

// Clear erases the line; the next Show draws it again.
func (l *Line) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown != "" {
		io.WriteString(l.w, "\r\033[K")
		l.shown = ""
	}
}
