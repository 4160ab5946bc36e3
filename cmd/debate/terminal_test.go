package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/internal/vtscreen"
	"github.com/debatehq/debate/providers/providertest"
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
			srv.On(func(c providertest.Call) bool {
				if c.Model == "m-c" {
					return true
				}
				mu.Lock()
				defer mu.Unlock()
				// The first call of each model fails once, then is retried.
				first := !seen[c.Model]
				seen[c.Model] = true
				return first
			}, func(c providertest.Call) providertest.Reply { return providertest.Status(503, "overloaded") })
			scriptJudges(srv)
			cfgPath := writeConfig(t, srv, 3, `, {"id": "second-topic", "title": "是否将消息队列从 RabbitMQ 迁移到 Kafka？一个很长的中文标题"}`)
			b, _ := os.ReadFile(cfgPath)
			os.WriteFile(cfgPath, []byte(strings.Replace(string(b), `"maxRetries": 0`, `"maxRetries": 1`, 1)), 0o644)

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
			w.Close()
			<-done
			r.Close()
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
				// attempt (retried or not) and every fallback.
				for _, want := range []string{fmt.Sprintf(" %d failed", tp.Usage.Failures), fmt.Sprintf(" %d fallback", len(tp.Fallbacks))} {
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
