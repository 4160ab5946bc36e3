package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/internal/vtscreen"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
)

// TestRunOnTerminal runs "debate run" with stdout and stderr on one os.Pipe
// that the command takes for a terminal of 80, then 60 columns, as a
// person's terminal would be. The fake API makes Party C fail until it falls
// back, and makes other calls fail once before a retry succeeds. The screen
// emulated from every byte written must hold each topic's final live line
// exactly once, every file the run wrote, no routine log line and no live
// line as wide as the terminal.
func TestRunOnTerminal(t *testing.T) {
	t.Parallel()
	for _, width := range []int{80, 60} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			var mu sync.Mutex
			seen := map[string]bool{}
			srv.On(func(c scripted.Call) bool {
				if c.Model == "m-c" {
					return true
				}
				mu.Lock()
				defer mu.Unlock()
				// The first call of each model fails once, then is retried.
				first := !seen[c.Model]
				seen[c.Model] = true
				return first
			}, func(c scripted.Call) scripted.Reply { return scripted.Status(503, "overloaded") })
			scriptJudges(srv)
			cfgPath := writeConfig(t, srv, 3, `, {"id": "second-topic", "title": "是否将消息队列从 RabbitMQ 迁移到 Kafka？一个很长的中文标题"}`)
			b, _ := os.ReadFile(cfgPath)
			os.WriteFile(cfgPath, []byte(strings.Replace(string(b), `"maxRetries": 0`, `"maxRetries": 1`, 1)), 0o644)

			w, written := pipe(t)
			e := &env{
				stdin: strings.NewReader(""), stdout: w, stderr: w,
				getenv: func(k string) (string, bool) {
					if k == "TEST_API_KEY" {
						return testKey, true
					}
					return "", false
				},
				term: func(io.Writer) terminal {
					return terminal{ok: true, width: func() int { return width }, stop: func() {}}
				},
			}
			code := e.main([]string{"run", "-c", cfgPath})
			raw := written()
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, raw.String())
			}
			if !strings.Contains(raw.String(), "\x1b[") {
				t.Fatal("the run drew no live lines: it did not take the pipe for a terminal")
			}

			screen := vtscreen.New(width)
			screen.Write(raw.Bytes())
			rows := screen.Rows()
			text := strings.Join(rows, "\n")
			t.Logf("screen at %d columns:\n%s", width, text)
			out := filepath.Join(filepath.Dir(cfgPath), "out")
			run := readRun(t, filepath.Join(out, "run.json"))
			for _, tp := range run.Topics {
				var finals []string
				for _, row := range rows {
					if strings.HasPrefix(row, "⚖ "+tp.ID+" ") || strings.HasPrefix(row, "✓ "+tp.ID+" ") {
						finals = append(finals, row)
					}
				}
				if len(finals) != 1 {
					t.Errorf("%d final lines of %s on the screen, want 1", len(finals), tp.ID)
					continue
				}
				// The live line counts what run.json records: every failed
				// attempt was made again (retried, or by the fallback), and
				// every fallback.
				for _, want := range []string{
					" " + plural(tp.Usage.Failures, "retry", "retries"),
					" " + plural(len(tp.Fallbacks), "fallback", "fallbacks"),
				} {
					if tp.Usage.Failures == 0 || !strings.Contains(finals[0], want) {
						t.Errorf("final line of %s lacks %q: %s", tp.ID, want, finals[0])
					}
				}
			}
			files, _ := filepath.Glob(filepath.Join(out, "[^.]*"))
			lines := screen.Lines()
			for _, f := range files {
				n := 0
				for _, l := range lines {
					if l == f {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s is on the screen %d times, want once", f, n)
				}
			}
			if len(files) < 7 {
				t.Errorf("only %d files written: %q", len(files), files)
			}
			// The closing sentence counts as summary.md does: 41,230 tokens.
			end := fmt.Sprintf("%s model calls, %s tokens.", render.Thousands(run.Usage.Calls), render.Thousands(run.Usage.Total()))
			if run.Usage.Total() < 1000 || !strings.Contains(strings.Join(lines, " "), end) {
				t.Errorf("the screen lacks the closing count %q", end)
			}
			if next := "Next: open " + filepath.Join(out, "summary.html") + " in a browser."; lines[len(lines)-1] != next {
				t.Errorf("the screen ends on %q, want the next step %q", lines[len(lines)-1], next)
			}
			for _, not := range []string{"attempt failed", "call failed", "falls back"} {
				if strings.Contains(text, not) {
					t.Errorf("the screen shows the routine log line %q", not)
				}
			}
			for _, row := range rows {
				if (strings.HasPrefix(row, "⚖ ") || strings.HasPrefix(row, "✓ ")) && textwidth.String(row) >= width {
					t.Errorf("live line %q fills the whole width", row)
				}
			}
		})
	}
}

