package output

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/debatehq/debate/tree"
)

// ProgressTopic names a topic the progress display shows a line for.
type ProgressTopic struct {
	ID, Title string
}

// ProgressOptions configures a Progress.
type ProgressOptions struct {
	// Terminal draws one live line per topic, redrawn in place; otherwise
	// progress is written as plain log lines.
	Terminal bool
	// Color colours statuses on a terminal (turn off for NO_COLOR).
	Color  bool
	Topics []ProgressTopic
	Now    func() time.Time // nil: time.Now
}

// Progress shows a run's progress on stderr. Handle is safe for concurrent
// use; Close stops the display and may be called more than once.
type Progress struct {
	w      io.Writer
	opt    ProgressOptions
	logger *slog.Logger

	mu      sync.Mutex
	topics  []*topicLine
	byID    map[string]*topicLine
	drawn   int // live lines currently on screen
	last    time.Time
	closed  bool
	stop    chan struct{}
	stopped chan struct{}
}

type topicLine struct {
	ProgressTopic
	started, finished time.Time
	known, done       int
	inFlight          int
	tokens            int
	fallbacks         int
	status            tree.Status
	seen              map[string]bool
}

// NewProgress returns a display writing to w. On a terminal it redraws its
// lines at least once a second until Close.
func NewProgress(w io.Writer, opt ProgressOptions) *Progress {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	p := &Progress{w: w, opt: opt, byID: map[string]*topicLine{}}
	for _, t := range opt.Topics {
		l := &topicLine{ProgressTopic: t, status: tree.Pending, seen: map[string]bool{}}
		p.topics = append(p.topics, l)
		p.byID[t.ID] = l
	}
	hopt := &slog.HandlerOptions{Level: slog.LevelInfo}
	if opt.Terminal {
		// A person watching the live lines needs no timestamps.
		hopt.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	p.logger = slog.New(slog.NewTextHandler(lineWriter{p}, hopt))
	if opt.Terminal {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
	}
	return p
}

// Logger returns a logger whose lines do not tear the live display.
func (p *Progress) Logger() *slog.Logger { return p.logger }

func (p *Progress) tick() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// Close draws the final state and stops redrawing.
func (p *Progress) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.draw()
	p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
	}
}

