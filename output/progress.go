package output

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/tree"
)

// ProgressTopic names a topic or a motion the progress display shows a
// line for.
type ProgressTopic struct {
	ID, Title string
	Motion    bool // a motion: its line counts turns, not nodes
}

// ProgressOptions configures a Progress.
type ProgressOptions struct {
	// Terminal draws one live line per topic, redrawn in place; otherwise
	// progress is written as plain log lines.
	Terminal bool
	// Color colours statuses on a terminal (turn off for NO_COLOR).
	Color bool
	// Verbose prints every log line above the live lines on a terminal, as
	// a log line; without it a record is printed as a sentence (its message,
	// then its attributes) and a record of an event the live lines show (a
	// failed attempt, a fallback, a finished topic) is left out.
	Verbose bool
	// Demo says on the live lines that a scripted model plays the run, or
	// adds demo=true to every log line.
	Demo bool
	// Width returns the terminal's width in columns; nil or a result below 20
	// means 80. It is asked before every redraw.
	Width func() int
	// Resize receives a value whenever the terminal changes size (SIGWINCH);
	// the display then redraws at once. Nil: sizes are read at each redraw.
	Resize <-chan os.Signal
	Topics []ProgressTopic
	Now    func() time.Time // nil: time.Now
}

// Progress shows a run's progress on stderr. Handle is safe for concurrent
// use; Close stops the display and may be called more than once.
//
// On a terminal the live lines sit at the bottom of what was written: each is
// cut to the terminal's width so that it takes exactly one row, and a redraw
// moves up over the rows the previous drawing took and erases them. Anything
// printed meanwhile (a warning, a failed node) goes above the live lines.
// Close leaves the final lines on the screen and never touches them again.
type Progress struct {
	w      io.Writer
	opt    ProgressOptions
	logger *slog.Logger

	mu     sync.Mutex
	topics []*topicLine
	byID   map[string]*topicLine
	total  counts              // run-wide counts of the calls no topic claims
	calls  map[uint64]*attempt // the current attempt of each call, by id
	drawn  []int               // the columns of each live line now on the screen
	width  int                 // the width they were drawn at
	last   time.Time
	closed bool

	stop    chan struct{}
	stopped chan struct{}
}

// counts are what a live line counts of its calls: attempts waiting for a
// call slot (queued) and requests out (in flight), then the routine events:
// retries (attempts made again after a failure, on the same model or its
// fallback) and fallbacks.
type counts struct {
	queued, inFlight   int
	retries, fallbacks int
}

// attempt is where the current attempt of a call is, and the counts of the
// line it belongs to.
type attempt struct {
	c     *counts
	phase phase
	// failed: the attempt failed, so the call's next attempt is a retry.
	failed bool
}

// phase is where an attempt is: waiting for its call slot, with a request
// out, or neither (between two requests, or over).
type phase int

const (
	idle phase = iota
	queued
	sent
)

// reason is the first failure of one participant within a topic.
type reason struct{ participant, err string }

type topicLine struct {
	ProgressTopic
	started, finished time.Time
	known, done       int
	tokens            int
	counts
	// reasons are the first failure of each participant that failed, in
	// the order they failed; shown under the line of a failed topic.
	reasons []reason
	status  tree.Status
	// decision is a finished topic's decision in words, with its cause
	// and its missing verdicts.
	decision string
	seen     map[string]bool
	// turn and rulings count a motion's progress (its Motion is set)
	// instead of nodes.
	turn, rulings int
}