// TestRunLiveLineInFlight runs "debate run --concurrency 2" on a terminal
// against a fake that counts the requests it serves at once. The first two
// debaters' requests are held, once both are at the fake the display is
// asked to redraw until the live line shows them in flight and the third
// debater's call queued. No live
// line ever drawn counts more than 2 calls in flight.
func TestRunLiveLineInFlight(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	const apart = "2 in flight · 1 queued"
	var (
		mu   sync.Mutex
		raw  bytes.Buffer
		once sync.Once
	)
	shown, read := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			mu.Lock()
			raw.Write(buf[:n])
			if bytes.Contains(raw.Bytes(), []byte(apart)) {
				once.Do(func() { close(shown) })
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	resize := make(chan os.Signal)
	var held, in atomic.Int32
	both := make(chan struct{}) // the two held requests are at the fake
	srv.On(func(c scripted.Call) bool { return c.Model != "m-judge" && held.Add(1) <= 2 },
		func(c scripted.Call) scripted.Reply {
			if in.Add(1) == 2 {
				close(both)
			}
			select {
			case <-both:
			case <-t.Context().Done():
				return scripted.Status(500, "test over")
			}
			for {
				select {
				case <-shown:
					return scripted.Text("Position of " + c.Model + ": held until the live line showed it.")
				case resize <- syscall.SIGWINCH:
				case <-t.Context().Done():
					return scripted.Status(500, "test over")
				}
			}
		})
	e := &env{
		stdin: strings.NewReader(""), stdout: w, stderr: w,
		getenv: func(k string) (string, bool) { return testKey, k == "TEST_API_KEY" },
		term: func(io.Writer) terminal {
			return terminal{ok: true, width: func() int { return 100 }, resize: resize, stop: func() {}}
		},
	}
	code := e.main([]string{"run", "-c", writeConfig(t, srv, 2, ""), "--concurrency", "2"})
	w.Close()
	<-read
	r.Close()
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, raw.String())
	}
	if got := srv.MaxInFlight(); got != 2 {
		t.Errorf("the fake served %d requests at once, want 2", got)
	}
	select {
	case <-shown:
	default:
		t.Errorf("no live line showed %q", apart)
	}
	frames := regexp.MustCompile(`(\d+) in flight`).FindAllStringSubmatch(raw.String(), -1)
	most := 0
	for _, f := range frames {
		n, _ := strconv.Atoi(f[1])
		most = max(most, n)
	}
	t.Logf("%d live lines drawn, at most %d calls in flight on one; the fake served at most %d at once", len(frames), most, srv.MaxInFlight())
	if len(frames) == 0 || most > 2 {
		t.Errorf("%d live lines drawn, at most %d calls in flight on one; want some, none above 2", len(frames), most)
	}
}

// pipe returns the writing end of an os.Pipe, which a command takes for a
// terminal (through env.term), and a function that closes it and returns
// every byte written.
func pipe(t *testing.T) (*os.File, func() *bytes.Buffer) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&raw, r)
		close(done)
	}()
	return w, func() *bytes.Buffer {
		w.Close()
		<-done
		r.Close()
		return &raw
	}
}

// TestRunInterruptedOnTerminal interrupts a run at its third model call
// and reads what stays on an emulated 80-column screen. On a terminal the
// interrupt and the end of the run are sentences, the resume command a line
// of its own that a shell takes as is, and no log line shows; with
// --verbose, or with CI set, they are log lines.
func TestRunInterruptedOnTerminal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		ci       bool
		want     []string // lines or parts of lines on the screen
		logLines bool     // the screen holds level=… log lines
	}{
		{name: "plain", want: []string{
			"Interrupted: no new call starts; the reports are being written as they stand.",
			"To finish the run later without repeating a completed call, run:",
			"The run was interrupted after ",
		}},
		{name: "verbose", args: []string{"--verbose"}, logLines: true, want: []string{`level=WARN msg="interrupted: no new call starts`, `msg="run finished"`}},
		{name: "ci", ci: true, logLines: true, want: []string{`level=WARN msg="interrupted: no new call starts`, `msg="run finished"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t, scripted.WithLatency(200*time.Millisecond))
			third := make(chan struct{})
			var calls atomic.Int32
			srv.On(func(scripted.Call) bool {
				if calls.Add(1) == 3 {
					close(third)
				}
				return false
			}, nil)
			scriptJudges(srv)
			cfgPath := writeConfig(t, srv, 3, "")
			out := filepath.Join(filepath.Dir(cfgPath), "out")
			w, written := pipe(t)
			e := &env{
				stdin: strings.NewReader(""), stdout: w, stderr: w,
				getenv: func(k string) (string, bool) {
					switch {
					case k == "TEST_API_KEY":
						return testKey, true
					case k == "CI" && tt.ci:
						return "true", true
					}
					return "", false
				},
				term: func(io.Writer) terminal {
					return terminal{ok: true, width: func() int { return 80 }, stop: func() {}}
				},
				notify: func(c chan<- os.Signal) {
					go func() {
						<-third
						c <- syscall.SIGINT
					}()
				},
			}
			code := e.main(append([]string{"run", "-c", cfgPath, "--output", out}, tt.args...))
			raw := written()
			if code != exitInterrupted {
				t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, raw.String())
			}
			screen := vtscreen.New(80)
			screen.Write(raw.Bytes())
			lines := screen.Lines()
			text := strings.Join(lines, "\n")
			t.Logf("screen:\n%s", strings.Join(screen.Rows(), "\n"))
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("the screen lacks %q", want)
				}
			}
			if got := strings.Contains(text, "level="); got != tt.logLines {
				t.Errorf("log lines on the screen: %v, want %v", got, tt.logLines)
			}
			resume := "debate run --config " + cfgPath + " --output " + out + " --resume"
			if tt.logLines {
				if !strings.Contains(text, `resume="`+resume+`"`) {
					t.Errorf("the log does not give the resume command %q", resume)
				}
				return
			}
			// The command is a line of its own, the last but one of the
			// screen's text, with no quotes around it.
			if n := len(lines); n < 2 || lines[n-1] != resume || lines[n-2] != "To finish the run later without repeating a completed call, run:" {
				t.Errorf("the screen does not end with the resume command %q on a line of its own", resume)
			}
		})
	}
}
