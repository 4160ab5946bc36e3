package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/server/daemon"
)

// autoStartVar turns the server on demand off when set to 0.
const autoStartVar = "DEBATE_AUTO_START"

// supervisor returns the supervisor of background servers started from
// this command's environment.
func (e *env) supervisor() daemon.Supervisor {
	return daemon.Supervisor{Getenv: e.getenv, Command: e.self}
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

// autoStart starts a server for an agent command whose server does not
// answer, as the seed's CLI does: only for a loopback URL, only when
// DEBATE_AUTO_START is not 0, and only when nothing listens there. It
// returns whether it started one.
func (e *env) autoStart(ctx context.Context, s conn) (bool, error) {
	if v, _ := e.getenv(autoStartVar); v == "0" || strings.EqualFold(v, "false") {
		return false, nil
	}
	u, err := url.Parse(s.url)
	if err != nil || u.Scheme != "http" || !loopback.Host(u.Hostname()) || (u.Path != "" && u.Path != "/") {
		return false, nil
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	if err := daemon.Dial(ctx, addr); err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
		return false, nil
	}
	if _, err := e.supervisor().Start(ctx, addr, "", s.token); err != nil {
		return false, &client.Error{Code: client.CodeUnreachable, Message: "nothing answers on " + redactURL(s.url) + " and starting a server there failed",
			Err: err, Suggestion: "run debate serve --addr " + addr + " yourself and read its error"}
	}
	return true, nil
}