// NewProgress returns a display writing to w. On a terminal it redraws its
// lines at least once a second, and at once on a resize, until Close.
func NewProgress(w io.Writer, opt ProgressOptions) *Progress {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	p := &Progress{w: w, opt: opt, byID: map[string]*topicLine{}, calls: map[uint64]*attempt{}}
	for _, t := range opt.Topics {
		l := p.topic(t.ID)
		l.Title, l.Motion = t.Title, t.Motion
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
	var h slog.Handler = slog.NewTextHandler(lineWriter{p}, hopt)
	if p.Sentences() {
		h = eventFilter{Handler: newSentenceHandler(lineWriter{p})}
	}
	p.logger = slog.New(h)
	if opt.Demo && !p.Sentences() {
		// Every log line of a demo says so; the live lines have a line of
		// their own for it.
		p.logger = p.logger.With("demo", true)
	}
	if opt.Terminal {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
	}
	return p
}

// topic returns the line of a topic id, adding one for an id not seen yet.
// The caller holds p.mu or is NewProgress.
func (p *Progress) topic(id string) *topicLine {
	l := p.byID[id]
	if l == nil {
		l = &topicLine{ProgressTopic: ProgressTopic{ID: id}, status: tree.Pending, seen: map[string]bool{}}
		p.topics = append(p.topics, l)
		p.byID[id] = l
	}
	return l
}

// Logger returns a logger whose lines do not tear the live display. On a
// terminal without Verbose, a record that names an event the live lines
// show (its tree.EventKey attribute) is not printed.
func (p *Progress) Logger() *slog.Logger { return p.logger }

// Sentences reports whether the display speaks to a person in sentences: on a
// terminal without Verbose. Otherwise what it writes are log lines.
func (p *Progress) Sentences() bool { return p.opt.Terminal && !p.opt.Verbose }

// Say writes text, which should end with a newline, above the live lines.
func (p *Progress) Say(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printLocked(text)
}

func (p *Progress) tick() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		case <-p.opt.Resize:
		}
		p.mu.Lock()
		if !p.closed {
			p.draw()
		}
		p.mu.Unlock()
	}
}

// Close draws the final state, leaves it on the screen and stops redrawing:
// whatever is written to the terminal after Close goes below it.
func (p *Progress) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.draw()
	p.closed = true
	p.drawn = nil
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
	if ev.Scope() == "" {
		// A call of the run as a whole (the proposed edits): no line of its
		// own; its routine events are counted on the line of all topics.
		before := p.total.String()
		p.count(ev, &p.total)
		if p.total.String() != before {
			p.draw()
		}
		return
	}
	l := p.topic(ev.Scope())
	p.count(ev, &l.counts)
	now := ev.Time
	if now.IsZero() {
		now = p.opt.Now()
	}
	important := false
	switch ev.Kind {
	case tree.TopicStarted:
		l.started = now
	case tree.TopicFinished:
		l.finished, l.status, l.decision, important = now, ev.Status, decisionWords(ev), true
	case tree.NodeStarted:
		if !l.seen[ev.Node] {
			l.seen[ev.Node] = true
			l.known++
		}
	case tree.NodeFinished:
		l.done++
		important = true
	case tree.MotionStarted:
		l.started, l.Motion = now, true
	case tree.MotionFinished:
		l.finished, l.status, l.Motion, important = now, ev.Status, true, true
	case tree.TurnStarted:
		l.Motion, l.turn = true, max(l.turn, ev.Turn)
	case tree.Argued:
		important = true
	case tree.Ruled:
		l.rulings++
		important = true
	case tree.CallFinished, tree.CallProgress:
		l.tokens += ev.Usage.Total()
	case tree.AttemptFailed:
		l.failed(ev)
		important = true
	case tree.FellBack:
		important = true
	}
	if l.started.IsZero() {
		l.started = now
	}
	switch {
	case ev.Kind == tree.NodeFinished && ev.Status == tree.Failed:
		p.printLocked(fmt.Sprintf("%s: node %s failed: %s\n", ev.Topic, ev.Node, ev.Err))
		return
	case ev.Kind == tree.TurnFailed:
		p.printLocked(fmt.Sprintf("%s: turn %d failed: %s\n", ev.Motion, ev.Turn, ev.Err))
		return
	}
	if important || p.opt.Now().Sub(p.last) >= 100*time.Millisecond {
		p.draw()
	}
}

// count follows the attempts of ev's call on c: queued from its start to
// its request, in flight while a request is out; an attempt that starts
// after a failed one is a retry. The caller holds p.mu.
func (p *Progress) count(ev tree.Event, c *counts) {
	if ev.Kind == tree.FellBack {
		c.fallbacks++
		return
	}
	a := p.calls[ev.Call]
	if a == nil {
		if ev.Kind != tree.CallStarted {
			return
		}
		a = &attempt{c: c}
		p.calls[ev.Call] = a
	}
	switch ev.Kind {
	case tree.CallStarted:
		if a.failed {
			c.retries++
		}
		a.failed = false
		a.move(queued)
	case tree.RequestSent:
		a.move(sent)
	case tree.RequestDone, tree.CallFailed:
		a.move(idle)
	case tree.CallFinished:
		a.move(idle)
		delete(p.calls, ev.Call)
	case tree.AttemptFailed:
		a.failed = true
	}
}

