package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/server/daemon"
	"github.com/debatehq/debate/server/web"
	"github.com/debatehq/debate/store"
)

// defaultAddr is where debate serve listens and the agent commands look.
const defaultAddr = "127.0.0.1:3456"

// serveOptions are the flags of "debate serve".
type serveOptions struct {
	addr    string
	db      string
	token   string
	reports []string
	// cpuprofile is a file the server's CPU profile is written to when it
	// stops (a hidden flag, for performance work).
	cpuprofile string
	// pidFile is the pid file a background server keeps (a hidden flag set
	// by the command that starts it): see daemon.KeepPidFile.
	pidFile string
	// detach, status and stop manage a server in the background instead.
	detach, status, stop bool
	// reportsSet and tokenSet tell the flags given from their defaults.
	reportsSet, tokenSet bool
	// mcp says which runs the MCP endpoint may start.
	mcp runFlags
}

func serveCommand() *command {
	return &command{
		name: "serve", summary: "serve the protocol to agents and a human arbitrator",
		help: help{
			about: `Run the argument-protocol server: the REST API the agent commands use (debates,
arguments, long-polling waits, documents), a WebSocket feed for the arbitrator,
and the web UI.`,
			usage: `  debate serve [--addr ` + defaultAddr + `] [--db <file>] [--token <t>]
               [--reports <dir>]... [--mcp-folder <dir>]...
               [--mcp-default-config <f>]
               [--detach | --status | --stop]
`,
			sections: []section{{"ROUTES", `  GET /health
  POST /debates                         GET /debates?state=&limit=&offset=
  GET /debates/{id}?limit=              DELETE /debates/{id}
  GET /debates/{id}/poll?role=&argument_id=&wait=
  POST /debates/{id}/arguments|appeal|resolution|intervention|ruling
  POST /documents                       POST /documents/{id}/versions
  GET /documents/{id}?version=
  GET /ws?debate_id=                    (WebSocket; ?token= when a token is set)
  POST /mcp                             (MCP, streamable HTTP: the tools of
                                        debate mcp; run tools need a token)
  Web UI (browsers): GET / (debates and --reports runs),
  GET /debates/{id} (live page), GET /reports/…
`}, {"ACCESS", `  With a token (--token or DEBATE_AUTH_TOKEN) every route, /health included,
  needs "Authorization: Bearer <token>"; GET requests may pass ?token= instead.
  Without one, anyone who can reach the address may read and write, so keep the
  default loopback address. The URL is printed on stderr. Ctrl-C or SIGTERM
  stops accepting, answers waiting polls, closes WebSockets and the database
  cleanly.
`}, {"IN THE BACKGROUND", `  --detach starts the server in the background and returns once it answers; its
  pid file and log are $XDG_STATE_HOME/debate/serve-<addr>.pid and .log
  (default ~/.local/state/debate/). --status and --stop, with the same --addr,
  report on it and end it; the server writes its pid file again if it is
  deleted. An agent command whose server is a loopback address where nothing
  listens starts one the same way (with the default database) unless
  DEBATE_AUTO_START=0.
`}},
			examples: `  debate serve
  DEBATE_AUTH_TOKEN=$(openssl rand -hex 16) debate serve --addr 127.0.0.1:8080
  debate serve --db ./team.db --token s3cret
  debate serve --detach && debate serve --status && debate serve --stop
`,
			exits: `  0  stopped by Ctrl-C or SIGTERM after a clean shutdown; --detach: started;
     --status: running; --stop: stopped
  1  the database could not be opened, the address could not be bound, or
     serving failed; --status: no server running; --stop: none to stop
  2  bad flags
`,
			environ: `  DEBATE_DB          the database when --db is not given
  DEBATE_AUTH_TOKEN  the token when --token is not given
  DEBATE_REPORTS     the report folders when --reports is not given
  XDG_STATE_HOME     where --detach keeps its pid file and log
`,
		},
		options: func() options { return &serveOptions{} },
	}
}

