package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Spawn returns the command that runs a protocol server with args (--addr,
// --db and --token); it prints "listening on http://host:port" on stderr
// once it accepts connections and stops cleanly on SIGTERM, as debate serve
// does.
type Spawn func(args []string) (*exec.Cmd, error)

// child is a protocol server running in a process of its own.
type child struct {
	cmd  *exec.Cmd
	base string
	done chan struct{} // closed when the process has ended
	err  error         // how it ended, once done
	tail *tailWriter   // the end of its stderr, for errors
}

// listening finds the server's address in its stderr.
var listening = regexp.MustCompile(`listening on (http://[^\s]+)`)

// startChild starts the server of spawn on a free loopback port with the
// database db and returns once it answers /health. The caller must stop it.
func startChild(ctx context.Context, spawn Spawn, db string) (*child, error) {
	// An empty --token: a DEBATE_AUTH_TOKEN in the environment must not
	// lock the load generator out.
	cmd, err := spawn([]string{"--addr", "127.0.0.1:0", "--db", db, "--token="})
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	cmd.SysProcAttr = orphanless(cmd.SysProcAttr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench serve: start the server: %w", err)
	}
	c := &child{cmd: cmd, done: make(chan struct{}), tail: &tailWriter{}}
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
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	select {
	case c.base = <-addr:
	case <-c.done:
		return nil, fmt.Errorf("bench serve: the server ended before it listened (%v): %s", c.err, c.tail.String())
	case <-wctx.Done():
		_ = c.stop()
		return nil, fmt.Errorf("bench serve: the server did not say where it listens: %w", wctx.Err())
	}
	for {
		req, err := http.NewRequestWithContext(wctx, http.MethodGet, c.base+"/health", nil)
		if err != nil {
			_ = c.stop()
			return nil, fmt.Errorf("bench serve: %w", err)
		}
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return c, nil
			}
			err = fmt.Errorf("HTTP %d", res.StatusCode)
		}
		select {
		case <-c.done:
			return nil, fmt.Errorf("bench serve: the server ended: %v: %s", c.err, c.tail.String())
		case <-wctx.Done():
			_ = c.stop()
			return nil, fmt.Errorf("bench serve: %s/health does not answer: %w", c.base, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// cpu is the CPU time the server has used so far.
func (c *child) cpu() time.Duration { return processCPU(c.cmd.Process.Pid) }

// stop ends the server with SIGTERM, or kills it when it has not ended 10 s
// later, and waits until it is gone. It returns an error when the server
// ended on its own or did not shut down cleanly.
func (c *child) stop() error {
	select {
	case <-c.done:
		return fmt.Errorf("bench serve: the server ended during the load (%v): %s", c.err, c.tail.String())
	default:
	}
	if err := terminate(c.cmd.Process); err != nil {
		_ = c.cmd.Process.Kill()
	}
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
		return errors.New("bench serve: the server did not stop within 10s of SIGTERM; killed")
	}
	if c.err != nil {
		return fmt.Errorf("bench serve: the server's shutdown: %w: %s", c.err, c.tail.String())
	}
	return nil
}

// tailWriter keeps the last lines written to it.
type tailWriter struct {
	lines []string
}

func (t *tailWriter) add(line string) {
	t.lines = append(t.lines, line)
	if len(t.lines) > 5 {
		t.lines = t.lines[1:]
	}
}

func (t *tailWriter) String() string { return strings.Join(t.lines, "\n") }