// move puts the attempt in phase to, counting it where it now is.
func (a *attempt) move(to phase) {
	a.c.shift(a.phase, -1)
	a.c.shift(to, +1)
	a.phase = to
}

// shift adds d to the count of attempts in phase ph.
func (c *counts) shift(ph phase, d int) {
	switch ph {
	case queued:
		c.queued += d
	case sent:
		c.inFlight += d
	}
}

// failed keeps the first failure of the participant of a failed attempt.
func (l *topicLine) failed(ev tree.Event) {
	for _, r := range l.reasons {
		if r.participant == ev.Participant {
			return
		}
	}
	l.reasons = append(l.reasons, reason{ev.Participant, ev.Err})
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
	case tree.MotionStarted:
		lg.Info("motion started", "motion", ev.Motion)
	case tree.TurnStarted:
		lg.Info(fmt.Sprintf("turn %d started", ev.Turn), "motion", ev.Motion, "role", ev.Role)
	case tree.Argued:
		lg.Info(fmt.Sprintf("turn %d: %s %s", ev.Turn, ev.Role, ev.Argument), "motion", ev.Motion, "seq", ev.Seq)
	case tree.Ruled:
		lg.Info("ruling", "motion", ev.Motion, "turn", ev.Turn, "seq", ev.Seq, "closes", ev.Closes)
	case tree.TurnFailed:
		lg.Info(fmt.Sprintf("turn %d failed", ev.Turn), "motion", ev.Motion, "reason", ev.Err)
	}
}

// columns returns the terminal's width.
func (p *Progress) columns() int {
	if p.opt.Width != nil {
		if w := p.opt.Width(); w >= 20 {
			return w
		}
	}
	return 80
}

// draw redraws the live lines in place. The caller holds p.mu.
func (p *Progress) draw() {
	if !p.opt.Terminal || p.closed {
		return
	}
	var b strings.Builder
	width := p.columns()
	p.clear(&b, width)
	lines := p.lines(p.opt.Now(), width-1)
	p.drawn = p.drawn[:0]
	for _, ln := range lines {
		p.drawn = append(p.drawn, textwidth.String(ln.text))
		b.WriteString(ln.colored(p.opt.Color))
		b.WriteByte('\n')
	}
	p.width = width
	p.last = p.opt.Now()
	io.WriteString(p.w, b.String())
}

// clear moves to the first row of the live lines and erases them and
// everything below. A line drawn at a larger width may now take several
// rows, as terminals re-wrap their lines when narrowed.
func (p *Progress) clear(b *strings.Builder, width int) {
	if len(p.drawn) == 0 {
		return
	}
	rows := 0
	for _, cols := range p.drawn {
		rows++
		if width < p.width && cols > width {
			rows += (cols - 1) / width
		}
	}
	fmt.Fprintf(b, "\r\x1b[%dA\x1b[J", rows)
}

// printLocked writes text above the live lines. The caller holds p.mu.
func (p *Progress) printLocked(text string) {
	if !p.opt.Terminal || p.closed {
		io.WriteString(p.w, text)
		return
	}
	var b strings.Builder
	p.clear(&b, p.columns())
	p.drawn = p.drawn[:0]
	b.WriteString(text)
	io.WriteString(p.w, b.String())
	p.draw()
}

// liveLine is one line of the live area: its text, cut to the width, and
// the length in bytes of its leading status mark, which may be coloured.
type liveLine struct {
	text  string
	mark  int
	color string
}

func (l liveLine) colored(on bool) string {
	if !on || l.color == "" || l.mark == 0 {
		return l.text
	}
	return l.color + l.text[:l.mark] + "\x1b[0m" + l.text[l.mark:]
}

var statusMarks = map[tree.Status]struct{ mark, color string }{
	tree.Pending:     {"…", ""},
	tree.Converged:   {"✓", "\x1b[32m"},
	tree.Partial:     {"◐", "\x1b[33m"},
	tree.Forced:      {"⚖", "\x1b[33m"},
	tree.Failed:      {"✗", "\x1b[31m"},
	tree.Interrupted: {"■", "\x1b[90m"},
}

// maxID is the most columns a topic id takes in its live line.
const maxID = 20