func (o *serveOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.addr, "addr", defaultAddr, "address to listen on (host:port); loopback unless you mean otherwise")
	fs.StringVar(&o.db, "db", "", "SQLite database file, or postgres:// URL for several replicas (default $DEBATE_DB, else $XDG_DATA_HOME/debate/debate.db or ~/.local/share/debate/debate.db)")
	fs.StringVar(&o.token, "token", "", "bearer token required on every route, the WebSocket and the web UI (default $DEBATE_AUTH_TOKEN)")
	fs.StringArrayVar(&o.reports, "reports", nil, "folder of batch runs' outputs to list in the web UI; repeat for several (default $DEBATE_REPORTS, a path list)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the server to this file when it stops")
	_ = fs.MarkHidden("cpuprofile")
	fs.StringVar(&o.pidFile, "pid-file", "", "restore this pid file while the server runs if it is deleted")
	_ = fs.MarkHidden("pid-file")
	o.mcp.flags(fs, "mcp-", "none: only inline questions, with --mcp-default-config")
	fs.BoolVar(&o.detach, "detach", false, "start the server in the background and return once it answers")
	fs.BoolVar(&o.status, "status", false, "report on the background server of --addr")
	fs.BoolVar(&o.stop, "stop", false, "stop the background server of --addr")
}

func (o *serveOptions) args(fs *pflag.FlagSet) error {
	if err := onlyFlags(fs); err != nil {
		return err
	}
	if n := btoi(o.detach) + btoi(o.status) + btoi(o.stop); n > 1 {
		return usagef("--detach, --status and --stop: give one of them")
	}
	o.reportsSet, o.tokenSet = fs.Changed("reports"), fs.Changed("token")
	return nil
}

func (o *serveOptions) run(e *env) error {
	if v, ok := e.getenv("DEBATE_REPORTS"); ok && v != "" && !o.reportsSet {
		o.reports = filepath.SplitList(v)
	}
	if !o.tokenSet {
		o.token, _ = e.getenv("DEBATE_AUTH_TOKEN")
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	switch {
	case o.detach:
		return o.runDetach(ctx, e)
	case o.status:
		return o.runStatus(ctx, e)
	case o.stop:
		return o.runStop(ctx, e)
	}
	if err := o.serve(ctx, e); err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, "debate serve: stopped")
	return nil
}

// serve serves until ctx ends, then shuts down cleanly.
func (o *serveOptions) serve(ctx context.Context, e *env) error {
	path, err := batch.DebateDB(o.db, e.getenv)
	if err != nil {
		return err
	}
	defer tuneGC(e.getenv)()
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	st, err := store.Open(ctx, path, store.Options{Logger: log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return errors.Join(err, st.Close())
	}
	if o.token == "" && !loopback.Host(ln.Addr().String()) {
		fmt.Fprintf(e.stderr, "warning: listening on %s without a token: anyone who can reach it may read and write debates; set --token or DEBATE_AUTH_TOKEN\n", ln.Addr())
	}
	if o.cpuprofile != "" {
		stopProfile, err := startCPUProfile(o.cpuprofile)
		if err != nil {
			return errors.Join(err, ln.Close(), st.Close())
		}
		defer stopProfile()
	}
	fmt.Fprintf(e.stderr, "debate serve: listening on http://%s (database %s)\n", ln.Addr(), redact.URL(path))
	ui := web.New(st, web.Options{Reports: o.reports, Logger: log, Done: ctx.Done()})
	tools, stopRuns := o.mcp.mcpHandler(e, ln.Addr(), o.token, log)
	defer stopRuns()
	srv := server.New(st, server.Options{Token: o.token, Logger: log, Pages: ui, MCP: tools})
	kept := make(chan struct{})
	if o.pidFile != "" {
		d := daemon.Record{PID: os.Getpid(), URL: "http://" + ln.Addr().String(), DB: redact.URL(path),
			Log: strings.TrimSuffix(o.pidFile, ".pid") + ".log", Started: time.Now().UTC()}
		b, _ := json.Marshal(d)
		if err := os.WriteFile(o.pidFile, b, 0o600); err != nil {
			return errors.Join(fmt.Errorf("write pid file: %w", err), ln.Close(), st.Close())
		}
		go func() {
			defer close(kept)
			daemon.KeepPidFile(ctx, o.pidFile, b, pidFileCheck, log)
		}()
	} else {
		close(kept)
	}
	serveErr := srv.Serve(ctx, ln)
	<-kept
	return errors.Join(serveErr, st.Close())
}

// gcPercent is the garbage collector's target while serving or measuring a
// server: a server keeps little (heads, pooled buffers) but allocates for
// every request, so at Go's default of 100 it collects several times a
// second under load, and the collector's work and assists delay the writer
// that holds every other write. At 400 the heap stays in the tens of
// megabytes; "debate bench serve" measured 15–40 % more writes per second.
const gcPercent = 400

// tuneGC sets the collector's target to gcPercent unless GOGC is set, and
// returns the function that restores the previous target.
func tuneGC(getenv func(string) (string, bool)) (restore func()) {
	if v, ok := getenv("GOGC"); ok && v != "" {
		return func() {}
	}
	old := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(old) }
}

