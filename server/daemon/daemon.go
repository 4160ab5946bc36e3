// Package daemon supervises protocol server processes. A server running in
// the background ("debate serve --detach", or one an agent command starts on
// demand): it starts one and waits until it answers, finds it again through
// its pid file, reports on it and stops it. A server in the foreground
// (Launch, for the bench): it starts one, waits until it answers and stops
// it. A background server keeps its own pid file with KeepPidFile. One pid
// file and one log per address live in the state folder, so that any later
// command finds the server of an address.
package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/store"
)

// Bounds of starting and stopping a background server.
const (
	StartTimeout = 15 * time.Second // until /health answers
	StopTimeout  = 15 * time.Second // until the process is gone after SIGTERM
	dialTimeout  = time.Second      // probing whether anything listens
	pollEvery    = 50 * time.Millisecond
)

// Record is what the pid file of a background server holds.
type Record struct {
	PID     int       `json:"pid"`
	URL     string    `json:"url"`
	DB      string    `json:"db,omitempty"` // empty: the default database; a URL without its password
	Log     string    `json:"log"`
	Started time.Time `json:"started"`
}

// Supervisor starts, finds and stops the background servers of one user.
type Supervisor struct {
	// Getenv reads the environment the servers are started with.
	Getenv func(string) (string, bool)
	// Command returns a command running the debate program with args.
	Command func(args []string) (*exec.Cmd, error)
}

// Files returns the pid file and the log of the background server on
// addr: $XDG_STATE_HOME/debate (else ~/.local/state/debate)/serve-<addr>.pid
// and .log.
func (s Supervisor) Files(addr string) (pid, log string, err error) {
	dir, ok := s.Getenv("XDG_STATE_HOME")
	if !ok || dir == "" {
		home, ok := s.Getenv("HOME")
		if !ok || home == "" {
			if home, err = os.UserHomeDir(); err != nil {
				return "", "", fmt.Errorf("state folder for the pid file: %w (set XDG_STATE_HOME)", err)
			}
		}
		dir = filepath.Join(home, ".local", "state")
	}
	name := "serve-" + strings.NewReplacer(":", "-", "[", "", "]", "", "/", "-").Replace(addr)
	base := filepath.Join(dir, "debate", name)
	return base + ".pid", base + ".log", nil
}

