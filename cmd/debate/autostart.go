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
	"strings"
	"syscall"

	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/server/daemon"
	"github.com/debatehq/debate/store"
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
// answer, as vjcspy/aweave's CLI does: only for a loopback URL, only when
// DEBATE_AUTO_START is not 0, and only when nothing listens there. It
// returns what it started, or nil.
func (e *env) autoStart(ctx context.Context, s conn) (*startedServer, error) {
	if v, _ := e.getenv(autoStartVar); v == "0" || strings.EqualFold(v, "false") {
		return nil, nil
	}
	u, err := url.Parse(s.url)
	if err != nil || u.Scheme != "http" || !loopback.Host(u.Hostname()) || (u.Path != "" && u.Path != "/") {
		return nil, nil
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	if err := daemon.Dial(ctx, addr); err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
		return nil, nil
	}
	r, err := e.supervisor().Start(ctx, addr, "", s.token)
	if err != nil {
		return nil, &client.Error{Code: client.CodeUnreachable, Message: "nothing answers on " + redact.URL(s.url) + " and starting a server there failed",
			Err: err, Suggestion: "run debate serve --addr " + addr + " yourself and read its error"}
	}
	db := r.DB
	if db == "" {
		if db, err = store.DefaultPathFrom(e.getenv); err != nil {
			db = "the default database"
		}
	}
	started := &startedServer{URL: "http://" + addr, Database: db, Log: r.Log, PID: r.PID, Stop: "debate serve --stop --addr " + addr}
	fmt.Fprintf(e.stderr, "debate: nothing answered on %s, so a server was started there in the background (pid %d, database %s, log %s).\nStop it with:\n  %s\n",
		started.URL, started.PID, started.Database, started.Log, started.Stop)
	return started, nil
}

// startedServer is the server an agent command started on demand, as its
// JSON output names it under "server_started".
type startedServer struct {
	URL      string `json:"url"`
	Database string `json:"database"`
	Log      string `json:"log"`
	PID      int    `json:"pid"`
	Stop     string `json:"stop"`
}

// with returns out, an agent command's JSON object, with the started server
// added as "server_started".
func (st *startedServer) with(out any) any {
	b, err := json.Marshal(out)
	if err != nil || len(b) < 2 || b[0] != '{' {
		return out
	}
	extra, err := json.Marshal(st)
	if err != nil {
		return out
	}
	sep := ","
	if string(b) == "{}" {
		sep = ""
	}
	return json.RawMessage(string(b[:len(b)-1]) + sep + `"server_started":` + string(extra) + "}")
}

// explain adds to a not-found answer of a server started moments ago that
// its database was empty: the command probably names the wrong server.
func (st *startedServer) explain(err error) error {
	var ce *client.Error
	if !errors.As(err, &ce) || (ce.Code != string(protocol.CodeDebateNotFound) && ce.Code != string(protocol.CodeArgumentNotFound)) {
		return err
	}
	ce.Message += " (the server on " + st.URL + " was started by this command just now, on " + st.Database + ")"
	ce.Suggestion = "this is probably not the server that holds the debate: point --server or DEBATE_SERVER_URL at it, then stop the one just started with: " + st.Stop
	return err
}
