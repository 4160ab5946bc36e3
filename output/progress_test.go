package output

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/internal/vtscreen"
	"github.com/debatehq/debate/tree"
)

func progressEvents() []tree.Event {
	return []tree.Event{
		{Kind: tree.TopicStarted, Topic: "t1"},
		{Kind: tree.NodeStarted, Topic: "t1", Node: "root"},
		{Kind: tree.CallStarted, Topic: "t1", Node: "root", Participant: "a"},
		{Kind: tree.CallFinished, Topic: "t1", Node: "root", Participant: "a", Usage: tree.Usage{PromptTokens: 1500, CompletionTokens: 700}},
		{Kind: tree.CallStarted, Topic: "t1", Node: "root", Participant: "b"},
		{Kind: tree.CallFailed, Topic: "t1", Node: "root", Participant: "b", Model: "m-b", Err: "server error 503"},
		{Kind: tree.FellBack, Topic: "t1", Fallback: &tree.Fallback{Participant: "b", From: "m-b", To: "m-b2", Node: "root", Reason: "2 consecutive failures"}},
		{Kind: tree.NodeFinished, Topic: "t1", Node: "root", Status: tree.Failed, Err: "no debater answered"},
		{Kind: tree.TopicFinished, Topic: "t1", Status: tree.Failed},
	}
}