// lines returns the live lines, each at most width columns: per topic its
// mark, id, state and as much of its title as fits; then, when routine
// events happened that no topic claims, a line counting them.
func (p *Progress) lines(now time.Time, width int) []liveLine {
	var wid, wstate int
	states := make([]string, len(p.topics))
	for _, l := range p.topics {
		wid = max(wid, min(maxID, textwidth.String(l.ID)))
	}
	for _, short := range []bool{false, true} {
		wstate = 0
		for i, l := range p.topics {
			states[i] = l.state(now, short)
			wstate = max(wstate, textwidth.String(states[i]))
		}
		if 2+wid+2+wstate <= width {
			break
		}
	}
	var out []liveLine
	for i, l := range p.topics {
		sm := statusMarks[l.status]
		if sm.mark == "" {
			sm.mark = "·"
		}
		head := sm.mark + " " + textwidth.Pad(textwidth.Cut(l.ID, maxID), wid) + "  "
		text := head + states[i]
		if room := width - textwidth.String(head) - wstate - 2; room >= 8 && l.Title != "" {
			text = head + textwidth.Pad(states[i], wstate) + "  " + textwidth.Cut(oneLine(l.Title), room)
		}
		out = append(out, liveLine{text: textwidth.Cut(text, width), mark: len(sm.mark), color: sm.color})
		if l.status == tree.Failed {
			for _, r := range l.reasons {
				for _, row := range wrap(r.participant+": "+r.err, width-4, maxReasonRows) {
					out = append(out, liveLine{text: "    " + row})
				}
			}
		}
	}
	if c := p.total; c.String() != "" {
		out = append(out, liveLine{text: textwidth.Cut("  all topics: "+strings.TrimPrefix(c.String(), " · "), width)})
	}
	if p.opt.Demo {
		out = append(out, liveLine{text: textwidth.Cut("  demo: a built-in scripted model plays every part; no model is called", width)})
	}
	return out
}

// state describes where a topic is: running with its nodes and calls, or
// finished with its status; then the routine events, tokens and time. The
// short form, for a narrow terminal, leaves out tokens and uses short words.
func (l *topicLine) state(now time.Time, short bool) string {
	end := now
	if !l.finished.IsZero() {
		end = l.finished
	}
	elapsed := time.Duration(0)
	if !l.started.IsZero() {
		elapsed = end.Sub(l.started).Truncate(time.Second)
	}
	events := l.counts.String()
	if l.Motion {
		return l.motionState(elapsed, events, short)
	}
	switch {
	case l.status == tree.Pending && short:
		return fmt.Sprintf("nodes %d/%d · %s%s · %s", l.done, l.known, l.calls(), events, elapsed)
	case l.status == tree.Pending:
		return fmt.Sprintf("nodes %d/%d · %s%s · %s tok · %s", l.done, l.known, l.calls(), events, compact(l.tokens), elapsed)
	case short:
		return fmt.Sprintf("%s · %d %s%s", l.outcome(), l.done, plural(l.done, "node", "nodes"), events)
	}
	return fmt.Sprintf("%s · %d %s%s · %s tok · %s", l.outcome(), l.done, plural(l.done, "node", "nodes"), events, compact(l.tokens), elapsed)
}

// outcome is how a finished topic ended: its decision, or its status when
// that says why it is undecided (failed, interrupted, partial).
func (l *topicLine) outcome() string {
	if l.decision == "" {
		return string(l.status)
	}
	return l.decision
}

// decisionWords is the decision a TopicFinished event carries, in words:
// "agreed", "undecided (budget)", "undecided (2 verdicts missing)"; the
// status for a topic undecided because it failed, was interrupted or went
// on without a debater; empty when the event carries no decision.
func decisionWords(ev tree.Event) string {
	switch {
	case ev.Decision == "":
		return ""
	case ev.Cause == tree.CauseNoVerdict:
		n := ev.Verdicts.Missing
		return fmt.Sprintf("%s (%d %s missing)", ev.Decision, n, plural(n, "verdict", "verdicts"))
	case ev.Cause == tree.CauseBudget:
		return fmt.Sprintf("%s (%s)", ev.Decision, ev.Cause)
	case ev.Cause != "":
		return string(ev.Status)
	}
	return string(ev.Decision)
}