// pidFileCheck is how often a background server looks at its pid file.
const pidFileCheck = time.Second

// startCPUProfile profiles the process's CPU into the file path until the
// returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.Join(fmt.Errorf("--cpuprofile: %w", err), f.Close())
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runDetach starts the server in the background.
func (o *serveOptions) runDetach(ctx context.Context, e *env) error {
	if d, ok, err := e.supervisor().Read(o.addr); err == nil && ok && daemon.Alive(d.PID) {
		return fmt.Errorf("a background server already runs on %s (pid %d); stop it with debate serve --stop --addr %s", o.addr, d.PID, o.addr)
	}
	d, err := e.supervisor().Start(ctx, o.addr, o.db, o.token)
	if err != nil {
		return err
	}
	if d.PID == 0 {
		return fmt.Errorf("another server answers on %s already", o.addr)
	}
	fmt.Fprintf(e.stdout, "debate serve: started in the background\n%s  stop it with: debate serve --stop --addr %s\n", describe(d), o.addr)
	return nil
}

// runStatus reports on the background server of --addr.
func (o *serveOptions) runStatus(ctx context.Context, e *env) error {
	d, ok, err := e.supervisor().Read(o.addr)
	switch {
	case err != nil:
		return err
	case !ok && daemon.Listening(ctx, o.addr):
		fmt.Fprintf(e.stdout, "debate serve: something listens on %s, but no background server was started there (no pid file)\n", o.addr)
		return nil
	case !ok:
		fmt.Fprintf(e.stdout, "debate serve: no background server on %s\n", o.addr)
		return exitStatus(exitFailed)
	case !daemon.Alive(d.PID):
		fmt.Fprintf(e.stdout, "debate serve: not running on %s (pid %d has ended; its log is %s)\n", o.addr, d.PID, d.Log)
		return exitStatus(exitFailed)
	}
	health := "answers /health"
	hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := client.New(d.URL, o.token, nil).Health(hctx); err != nil {
		health = "does not answer /health: " + err.Error()
	}
	fmt.Fprintf(e.stdout, "debate serve: running, %s\n%s", health, describe(d))
	return nil
}

// runStop stops the background server of --addr.
func (o *serveOptions) runStop(ctx context.Context, e *env) error {
	d, err := e.supervisor().Stop(ctx, o.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "debate serve: stopped pid %d on %s\n", d.PID, o.addr)
	return nil
}

// describe lists a background server's facts, one per line.
func describe(d daemon.Record) string {
	db := d.DB
	if db == "" {
		db = "the default ($DEBATE_DB, else $XDG_DATA_HOME/debate/debate.db)"
	}
	return fmt.Sprintf("  pid:      %d\n  url:      %s\n  database: %s\n  log:      %s\n  started:  %s\n",
		d.PID, d.URL, db, d.Log, d.Started.Format(time.RFC3339))
}
