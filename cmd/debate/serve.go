package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/web"
	"github.com/debatehq/debate/store"
)

func serveCmd(e *env, args []string) int {
	fs := flagSet("serve")
	addr := fs.String("addr", "127.0.0.1:3456", "address to listen on (host:port); loopback unless you mean otherwise")
	dbPath := fs.String("db", "", "SQLite database file, or postgres:// URL for several replicas (default $DEBATE_DB, else $XDG_DATA_HOME/debate/debate.db or ~/.local/share/debate/debate.db)")
	token := fs.String("token", "", "bearer token required on every route, the WebSocket and the web UI (default $DEBATE_AUTH_TOKEN)")
	reports := fs.StringArray("reports", nil, "folder of batch runs' outputs to list in the web UI; repeat for several (default $DEBATE_REPORTS, a path list)")
	help := func() string {
		return helpText(fs, "debate serve [--addr 127.0.0.1:3456] [--db <file>] [--token <t>] [--reports <dir>]...",
			`Run the argument-protocol server: the REST API the agent commands use (debates, arguments,
long-polling waits, documents), a WebSocket feed for the arbitrator, and the web UI.

ROUTES
  GET /health                          POST /debates            GET /debates?state=&limit=&offset=
  GET /debates/{id}?limit=             DELETE /debates/{id}     GET /debates/{id}/poll?role=&argument_id=&wait=
  POST /debates/{id}/arguments|appeal|resolution|intervention|ruling
  POST /documents                      POST /documents/{id}/versions    GET /documents/{id}?version=
  GET /ws?debate_id=                   (WebSocket; ?token= when a token is set)
  Web UI (browsers): GET / (debates and --reports runs), GET /debates/{id} (live page), GET /reports/…

With a token (--token or DEBATE_AUTH_TOKEN) every route, /health included, needs
"Authorization: Bearer <token>"; GET requests may pass ?token= instead. Without one, anyone who
can reach the address may read and write, so keep the default loopback address.
The URL is printed on stderr. Ctrl-C or SIGTERM stops accepting, answers waiting polls, closes
WebSockets and the database cleanly.`,
			"  debate serve\n  DEBATE_AUTH_TOKEN=$(openssl rand -hex 16) debate serve --addr 127.0.0.1:8080\n  debate serve --db ./team.db --token s3cret\n",
			"  0  stopped by Ctrl-C or SIGTERM after a clean shutdown\n  1  the database could not be opened, the address could not be bound, or serving failed\n  2  bad flags\n")
	}
	if done, code := parse(e, fs, args, help); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "debate serve: unexpected argument %q\nRun \"debate help serve\" for usage.\n", fs.Arg(0))
		return exitUsage
	}
	if v, ok := e.getenv("DEBATE_REPORTS"); ok && v != "" && !fs.Changed("reports") {
		*reports = filepath.SplitList(v)
	}
	if !fs.Changed("token") {
		*token, _ = e.getenv("DEBATE_AUTH_TOKEN")
	}
	path, err := debateDB(*dbPath, e.getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "debate serve: %v\n", err)
		return exitFailed
	}

	ctx, stop := e.signalContext()
	defer stop()
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	st, err := store.Open(ctx, path, store.Options{Logger: log})
	if err != nil {
		fmt.Fprintf(e.stderr, "debate serve: %v\n", err)
		return exitFailed
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		st.Close()
		fmt.Fprintf(e.stderr, "debate serve: %v\n", err)
		return exitFailed
	}
	if *token == "" && !loopback(ln.Addr()) {
		fmt.Fprintf(e.stderr, "warning: listening on %s without a token: anyone who can reach it may read and write debates; set --token or DEBATE_AUTH_TOKEN\n", ln.Addr())
	}
	fmt.Fprintf(e.stderr, "debate serve: listening on http://%s (database %s)\n", ln.Addr(), redactURL(path))
	srv := server.New(st, server.Options{Token: *token, Logger: log})
	web.Register(srv, web.Options{Reports: *reports, Logger: log})
	serveErr := srv.Serve(ctx, ln)
	closeErr := st.Close()
	if err := errors.Join(serveErr, closeErr); err != nil {
		fmt.Fprintf(e.stderr, "debate serve: %v\n", err)
		return exitFailed
	}
	fmt.Fprintln(e.stderr, "debate serve: stopped")
	return exitOK
}

// loopback reports whether a listener's address is reachable only from this
// machine.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// signalContext returns a context cancelled by Ctrl-C or SIGTERM (through
// e.notify in tests); stop releases the signal handler.
func (e *env) signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	if e.notify != nil {
		e.notify(sigs)
	} else {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