// motionState is state for a motion: its turn and rulings instead of
// nodes, and how it ended in the words of a debate.
func (l *topicLine) motionState(elapsed time.Duration, events string, short bool) string {
	if l.rulings > 0 && !short {
		events = fmt.Sprintf(" · %d %s", l.rulings, plural(l.rulings, "ruling", "rulings")) + events
	}
	status := string(l.status)
	switch l.status {
	case tree.Converged:
		status = "resolved"
	case tree.Forced:
		status = "ruled"
	}
	switch {
	case l.status == tree.Pending && short:
		return fmt.Sprintf("turn %d · %s%s · %s", l.turn, l.calls(), events, elapsed)
	case l.status == tree.Pending:
		return fmt.Sprintf("turn %d · %s%s · %s tok · %s", l.turn, l.calls(), events, compact(l.tokens), elapsed)
	case short:
		return fmt.Sprintf("%s · %d %s%s", status, l.turn, plural(l.turn, "turn", "turns"), events)
	}
	return fmt.Sprintf("%s · %d %s%s · %s tok · %s", status, l.turn, plural(l.turn, "turn", "turns"), events, compact(l.tokens), elapsed)
}

// calls says how many of a running line's attempts have a request out and
// how many wait for a call slot, when any does.
func (c counts) calls() string {
	s := fmt.Sprintf("%d in flight", max(0, c.inFlight))
	if c.queued > 0 {
		s += fmt.Sprintf(" · %d queued", c.queued)
	}
	return s
}

// String lists the non-zero counts of routine events, each after " · ".
func (c counts) String() string {
	var b strings.Builder
	for _, f := range []struct {
		n          int
		one, other string
	}{
		{c.retries, "retry", "retries"},
		{c.fallbacks, "fallback", "fallbacks"},
	} {
		if f.n > 0 {
			fmt.Fprintf(&b, " · %d %s", f.n, plural(f.n, f.one, f.other))
		}
	}
	return b.String()
}

// plural returns one for n == 1, else other.
func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

// maxReasonRows is the most rows a failure under a failed topic takes.
const maxReasonRows = 3

// wrap breaks the words of s into at most rows rows of at most width
// columns; the last row is cut with "…" when words are left.
func wrap(s string, width, rows int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case textwidth.String(line)+1+textwidth.String(w) <= width:
			line += " " + w
		case len(out) == rows-1:
			return append(out, textwidth.Cut(line+" "+w, width))
		default:
			out = append(out, textwidth.Cut(line, width))
			line = w
		}
	}
	if line != "" {
		out = append(out, textwidth.Cut(line, width))
	}
	return out
}

// oneLine collapses the whitespace of s, newlines included.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// lineWriter sends log output above the live lines.
type lineWriter struct{ p *Progress }

func (lw lineWriter) Write(b []byte) (int, error) {
	lw.p.mu.Lock()
	defer lw.p.mu.Unlock()
	lw.p.printLocked(string(b))
	return len(b), nil
}

// shownEvents are the kinds of progress event the live lines show: a log
// record naming one of them (tree.EventKey) says again what a live line
// already counts or shows.
var shownEvents = map[tree.EventKind]bool{
	tree.AttemptFailed:  true,
	tree.FellBack:       true,
	tree.TopicFinished:  true,
	tree.MotionFinished: true,
}

// eventFilter is the log handler of a terminal without Verbose: it leaves
// out the records of events the live lines show, and passes on the others,
// to be printed above the live lines. It looks at the records' attributes,
// never at their messages.
type eventFilter struct {
	slog.Handler
	shown bool // an attribute added with WithAttrs names a shown event
}

// Handle implements slog.Handler.
func (h eventFilter) Handle(ctx context.Context, r slog.Record) error {
	shown := h.shown
	r.Attrs(func(a slog.Attr) bool {
		shown = shown || isShownEvent(a)
		return !shown
	})
	if shown {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// isShownEvent reports whether a names an event kind the live lines show.
func isShownEvent(a slog.Attr) bool {
	if a.Key != tree.EventKey {
		return false
	}
	return shownEvents[tree.EventKind(a.Value.String())]
}

// WithAttrs implements slog.Handler.
func (h eventFilter) WithAttrs(attrs []slog.Attr) slog.Handler {
	shown := h.shown
	for _, a := range attrs {
		shown = shown || isShownEvent(a)
	}
	return eventFilter{h.Handler.WithAttrs(attrs), shown}
}

// WithGroup implements slog.Handler.
func (h eventFilter) WithGroup(name string) slog.Handler {
	return eventFilter{h.Handler.WithGroup(name), h.shown}
}
