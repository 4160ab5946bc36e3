package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
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

// A server started in the background (debate serve --detach, or an agent
// command finding none) leaves a pid file and its log in the state folder,
// one pair per address, so that debate serve --status and --stop find it.

// Bounds of starting and stopping a background server.
const (
	startTimeout = 15 * time.Second // until /health answers
	stopTimeout  = 15 * time.Second // until the process is gone after SIGTERM
	dialTimeout  = time.Second      // probing whether anything listens
)

// autoStartVar turns the server on demand off when set to 0.
const autoStartVar = "DEBATE_AUTO_START"

// daemon is what the pid file of a background server records.
type daemon struct {
	PID     int       `json:"pid"`
	URL     string    `json:"url"`
	DB      string    `json:"db,omitempty"` // empty: the default database; a URL without its password
	Log     string    `json:"log"`
	Started time.Time `json:"started"`
}

// daemonFiles returns the pid file and the log of the background server on
// addr: $XDG_STATE_HOME/debate (else ~/.local/state/debate)/serve-<addr>.pid
// and .log.
func (e *env) daemonFiles(addr string) (pid, log string, err error) {
	dir, ok := e.getenv("XDG_STATE_HOME")
	if !ok || dir == "" {
		home, ok := e.getenv("HOME")
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

// readDaemon reads the pid file of addr; ok is false when there is none.
func (e *env) readDaemon(addr string) (d daemon, ok bool, err error) {
	pidFile, _, err := e.daemonFiles(addr)
	if err != nil {
		return d, false, err
	}
	b, err := os.ReadFile(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		return d, false, nil
	}
	if err != nil {
		return d, false, fmt.Errorf("read pid file: %w", err)
	}
	if err := json.Unmarshal(b, &d); err != nil || d.PID <= 0 {
		return d, false, fmt.Errorf("pid file %s is damaged; delete it", pidFile)
	}
	return d, true, nil
}

// alive reports whether a process with pid exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// startDaemon starts "debate serve" on addr in the background (db empty: the
// default database; token passed in the environment, never on its command
// line), waits until /health answers and returns the record the server wrote
// in its pid file.
func (e *env) startDaemon(ctx context.Context, addr, db, token string) (daemon, error) {
	pidFile, logFile, err := e.daemonFiles(addr)
	if err != nil {
		return daemon{}, err
	}
	if err := os.MkdirAll(filepath.Dir(pidFile), 0o700); err != nil {
		return daemon{}, fmt.Errorf("state folder: %w", err)
	}
	log, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return daemon{}, fmt.Errorf("server log: %w", err)
	}
	defer log.Close()
	args := []string{"serve", "--addr", addr, "--pid-file", pidFile}
	var extra []string
	switch {
	case store.IsPostgres(db):
		// A URL may hold a password: pass it in the environment, as the
		// token, never on the command line.
		extra = append(extra, "DEBATE_DB="+db)
	case db != "":
		if db, err = filepath.Abs(db); err != nil {
			return daemon{}, fmt.Errorf("--db: %w", err)
		}
		args = append(args, "--db", db)
	}
	cmd, err := e.self(args)
	if err != nil {
		return daemon{}, err
	}
	cmd.Env = append(e.childEnv(cmd.Env, token), extra...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return daemon{}, fmt.Errorf("start debate serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	base := "http://" + addr
	c := client.New(base, token, nil)
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		hctx, hcancel := context.WithTimeout(ctx, time.Second)
		err := c.Health(hctx)
		hcancel()
		select {
		case werr := <-exited:
			if err == nil {
				// Another agent's server won the address: use it.
				return daemon{URL: base}, nil
			}
			return daemon{}, fmt.Errorf("debate serve exited (%v) before answering; its log is %s", werr, logFile)
		default:
		}
		if err == nil {
			// The server wrote its pid file before it answered.
			rec, ok, err := e.readDaemon(addr)
			if err != nil || !ok || rec.PID != cmd.Process.Pid {
				return daemon{}, fmt.Errorf("debate serve answers on %s but left no pid file naming it (%v); its log is %s", addr, err, logFile)
			}
			return rec, nil
		}
		if ce := (*client.Error)(nil); errors.As(err, &ce) && ce.Status != 0 {
			// Something answers, but not as this server would (another
			// server with another token): ours cannot have the address.
			_ = cmd.Process.Kill()
			return daemon{}, fmt.Errorf("another server answers on %s (%s: %s); its log is %s", addr, ce.Code, ce.Message, logFile)
		}
		if ctxwait.Sleep(ctx, 50*time.Millisecond) != nil {
			_ = cmd.Process.Kill()
			return daemon{}, fmt.Errorf("debate serve did not answer on %s within %s; its log is %s", addr, startTimeout, logFile)
		}
	}
}

// childVars are the variables that pick a background server's database,
// state folder and reports.
var childVars = []string{"DEBATE_DB", "XDG_DATA_HOME", "XDG_STATE_HOME", "HOME", "DEBATE_REPORTS"}

// childEnv returns base with childVars as this command sees them (set, or
// absent) and the token, so that the server starts as the command would
// have started it.
func (e *env) childEnv(base []string, token string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(childVars, k) && k != "DEBATE_AUTH_TOKEN" {
			out = append(out, kv)
		}
	}
	for _, k := range childVars {
		if v, ok := e.getenv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	if token != "" {
		out = append(out, "DEBATE_AUTH_TOKEN="+token)
	}
	return out
}

// self returns a command running this program with args; tests replace it
// through e.spawn.
func (e *env) self(args []string) (*exec.Cmd, error) {
	if e.spawn != nil {
		return e.spawn(args), nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the debate program to start a server: %w", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = os.Environ()
	return cmd, nil
}

// stopDaemon ends the background server of addr with SIGTERM, waits until
// it is gone and removes its pid file.
func (e *env) stopDaemon(ctx context.Context, addr string) (daemon, error) {
	d, ok, err := e.readDaemon(addr)
	if err != nil {
		return d, err
	}
	if !ok {
		return d, fmt.Errorf("no background server on %s: nothing started with debate serve --detach or by an agent command", addr)
	}
	pidFile, _, _ := e.daemonFiles(addr)
	if alive(d.PID) && !listening(ctx, addr) {
		// The pid may belong to another program by now: signal nothing.
		_ = os.Remove(pidFile)
		return d, fmt.Errorf("nothing listens on %s although pid %d runs: it is not the server any more, so it was left alone; the pid file is removed", addr, d.PID)
	}
	if alive(d.PID) {
		p, _ := os.FindProcess(d.PID)
		if err := p.Signal(syscall.SIGTERM); err != nil {
			return d, fmt.Errorf("stop pid %d: %w", d.PID, err)
		}
		ctx, cancel := context.WithTimeout(ctx, stopTimeout)
		defer cancel()
		for alive(d.PID) {
			if ctxwait.Sleep(ctx, 50*time.Millisecond) != nil {
				return d, fmt.Errorf("pid %d still runs %s after SIGTERM; its log is %s", d.PID, stopTimeout, d.Log)
			}
		}
	}
	if err := os.Remove(pidFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return d, fmt.Errorf("remove pid file: %w", err)
	}
	return d, nil
}

// autoStart starts a server for an agent command whose server does not
// answer, as the seed's CLI does: only for a loopback URL, only when
// DEBATE_AUTO_START is not 0, and only when nothing listens there. It
// returns whether it started one.
func (e *env) autoStart(ctx context.Context, s conn) (bool, error) {
	if v, _ := e.getenv(autoStartVar); v == "0" || strings.EqualFold(v, "false") {
		return false, nil
	}
	u, err := url.Parse(s.url)
	if err != nil || u.Scheme != "http" || !loopbackHost(u.Hostname()) || (u.Path != "" && u.Path != "/") {
		return false, nil
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	if err := dial(ctx, addr); err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
		return false, nil
	}
	if _, err := e.startDaemon(ctx, addr, "", s.token); err != nil {
		return false, &client.Error{Code: client.CodeUnreachable, Message: "nothing answers on " + redactURL(s.url) + " and starting a server there failed",
			Err: err, Suggestion: "run debate serve --addr " + addr + " yourself and read its error"}
	}
	return true, nil
}

// dial connects to addr and hangs up.
func dial(ctx context.Context, addr string) error {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.Close()
	}
	return err
}

// listening reports whether something accepts connections on addr.
func listening(ctx context.Context, addr string) bool { return dial(ctx, addr) == nil }

// loopbackHost reports whether host names this machine only.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