// Handle records one event and updates the display.
func (p *Progress) Handle(ev tree.Event) {
	if !p.opt.Terminal {
		p.logEvent(ev)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.byID[ev.Topic]
	if l == nil {
		l = &topicLine{ProgressTopic: ProgressTopic{ID: ev.Topic}, status: tree.Pending, seen: map[string]bool{}}
		p.topics = append(p.topics, l)
		p.byID[ev.Topic] = l
	}
	now := ev.Time
	if now.IsZero() {
		now = p.opt.Now()
	}
	important := false
	switch ev.Kind {
	case tree.TopicStarted:
		l.started = now
	case tree.TopicFinished:
		l.finished, l.status, important = now, ev.Status, true
	case tree.NodeStarted:
		if !l.seen[ev.Node] {
			l.seen[ev.Node] = true
			l.known++
		}
	case tree.NodeFinished:
		l.done++
		important = true
	case tree.CallStarted:
		l.inFlight++
	case tree.CallFinished:
		l.inFlight--
		l.tokens += ev.Usage.Total()
	case tree.CallFailed:
		l.inFlight--
	case tree.FellBack:
		l.fallbacks++
		important = true
	}
	if l.started.IsZero() {
		l.started = now
	}
	if important || p.opt.Now().Sub(p.last) >= 100*time.Millisecond {
		p.draw()
	}
	if ev.Kind == tree.NodeFinished && ev.Status == tree.Failed {
		p.printLocked(fmt.Sprintf("%s: node %s failed: %s\n", ev.Topic, ev.Node, ev.Err))
	}
}

// logEvent writes the plain-log form of an event (not on a terminal). Call
// failures, fallbacks and finished topics are logged by the engine itself.
func (p *Progress) logEvent(ev tree.Event) {
	lg := p.logger
	switch ev.Kind {
	case tree.TopicStarted:
		lg.Info("topic started", "topic", ev.Topic)
	case tree.NodeStarted:
		lg.Info("node started", "topic", ev.Topic, "node", ev.Node)
	case tree.NodeFinished:
		args := []any{"topic", ev.Topic, "node", ev.Node, "status", ev.Status}
		if ev.Err != "" {
			args = append(args, "reason", ev.Err)
		}
		lg.Info("node done", args...)
	}
}

// draw redraws the live lines in place. The caller holds p.mu.
func (p *Progress) draw() {
	if !p.opt.Terminal {
		return
	}
	var b strings.Builder
	p.clear(&b)
	now := p.opt.Now()
	var wid, wtitle int
	for _, l := range p.topics {
		wid = max(wid, utf8.RuneCountInString(l.ID))
		wtitle = max(wtitle, utf8.RuneCountInString(shorten(l.Title, titleWidth)))
	}
	for _, l := range p.topics {
		b.WriteString(p.line(l, now, wid, wtitle))
		b.WriteByte('\n')
	}
	p.drawn = len(p.topics)
	p.last = now
	io.WriteString(p.w, b.String())
}

// clear erases the live lines so that other output can take their place.
func (p *Progress) clear(b *strings.Builder) {
	if p.drawn > 0 {
		fmt.Fprintf(b, "\x1b[%dA", p.drawn)
	}
	for range p.drawn {
		b.WriteString("\r\x1b[2K\n")
	}
	if p.drawn > 0 {
		fmt.Fprintf(b, "\x1b[%dA", p.drawn)
	}
}

// printLocked writes text above the live lines. The caller holds p.mu.
func (p *Progress) printLocked(text string) {
	if !p.opt.Terminal {
		io.WriteString(p.w, text)
		return
	}
	var b strings.Builder
	p.clear(&b)
	p.drawn = 0
	b.WriteString(text)
	io.WriteString(p.w, b.String())
	if !p.closed {
		p.draw()
	}
}

var statusMarks = map[tree.Status]struct{ mark, color string }{
	tree.Pending:     {"…", ""},
	tree.Converged:   {"✓", "\x1b[32m"},
	tree.Forced:      {"⚖", "\x1b[33m"},
	tree.Failed:      {"✗", "\x1b[31m"},
	tree.Interrupted: {"■", "\x1b[90m"},
}

// titleWidth is how many characters of a topic's title its live line shows.
const titleWidth = 32

func (p *Progress) line(l *topicLine, now time.Time, wid, wtitle int) string {
	end := now
	if !l.finished.IsZero() {
		end = l.finished
	}
	elapsed := time.Duration(0)
	if !l.started.IsZero() {
		elapsed = end.Sub(l.started).Truncate(time.Second)
	}
	sm := statusMarks[l.status]
	mark := sm.mark
	if p.opt.Color && sm.color != "" {
		mark = sm.color + mark + "\x1b[0m"
	}
	state := fmt.Sprintf("nodes %d/%d  calls %d  tokens %s  %s", l.done, l.known, l.inFlight, compact(l.tokens), elapsed)
	if l.status != tree.Pending {
		state = fmt.Sprintf("%s  nodes %d  tokens %s  %s", l.status, l.done, compact(l.tokens), elapsed)
	}
	if l.fallbacks > 0 {
		state += fmt.Sprintf("  fallbacks %d", l.fallbacks)
	}
	return fmt.Sprintf("%s %s  %s  %s", mark, pad(l.ID, wid), pad(shorten(l.Title, titleWidth), wtitle), state)
}

// compact writes a count as 950, 12.3k or 4.1M.
func compact(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// lineWriter sends log output above the live lines.
type lineWriter struct{ p *Progress }

func (lw lineWriter) Write(b []byte) (int, error) {
	lw.p.mu.Lock()
	defer lw.p.mu.Unlock()
	lw.p.printLocked(string(b))
	return len(b), nil
}