// Read reads the pid file of addr; ok is false when there is none.
func (s Supervisor) Read(addr string) (r Record, ok bool, err error) {
	pidFile, _, err := s.Files(addr)
	if err != nil {
		return r, false, err
	}
	b, err := os.ReadFile(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("read pid file: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil || r.PID <= 0 {
		return r, false, fmt.Errorf("pid file %s is damaged; delete it", pidFile)
	}
	return r, true, nil
}

// Alive reports whether a process with pid exists.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// Start starts "debate serve" on addr in the background (db empty: the
// default database; token passed in the environment, never on its command
// line), waits until /health answers and returns the record the server
// wrote in its pid file. A record without a PID means another server won
// the address meanwhile and answers there.
func (s Supervisor) Start(ctx context.Context, addr, db, token string) (Record, error) {
	pidFile, logFile, err := s.Files(addr)
	if err != nil {
		return Record{}, err
	}
	if err := os.MkdirAll(filepath.Dir(pidFile), 0o700); err != nil {
		return Record{}, fmt.Errorf("state folder: %w", err)
	}
	log, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return Record{}, fmt.Errorf("server log: %w", err)
	}
	defer log.Close()
	cmd, err := s.command(addr, pidFile, db, token)
	if err != nil {
		return Record{}, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return Record{}, fmt.Errorf("start debate serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	r, err := s.awaitHealth(ctx, addr, token, cmd.Process.Pid, exited)
	if err != nil {
		if r.PID != 0 {
			_ = cmd.Process.Kill()
		}
		return Record{}, fmt.Errorf("%w; its log is %s", err, logFile)
	}
	return r, nil
}

// command returns the command that serves addr with pidFile. A database
// URL may hold a password: it goes in the environment, as the token, never
// on the command line.
func (s Supervisor) command(addr, pidFile, db, token string) (*exec.Cmd, error) {
	args := []string{"serve", "--addr", addr, "--pid-file", pidFile}
	var extra []string
	switch {
	case store.IsPostgres(db):
		extra = append(extra, "DEBATE_DB="+db)
	case db != "":
		abs, err := filepath.Abs(db)
		if err != nil {
			return nil, fmt.Errorf("--db: %w", err)
		}
		args = append(args, "--db", abs)
	}
	cmd, err := s.Command(args)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(s.childEnv(cmd.Env, token), extra...)
	cmd.SysProcAttr = detached()
	return cmd, nil
}

// awaitHealth waits until the server of pid answers /health on addr and
// returns its pid file's record. On failure the returned record's PID is
// pid when the process may still run.
func (s Supervisor) awaitHealth(ctx context.Context, addr, token string, pid int, exited <-chan error) (Record, error) {
	base := "http://" + addr
	c := client.New(base, token, nil)
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	for {
		hctx, hcancel := context.WithTimeout(ctx, time.Second)
		err := c.Health(hctx)
		hcancel()
		select {
		case werr := <-exited:
			if err == nil {
				// Another agent's server won the address: use it.
				return Record{URL: base}, nil
			}
			return Record{}, fmt.Errorf("debate serve exited (%v) before answering", werr)
		default:
		}
		if err == nil {
			// The server wrote its pid file before it answered.
			r, ok, err := s.Read(addr)
			if err != nil || !ok || r.PID != pid {
				return Record{}, fmt.Errorf("debate serve answers on %s but left no pid file naming it (%v)", addr, err)
			}
			return r, nil
		}
		if ce := (*client.Error)(nil); errors.As(err, &ce) && ce.Status != 0 {
			// Something answers, but not as this server would (another
			// server with another token): ours cannot have the address.
			return Record{PID: pid}, fmt.Errorf("another server answers on %s (%s: %s)", addr, ce.Code, ce.Message)
		}
		if ctxwait.Sleep(ctx, pollEvery) != nil {
			return Record{PID: pid}, fmt.Errorf("debate serve did not answer on %s within %s", addr, StartTimeout)
		}
	}
}

// childVars are the variables that pick a background server's database,
// state folder and reports.
var childVars = []string{"DEBATE_DB", "XDG_DATA_HOME", "XDG_STATE_HOME", "HOME", "DEBATE_REPORTS"}

// childEnv returns base with childVars as s.Getenv sees them (set, or
// absent) and the token, so that the server starts as the command that
// starts it would have started it.
func (s Supervisor) childEnv(base []string, token string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(childVars, k) && k != "DEBATE_AUTH_TOKEN" {
			out = append(out, kv)
		}
	}
	for _, k := range childVars {
		if v, ok := s.Getenv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	if token != "" {
		out = append(out, "DEBATE_AUTH_TOKEN="+token)
	}
	return out
}

// Stop ends the background server of addr with SIGTERM, waits until it is
// gone and removes its pid file.
func (s Supervisor) Stop(ctx context.Context, addr string) (Record, error) {
	r, ok, err := s.Read(addr)
	if err != nil {
		return r, err
	}
	if !ok {
		return r, fmt.Errorf("no background server on %s: nothing started with debate serve --detach or by an agent command", addr)
	}
	pidFile, _, _ := s.Files(addr)
	if Alive(r.PID) && !Listening(ctx, addr) {
		// The pid may belong to another program by now: signal nothing.
		_ = os.Remove(pidFile)
		return r, fmt.Errorf("nothing listens on %s although pid %d runs: it is not the server any more, so it was left alone; the pid file is removed", addr, r.PID)
	}
	if Alive(r.PID) {
		if err := terminate(ctx, r); err != nil {
			return r, err
		}
	}
	if err := os.Remove(pidFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return r, fmt.Errorf("remove pid file: %w", err)
	}
	return r, nil
}

// terminate sends the server of r SIGTERM and waits until it is gone.
func terminate(ctx context.Context, r Record) error {
	p, _ := os.FindProcess(r.PID)
	if err := p.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop pid %d: %w", r.PID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, StopTimeout)
	defer cancel()
	for Alive(r.PID) {
		if ctxwait.Sleep(ctx, pollEvery) != nil {
			return fmt.Errorf("pid %d still runs %s after SIGTERM; its log is %s", r.PID, StopTimeout, r.Log)
		}
	}
	return nil
}

// Dial connects to addr and hangs up.
func Dial(ctx context.Context, addr string) error {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.Close()
	}
	return err
}

// Listening reports whether something accepts connections on addr.
func Listening(ctx context.Context, addr string) bool { return Dial(ctx, addr) == nil }
