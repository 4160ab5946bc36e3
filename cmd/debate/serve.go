package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/server"
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
}

func serveHelp(fs *pflag.FlagSet) string {
	return helpText(fs, "debate serve [--addr "+defaultAddr+"] [--db <file>] [--token <t>] [--reports <dir>]...",
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

func serveCmd(e *env, args []string) int {
	var o serveOptions
	fs := flagSet("serve")
	fs.StringVar(&o.addr, "addr", defaultAddr, "address to listen on (host:port); loopback unless you mean otherwise")
	fs.StringVar(&o.db, "db", "", "database file (default $DEBATE_DB, else $XDG_DATA_HOME/debate/debate.db or ~/.local/share/debate/debate.db)")
	fs.StringVar(&o.token, "token", "", "bearer token required on every route, the WebSocket and the web UI (default $DEBATE_AUTH_TOKEN)")
	fs.StringArrayVar(&o.reports, "reports", nil, "folder of batch runs' outputs to list in the web UI; repeat for several (default $DEBATE_REPORTS, a path list)")
	if done, code := parse(e, fs, args, func() string { return serveHelp(fs) }); done {
		return code
	}
	if fs.NArg() > 0 {
		return e.fail("serve", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if v, ok := e.getenv("DEBATE_REPORTS"); ok && v != "" && !fs.Changed("reports") {
		o.reports = filepath.SplitList(v)
	}
	if !fs.Changed("token") {
		o.token, _ = e.getenv("DEBATE_AUTH_TOKEN")
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	if err := o.run(ctx, e); err != nil {
		return e.fail("serve", err)
	}
	fmt.Fprintln(e.stderr, "debate serve: stopped")
	return exitOK
}

// run serves until ctx ends, then shuts down cleanly.
func (o *serveOptions) run(ctx context.Context, e *env) error {
	path, err := debateDB(o.db, e.getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	st, err := store.Open(ctx, path, store.Options{Logger: log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return errors.Join(err, st.Close())
	}
	if o.token == "" && !loopback(ln.Addr()) {
		fmt.Fprintf(e.stderr, "warning: listening on %s without a token: anyone who can reach it may read and write debates; set --token or DEBATE_AUTH_TOKEN\n", ln.Addr())
	}
	fmt.Fprintf(e.stderr, "debate serve: listening on http://%s (database %s)\n", ln.Addr(), path)
	srv := server.New(st, server.Options{Token: o.token, Logger: log})
	web.Register(srv, web.Options{Reports: o.reports, Logger: log})
	serveErr := srv.Serve(ctx, ln)
	return errors.Join(serveErr, st.Close())
}

// loopback reports whether a listener's address is reachable only from this
// machine.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
