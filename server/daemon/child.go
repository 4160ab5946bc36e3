package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/server/client"
)

// Child is a protocol server running in the foreground, in a process of its
// own that ends with the program that started it (on Linux even when that
// program is killed): what "debate bench serve" measures. Launch starts one;
// the caller must Stop it.
type Child struct {
	URL  string // http://host:port, from its "listening on" line
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has ended
	err  error         // how it ended, once done
	tail tail          // the end of its stderr, for errors
}

// listening finds the server's address in its stderr.
var listening = regexp.MustCompile(`listening on (http://[^\s]+)`)

// Launch starts cmd, a "debate serve" that prints "listening on
// http://host:port" on stderr once it accepts connections and stops cleanly
// on SIGTERM, and returns once its /health answers (without a token), within
// StartTimeout. An error quotes the last lines of its stderr.
func Launch(ctx context.Context, cmd *exec.Cmd) (*Child, error) {
	cmd.SysProcAttr = orphanless(cmd.SysProcAttr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("start the server: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the server: %w", err)
	}
	c := &Child{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			c.tail.add(sc.Text())
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr) // a line too long for the scanner
		c.err = cmd.Wait()
		close(c.done)
	}()
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	select {
	case c.URL = <-addr:
	case <-c.done:
		return nil, fmt.Errorf("the server ended before it listened (%v): %s", c.err, c.tail.String())
	case <-ctx.Done():
		_ = c.Stop()
		return nil, fmt.Errorf("the server did not say where it listens: %w", ctx.Err())
	}
	if err := c.awaitHealth(ctx); err != nil {
		_ = c.Stop()
		return nil, err
	}
	return c, nil
}

// awaitHealth polls the child's /health until it answers or ctx ends.
func (c *Child) awaitHealth(ctx context.Context) error {
	hc := client.New(c.URL, "", nil)
	for {
		err := hc.Health(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-c.done:
			return fmt.Errorf("the server ended: %v: %s", c.err, c.tail.String())
		default:
		}
		if ctxwait.Sleep(ctx, pollEvery) != nil {
			return fmt.Errorf("%s/health does not answer: %w", c.URL, err)
		}
	}
}

// PID is the child's process id.
func (c *Child) PID() int { return c.cmd.Process.Pid }

// Stop ends the child with SIGTERM, or kills it when it has not ended
// StopTimeout later, and waits until it is gone. It returns an error when
// the child had ended on its own before, or did not shut down cleanly.
func (c *Child) Stop() error {
	select {
	case <-c.done:
		return fmt.Errorf("the server ended before it was stopped (%v): %s", c.err, c.tail.String())
	default:
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		_ = c.cmd.Process.Kill() // no SIGTERM on this system
	}
	select {
	case <-c.done:
	case <-time.After(StopTimeout):
		_ = c.cmd.Process.Kill()
		<-c.done
		return errors.New("the server did not stop within " + StopTimeout.String() + " of SIGTERM; killed")
	}
	if c.err != nil {
		return fmt.Errorf("the server's shutdown: %w: %s", c.err, c.tail.String())
	}
	return nil
}

// tail keeps the last lines of a child's stderr.
type tail struct {
	mu    sync.Mutex
	lines []string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > 5 {
		t.lines = t.lines[1:]
	}
}

// String returns the lines kept, oldest first.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.lines, "\n")
}