func TestProgressPlainLogs(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, ProgressOptions{Topics: []ProgressTopic{{ID: "t1", Title: "First"}}})
	for _, ev := range progressEvents() {
		p.Handle(ev)
	}
	p.Close()
	out := buf.String()
	for _, not := range []string{"call failed", "fallback", "topic done"} {
		if strings.Contains(out, not) {
			t.Errorf("output logs %q, which the engine logs itself:\n%s", not, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("plain output has terminal escapes:\n%q", out)
	}
	for _, want := range []string{
		`msg="topic started" topic=t1`,
		`msg="node done" topic=t1 node=root status=failed reason="no debater answered"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// drive plays a run of two topics on a terminal display of the given width:
// calls, failed attempts reported and logged by the engine (one retried), a
// fallback, a
// failed attempt of the run's own, a failed node, a warning
// from the engine; then closes it and lists the files written, as the run
// command does. It returns the emulated screen.
func drive(t *testing.T, width int, verbose bool, titles [2]string) *vtscreen.Screen {
	t.Helper()
	screen := vtscreen.New(width)
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := NewProgress(screen, ProgressOptions{
		Terminal: true, Color: true, Verbose: verbose,
		Width:  func() int { return width },
		Topics: []ProgressTopic{{ID: "t1", Title: titles[0]}, {ID: "topic-two", Title: titles[1]}},
		Now:    func() time.Time { return clock },
	})
	log := p.Logger()
	for i, ev := range progressEvents() {
		ev.Time = clock.Add(time.Duration(i) * time.Second)
		if ev.Kind == tree.FellBack {
			log.Warn("participant falls back for the rest of the topic", tree.EventKey, tree.FellBack, "topic", "t1", "participant", "b")
		}
		p.Handle(ev)
		if ev.Kind == tree.CallFailed {
			// The engine reports each failed attempt as an event and logs it
			// with the event's kind.
			failed := tree.Event{Kind: tree.AttemptFailed, Topic: "t1", Node: "root", Participant: "b", Time: ev.Time}
			log.Info("attempt failed; retrying", tree.EventKey, tree.AttemptFailed, "topic", "t1", "node", "root", "participant", "b", "attempt", 1, "err", "server error 503", "wait", "1s")
			p.Handle(failed)
			log.Warn("call failed", tree.EventKey, tree.AttemptFailed, "topic", "t1", "node", "root", "participant", "b", "attempt", 2, "err", "server error 503")
			p.Handle(failed)
			log.With(tree.EventKey, tree.AttemptFailed).Warn("call failed", "topic", "", "participant", "judge", "step", "edits", "attempt", 1, "err", "server error 503")
			p.Handle(tree.Event{Kind: tree.AttemptFailed, Participant: "judge", Step: tree.StepEdits, Time: ev.Time})
		}
		p.Handle(tree.Event{Kind: tree.NodeStarted, Topic: "topic-two", Node: "d" + string(rune('1'+i)), Time: ev.Time})
	}
	log.Warn("synthesis failed", "topic", "topic-two", "err", "judge unreachable")
	// The run's own calls (the proposed edits) belong to no topic.
	p.Handle(tree.Event{Kind: tree.CallStarted, Step: tree.StepEdits, Time: clock})
	p.Handle(tree.Event{Kind: tree.CallFinished, Step: tree.StepEdits, Time: clock})
	p.Handle(tree.Event{Kind: tree.TopicFinished, Topic: "topic-two", Status: tree.Forced, Decision: tree.Undecided, Cause: tree.CauseNoVerdict,
		Verdicts: tree.VerdictCount{Missing: 2}, Time: clock.Add(20 * time.Second)})
	p.Close()
	for _, f := range []string{"out/topic-t1-first.md", "out/topic-topic-two-second.md", "out/summary.md", "out/run.json"} {
		fmt.Fprintln(screen, f)
	}
	log.Info("run finished", "topics", 2)
	return screen
}

func TestProgressScreen(t *testing.T) {
	tests := []struct {
		width  int
		titles [2]string
	}{
		{80, [2]string{"First", "Second"}},
		{60, [2]string{"Should the public API keep offset pagination or move to opaque cursors?", "Second"}},
		{40, [2]string{"是否将消息队列从 RabbitMQ 迁移到 Kafka？这是一个很长的标题", "第二个议题"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			screen := drive(t, tt.width, false, tt.titles)
			rows := screen.Rows()
			text := strings.Join(rows, "\n")
			for _, r := range rows {
				if live := strings.HasPrefix(r, "✗ ") || strings.HasPrefix(r, "⚖ ") || strings.HasPrefix(r, "  all topics"); live && textwidth.String(r) >= tt.width {
					t.Errorf("live line %q takes the whole width of %d columns", r, tt.width)
				}
			}
			for _, prefix := range []string{"✗ t1 ", "⚖ topic-two "} {
				if n := countPrefix(rows, prefix); n != 1 {
					t.Errorf("%d rows start with %q, want exactly one:\n%s", n, prefix, text)
				}
			}
			for _, want := range []string{
				"failed · 1 node · 2 failed attempts · 1 fallback · 2.2k tok · 8s",
				// A forced topic whose judge gave no verdict says so.
				"undecided (2 verdicts missing) · 0 nodes · ",
				"t1: node root failed: no debater answered",
				`warning: synthesis failed (topic=topic-two err="judge unreachable")`,
				"out/topic-t1-first.md", "out/topic-topic-two-second.md", "out/summary.md", "out/run.json",
				"run finished (topics=2)",
			} {
				if tt.width == 80 && !strings.Contains(text, want) {
					t.Errorf("screen lacks %q:\n%s", want, text)
				}
			}
			for _, f := range []string{"out/summary.md", "out/run.json"} {
				if countPrefix(rows, f) != 1 {
					t.Errorf("screen does not hold %s once:\n%s", f, text)
				}
			}
			for _, not := range []string{"attempt failed", "call failed", "falls back", "nodes 0/0", "level=", "msg="} {
				if strings.Contains(text, not) {
					t.Errorf("screen shows %q:\n%s", not, text)
				}
			}
			if !strings.Contains(text, "all topics: 1 failed") {
				t.Errorf("the run's own failed attempt is not counted:\n%s", text)
			}
		})
	}
}

func TestProgressVerbose(t *testing.T) {
	text := strings.Join(drive(t, 80, true, [2]string{"First", "Second"}).Rows(), "\n")
	for _, want := range []string{`msg="attempt failed; retrying"`, `msg="call failed"`, "attempt=2", "falls back", `level=WARN msg="synthesis failed" topic=topic-two`, `level=INFO msg="run finished" topics=2`} {
		if !strings.Contains(text, want) {
			t.Errorf("verbose screen lacks %q:\n%s", want, text)
		}
	}
}

// TestProgressResize narrows the terminal: the redraw must go up over every
// row the wider lines now take, and draw lines that fit the new width.
func TestProgressResize(t *testing.T) {
	var buf bytes.Buffer
	width := 100
	resize := make(chan os.Signal, 1)
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := NewProgress(&buf, ProgressOptions{
		Terminal: true, Width: func() int { return width }, Resize: resize,
		Topics: []ProgressTopic{{ID: "t1", Title: strings.Repeat("long title ", 10)}, {ID: "t2", Title: "short"}},
		Now:    func() time.Time { return clock },
	})
	p.Handle(tree.Event{Kind: tree.TopicStarted, Topic: "t1", Time: clock})
	p.mu.Lock()
	before := slices.Clone(p.drawn)
	p.mu.Unlock()
	if before[0] != 99 {
		t.Fatalf("the first line takes %d columns at width 100, want 99", before[0])
	}
	width = 40
	buf.Reset()
	resize <- syscall.SIGWINCH
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		w := p.width
		p.mu.Unlock()
		if w == 40 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no redraw after a resize")
		}
		time.Sleep(time.Millisecond)
	}
	p.Close()
	out := buf.String()
	// 99 columns re-wrap into 3 rows of 40; the 2nd line fits in one.
	want := 3 + (before[1]-1)/40 + 1
	if !strings.HasPrefix(out, fmt.Sprintf("\r\x1b[%dA\x1b[J", want)) {
		t.Errorf("redraw after the resize starts %q, want to go up %d rows", out[:min(20, len(out))], want)
	}
	screen := vtscreen.New(40)
	screen.Write([]byte(out))
	for _, r := range screen.Rows() {
		if textwidth.String(r) >= 40 {
			t.Errorf("row %q does not fit 39 columns", r)
		}
	}
}

// TestProgressCountsEvents: the live lines count exactly the failed attempts
// and fallbacks the engine reported as events, per topic and for the run's
// own calls; log records count nothing, whatever their message, and only a
// record naming an event the live lines show is left out of the screen.
func TestProgressCountsEvents(t *testing.T) {
	type record struct {
		msg   string
		event tree.EventKind // "" for a record that names no event
	}
	tests := []struct {
		name    string
		events  []tree.Event
		records []record
		hidden  []string // messages left out of the screen
		shown   []string // messages printed above the live lines
	}{{
		name: "retries and a fallback",
		events: []tree.Event{
			{Kind: tree.AttemptFailed, Topic: "t1"}, {Kind: tree.AttemptFailed, Topic: "t1"},
			{Kind: tree.FellBack, Topic: "t1", Fallback: &tree.Fallback{}},
			{Kind: tree.AttemptFailed, Topic: "t2"},
		},
		records: []record{{"attempt failed; retrying", tree.AttemptFailed}, {"participant falls back", tree.FellBack}},
		hidden:  []string{"attempt failed; retrying", "participant falls back"},
	}, {
		name:    "records alone count nothing",
		events:  []tree.Event{{Kind: tree.CallStarted, Topic: "t1"}, {Kind: tree.CallFailed, Topic: "t1"}},
		records: []record{{"attempt failed; retrying", ""}, {"call failed", ""}, {"participant falls back for the rest of the topic", ""}},
		shown:   []string{"attempt failed; retrying", "call failed", "participant falls back"},
	}, {
		name: "an interrupted attempt is no failed attempt",
		events: []tree.Event{
			{Kind: tree.CallStarted, Topic: "t2"}, {Kind: tree.CallFailed, Topic: "t2", Err: "context canceled"},
		},
	}, {
		name: "the run's own calls",
		events: []tree.Event{
			{Kind: tree.AttemptFailed}, {Kind: tree.AttemptFailed}, {Kind: tree.FellBack, Fallback: &tree.Fallback{}},
			{Kind: tree.AttemptFailed, Topic: "t2"},
		},
		records: []record{{"edits failed", ""}, {"call failed", tree.AttemptFailed}, {"topic finished", tree.TopicFinished}},
		hidden:  []string{"call failed", "topic finished"},
		shown:   []string{"edits failed"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			screen := vtscreen.New(100)
			p := NewProgress(screen, ProgressOptions{
				Terminal: true, Width: func() int { return 100 },
				Topics: []ProgressTopic{{ID: "t1"}, {ID: "t2"}},
			})
			want := map[string]*counts{"t1": {}, "t2": {}, "": {}}
			for _, ev := range tt.events {
				p.Handle(ev)
				want[ev.Topic].add(ev.Kind)
			}
			for _, r := range tt.records {
				args := []any{"topic", "t1"}
				if r.event != "" {
					args = append(args, tree.EventKey, r.event)
				}
				p.Logger().Warn(r.msg, args...)
			}
			p.Close()
			rows := screen.Rows()
			text := strings.Join(rows, "\n")
			for _, id := range []string{"t1", "t2"} {
				var line string
				for _, r := range rows {
					if strings.HasPrefix(r, "… "+id+" ") {
						line = r
					}
				}
				if got, w := eventCounts(line), *want[id]; got != w {
					t.Errorf("%s: the live line counts [%v], the events [%v]:\n%s", id, got, w, text)
				}
			}
			var all string
			for _, r := range rows {
				if strings.HasPrefix(r, "  all topics: ") {
					all = r
				}
			}
			if got, w := eventCounts(all), *want[""]; got != w {
				t.Errorf("all topics: the line counts [%v], the run's own events [%v]:\n%s", got, w, text)
			}
			for _, m := range tt.hidden {
				if strings.Contains(text, m) {
					t.Errorf("the screen shows %q, whose event the live lines show:\n%s", m, text)
				}
			}
			for _, m := range tt.shown {
				if !strings.Contains(text, m) {
					t.Errorf("the screen lacks %q, which names no shown event:\n%s", m, text)
				}
			}
		})
	}
}

// eventCounts reads the counts a live line shows.
func eventCounts(line string) counts {
	var c counts
	for _, f := range strings.Split(line, " · ") {
		var n int
		var word string
		if _, err := fmt.Sscanf(strings.TrimPrefix(f, "  all topics: "), "%d %s", &n, &word); err != nil {
			continue
		}
		switch word {
		case "failed":
			c.failedAttempts = n
		case "fallback", "fallbacks":
			c.fallbacks = n
		}
	}
	return c
}

func countPrefix(rows []string, prefix string) int {
	n := 0
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

func TestCompact(t *testing.T) {
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1.0k", 12345: "12.3k", 4_100_000: "4.1M"} {
		if got := compact(in); got != want {
			t.Errorf("compact(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestProgressCountsStreamedTokens: the live line counts a streamed
// answer's tokens as they arrive, then what the provider reported.
func TestProgressCountsStreamedTokens(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	screen := vtscreen.New(100)
	p := NewProgress(screen, ProgressOptions{
		Terminal: true, Width: func() int { return 100 }, Now: func() time.Time { return clock },
		Topics: []ProgressTopic{{ID: "t1"}},
	})
	call := tree.Event{Topic: "t1", Node: "root", Participant: "a"}
	steps := []struct {
		kind  tree.EventKind
		usage tree.Usage
		want  string
	}{
		{tree.CallProgress, tree.Usage{CompletionTokens: 1500}, "1.5k tok"},
		{tree.CallProgress, tree.Usage{CompletionTokens: 1000}, "2.5k tok"},
		{tree.CallProgress, tree.Usage{CompletionTokens: -2500}, ""},
		{tree.CallFinished, tree.Usage{PromptTokens: 4000, CompletionTokens: 2600}, "6.6k tok"},
	}
	p.Handle(tree.Event{Kind: tree.TopicStarted, Topic: "t1", Time: clock})
	ev := call
	ev.Kind, ev.Time = tree.CallStarted, clock
	p.Handle(ev)
	for _, st := range steps {
		clock = clock.Add(time.Second) // past the redraw interval
		ev := call
		ev.Kind, ev.Usage, ev.Time = st.kind, st.usage, clock
		p.Handle(ev)
		if text := strings.Join(screen.Rows(), "\n"); st.want != "" && !strings.Contains(text, st.want) {
			t.Errorf("after %s %+v the screen lacks %q:\n%s", st.kind, st.usage, st.want, text)
		}
	}
	p.Close()
}

// TestProgressDemo: a demo says so on the live lines, and only a demo.
func TestProgressDemo(t *testing.T) {
	t.Parallel()
	for _, demo := range []bool{false, true} {
		t.Run(fmt.Sprint(demo), func(t *testing.T) {
			t.Parallel()
			screen := vtscreen.New(80)
			p := NewProgress(screen, ProgressOptions{Terminal: true, Demo: demo, Topics: []ProgressTopic{{ID: "t1", Title: "First"}}})
			p.Handle(tree.Event{Kind: tree.TopicStarted, Topic: "t1"})
			p.Close()
			rows := screen.Rows()
			if got := slices.Contains(rows, "  demo: a built-in scripted model plays every part; no model is called"); got != demo {
				t.Errorf("demo line shown: %v, want %v:\n%s", got, demo, strings.Join(rows, "\n"))
			}
		})
	}
}

// TestProgressSentences: on a terminal without Verbose a log record is a
// sentence: its message after a word for its level, its attributes in
// parentheses, quoted as in a log line; no time, level= or msg= key.
func TestProgressSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		log  func(*slog.Logger)
		want string
	}{
		{"info", func(l *slog.Logger) { l.Info("resuming", "journal", "out/.journal", "completed calls", 12) }, `resuming (journal=out/.journal "completed calls"=12)`},
		{"no attributes", func(l *slog.Logger) { l.Info("motions play as one run") }, "motions play as one run"},
		{"warning", func(l *slog.Logger) { l.Warn("synthesis failed", "err", "judge unreachable") }, `warning: synthesis failed (err="judge unreachable")`},
		{"error", func(l *slog.Logger) { l.Error("motion panicked", "motion", "m1") }, "error: motion panicked (motion=m1)"},
		{"with", func(l *slog.Logger) { l.With("motion", "m1").WithGroup("g").Info("waiting", "for", "ruling") }, "waiting (motion=m1 g.for=ruling)"},
		{"debug", func(l *slog.Logger) { l.Debug("hidden") }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			screen := vtscreen.New(200)
			p := NewProgress(screen, ProgressOptions{Terminal: true})
			p.Close()
			tt.log(p.Logger())
			if got := strings.Join(screen.Lines(), "\n"); got != tt.want {
				t.Errorf("screen %q, want %q", got, tt.want)
			}
		})
	}
}

// motionEvents plays a motion that a ruling closes at turn 2.
func motionEvents() []tree.Event {
	return []tree.Event{
		{Kind: tree.MotionStarted, Motion: "m1"},
		{Kind: tree.TurnStarted, Motion: "m1", Turn: 1, Role: "opponent"},
		{Kind: tree.CallStarted, Motion: "m1", Turn: 1, Participant: "opponent"},
		{Kind: tree.CallFinished, Motion: "m1", Turn: 1, Participant: "opponent", Usage: tree.Usage{PromptTokens: 900, CompletionTokens: 300}},
		{Kind: tree.Argued, Motion: "m1", Turn: 1, Role: "opponent", Argument: "CLAIM", Seq: 2},
		{Kind: tree.Argued, Motion: "m1", Turn: 1, Role: "proposer", Argument: "CLAIM", Seq: 3},
		{Kind: tree.TurnStarted, Motion: "m1", Turn: 2, Role: "opponent"},
		{Kind: tree.Argued, Motion: "m1", Turn: 2, Role: "opponent", Argument: "CLAIM", Seq: 4},
		{Kind: tree.Argued, Motion: "m1", Turn: 2, Role: "proposer", Argument: "APPEAL", Seq: 5},
		{Kind: tree.Ruled, Motion: "m1", Turn: 2, Role: "arbitrator", Argument: "RULING", Seq: 6, Closes: true},
		{Kind: tree.MotionFinished, Motion: "m1", Status: tree.Forced},
	}
}

// TestProgressMotion: a motion's live line counts turns and rulings, and
// its log lines speak of motions, turns and rulings, never of topics or
// nodes.
func TestProgressMotion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		terminal bool
		upTo     int // events played
		want     []string
	}{
		{"running", true, 6, []string{"… m1  turn 1 · calls 0 · 1.2k tok · 0s  Should we?"}},
		{"ruled", true, 11, []string{"⚖ m1  ruled · 2 turns · 1 ruling · 1.2k tok · 10s  Should we?"}},
		{"log", false, 11, []string{
			`msg="motion started" motion=m1`,
			`msg="turn 1 started" motion=m1 role=opponent`,
			`msg="turn 1: opponent CLAIM" motion=m1 seq=2`,
			`msg="turn 2: proposer APPEAL" motion=m1 seq=5`,
			`msg=ruling motion=m1 turn=2 seq=6 closes=true`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			screen := vtscreen.New(200)
			p := NewProgress(screen, ProgressOptions{
				Terminal: tt.terminal, Now: func() time.Time { return clock },
				Topics: []ProgressTopic{{ID: "m1", Title: "Should we?", Motion: true}},
			})
			for i, ev := range motionEvents()[:tt.upTo] {
				ev.Time = clock.Add(time.Duration(i) * time.Second)
				p.Handle(ev)
			}
			p.Close()
			text := strings.Join(screen.Lines(), "\n")
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("screen lacks %q:\n%s", want, text)
				}
			}
			for _, not := range []string{"topic", "node"} {
				if strings.Contains(text, not) {
					t.Errorf("screen speaks of %ss:\n%s", not, text)
				}
			}
		})
	}
}
