package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// nestedVars are the variables by which a coding agent knows it runs
// inside another's session; an agent started with them behaves as a
// nested one (Claude Code refuses to start), so they are removed.
var nestedVars = []string{
	"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SSE_PORT",
	"CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID",
	"GEMINI_CLI",
}

// environ is env without the nested-session variables.
func environ(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(nestedVars, name)
	})
}

// process is one run of an agent's program.
type process struct {
	argv []string
	dir  string
	env  []string
	// stdin is written to the program's standard input, which is then
	// closed; "" gives it the null device.
	stdin   string
	timeout time.Duration
	// maxOut caps what is kept of standard output; past it the process
	// group is ended.
	maxOut int64
}

// outcome is what a process did.
type outcome struct {
	stdout   []byte
	stderr   []byte // its last stderrTail bytes
	exit     int    // -1 when it did not exit by itself
	timedOut bool   // ended by the timeout
	overflow bool   // ended for writing more than maxOut
	err      error  // it could not start, a signal not ours ended it, or the caller's context ended
	elapsed  time.Duration
}

// stderrTail is how much of the end of standard error is kept: enough for
// the last error a CLI printed.
const stderrTail = 16 << 10

// waitDelay bounds the wait for the output pipes after the program ended
// or was killed: a process it left behind may hold them open.
const waitDelay = 2 * time.Second

// run starts p in a session (and process group) of its own, without a
// terminal, and waits for it to end, for its timeout, for its output to
// pass the cap or for ctx; in every case the whole group is killed before
// run returns, so nothing it started outlives it.
func run(ctx context.Context, p process) outcome {
	tctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, p.argv[0], p.argv[1:]...)
	cmd.Dir, cmd.Env = p.dir, p.env
	if p.stdin != "" {
		cmd.Stdin = strings.NewReader(p.stdin)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out := &capped{max: p.maxOut}
	errs := &tail{max: stderrTail}
	cmd.Stdout, cmd.Stderr = out, errs
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	// Start sets cmd.Process before it starts the goroutines that write
	// the output.
	out.kill = func() { _ = killGroup(cmd.Process.Pid) }
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return outcome{exit: -1, err: fmt.Errorf("could not start: %w", err)}
	}
	err := cmd.Wait()
	_ = killGroup(cmd.Process.Pid) // whatever it left running
	o := outcome{stdout: out.buf, stderr: errs.buf, exit: -1, overflow: out.over, elapsed: time.Since(start)}
	if st := cmd.ProcessState; st != nil && st.Exited() {
		o.exit = st.ExitCode()
	}
	switch {
	case ctx.Err() != nil:
		o.err = context.Cause(ctx)
	case tctx.Err() != nil && !o.overflow:
		o.timedOut = true
	case err != nil && o.exit < 0 && !o.overflow && !errors.Is(err, exec.ErrWaitDelay):
		o.err = err
	}
	return o
}

// killGroup kills every process of the group led by pid.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// capped keeps what is written up to max bytes; the first write past it
// calls kill and fails, which ends the copy from the program's output.
type capped struct {
	max  int64
	buf  []byte
	over bool
	kill func()
}

func (c *capped) Write(b []byte) (int, error) {
	room := c.max - int64(len(c.buf))
	if int64(len(b)) <= room {
		c.buf = append(c.buf, b...)
		return len(b), nil
	}
	c.buf = append(c.buf, b[:max(room, 0)]...)
	if !c.over {
		c.over = true
		if c.kill != nil {
			c.kill()
		}
	}
	return 0, errOverflow
}

var errOverflow = errors.New("output over its cap")

// tail keeps the last max bytes written.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	n := len(b)
	if n > t.max {
		b = b[n-t.max:]
	}
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return n, nil
}
