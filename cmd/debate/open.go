package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// openOptions are the arguments of open; its server flags are the agent
// commands' --server and --token.
type openOptions struct {
	debateID string
}

func openHelp(a *agent) string {
	return helpText(a.fs, "debate open [<debate-id>] [--server <url>]",
		`Open the web UI in a browser: the list of debates, or the page of one debate, where the
arbitrator reads the arguments and documents and rules. The URL carries the token (?token=) when
one is set. The browser is $BROWSER (a command; %s in it is replaced by the URL), else xdg-open,
or open on macOS. Like the agent commands, it starts a local server when none answers on a
loopback --server (unless DEBATE_AUTO_START=0).`,
		"  debate open\n  debate open \"$id\"\n  BROWSER=echo debate open \"$id\"   # print the URL\n",
		"  0  the browser was started\n  1  no browser could be started (the URL is printed to open by hand)\n  2  bad flags\n  6  no server answers and none could be started\n")
}

func openCmd(e *env, args []string) int {
	var o openOptions
	a := newAgent(e, "open")
	a.fs.StringVar(&a.srv.server, "server", "", "server URL (default $DEBATE_SERVER_URL, else "+defaultServer+")")
	a.fs.StringVar(&a.srv.token, "token", "", "bearer token (default $DEBATE_AUTH_TOKEN), put in the URL")
	a.srv.timeout = defaultTimeout
	if done, code := parse(e, a.fs, args, func() string { return openHelp(a) }); done {
		return code
	}
	if a.fs.NArg() > 1 {
		return e.fail("open", usagef("unexpected argument %q: give at most one debate id", a.fs.Arg(1)))
	}
	o.debateID = a.fs.Arg(0)
	s, err := a.connect()
	if err != nil {
		return e.fail("open", err)
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	if _, err := e.autoStart(ctx, s); err != nil {
		return e.fail("open", err)
	}
	return o.run(ctx, e, s)
}

// run opens the page of the debate (the list when none is given).
func (o *openOptions) run(ctx context.Context, e *env, s conn) int {
	page := strings.TrimRight(s.url, "/") + "/"
	if o.debateID != "" {
		page += "debates/" + url.PathEscape(o.debateID)
	}
	shown := page
	if s.token != "" {
		page += "?token=" + url.QueryEscape(s.token)
		shown += "?token=…"
	}
	cmd, err := e.browser(ctx, page)
	if err == nil {
		cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
		err = cmd.Run()
	}
	if err != nil {
		return e.fail("open", fmt.Errorf("start a browser for %s: %w (set BROWSER to a browser command, or open the URL by hand)", shown, err))
	}
	return exitOK
}

// browser returns the command that opens page: $BROWSER (its first entry
// when it is a list; %s stands for the URL, else the URL is appended), else
// the system's opener.
func (e *env) browser(ctx context.Context, page string) (*exec.Cmd, error) {
	if v, ok := e.getenv("BROWSER"); ok && strings.TrimSpace(v) != "" {
		first, _, _ := strings.Cut(v, string(os.PathListSeparator))
		fields := strings.Fields(first)
		if len(fields) == 0 {
			return nil, fmt.Errorf("BROWSER %q names no command", v)
		}
		replaced := false
		for i, f := range fields {
			if strings.Contains(f, "%s") {
				fields[i], replaced = strings.ReplaceAll(f, "%s", page), true
			}
		}
		if !replaced {
			fields = append(fields, page)
		}
		return exec.CommandContext(ctx, fields[0], fields[1:]...), nil
	}
	opener := "xdg-open"
	if runtime.GOOS == "darwin" {
		opener = "open"
	}
	return exec.CommandContext(ctx, opener, page), nil
}
