package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/pflag"
)

// openOptions are the arguments of open and its server flags, the agent
// commands' --server and --token.
type openOptions struct {
	srv      serverFlags
	debateID string
}

func openCommand() *command {
	return &command{
		name: "open", summary: "open the web UI (a debate's page) in a browser",
		help: help{
			about: `Open the web UI in a browser: the list of debates, or the page of one debate,
where the arbitrator reads the arguments and documents and rules. The URL
carries the token (?token=) when one is set. The browser is $BROWSER (a command;
%s in it is replaced by the URL), else xdg-open, or open on macOS. Like the
agent commands, it starts a local server when none answers on a loopback
--server (unless DEBATE_AUTO_START=0).`,
			usage: "  debate open [<debate-id>] [--server <url>]\n",
			examples: `  debate open
  debate open "$id"
  BROWSER=echo debate open "$id"   # print the URL
`,
			exits: `  0  the browser was started
  1  no browser could be started (the URL is printed to open by hand)
  2  bad flags
  6  no server answers and none could be started
`,
			environ: `  BROWSER            the browser command
  DEBATE_SERVER_URL  server address when --server is not given
  DEBATE_AUTH_TOKEN  bearer token when --token is not given
  DEBATE_AUTO_START  0 keeps open from starting debate serve in the background
`,
		},
		options: func() options { return &openOptions{} },
	}
}

func (o *openOptions) flags(fs *pflag.FlagSet) { o.srv.flags(fs, "put in the URL") }

func (o *openOptions) args(fs *pflag.FlagSet) error {
	if fs.NArg() > 1 {
		return usagef("unexpected argument %q: give at most one debate id", fs.Arg(1))
	}
	o.debateID = fs.Arg(0)
	o.srv.given(fs)
	return nil
}

// run opens the page of the debate (the list when none is given).
func (o *openOptions) run(e *env) error {
	s, err := o.srv.connect(e)
	if err != nil {
		return err
	}
	ctx, stop := e.interruptible(nil)
	defer stop()
	if _, err := e.autoStart(ctx, s); err != nil {
		return err
	}
	page := strings.TrimRight(s.url, "/") + "/"
	if o.debateID != "" {
		page += "debates/" + url.PathEscape(o.debateID)
	}
	shown := page
	if s.token != "" {
		page += "?token=" + url.QueryEscape(s.token)
		shown += "?token=…"
	}
	cmd, quiet, err := e.browser(ctx, page)
	if err == nil {
		if !quiet {
			cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
		}
		if err = cmd.Run(); err != nil {
			err = fmt.Errorf("%s: %w", filepath.Base(cmd.Args[0]), err)
		}
	}
	if err != nil {
		return fmt.Errorf("start a browser for %s: %w (set BROWSER to a browser command, or open the URL by hand)", shown, err)
	}
	return nil
}

// browser returns the command that opens page: $BROWSER (its first entry
// when it is a list; %s stands for the URL, else the URL is appended), else
// the system's opener. quiet says the command's output is to be dropped:
// xdg-open without a browser lists every one it tried and did not find, and
// the URL with its token, where one line says that it failed.
func (e *env) browser(ctx context.Context, page string) (cmd *exec.Cmd, quiet bool, err error) {
	if v, ok := e.getenv("BROWSER"); ok && strings.TrimSpace(v) != "" {
		first, _, _ := strings.Cut(v, string(os.PathListSeparator))
		fields := strings.Fields(first)
		if len(fields) == 0 {
			return nil, false, fmt.Errorf("BROWSER %q names no command", v)
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
		return exec.CommandContext(ctx, fields[0], fields[1:]...), false, nil
	}
	return exec.CommandContext(ctx, systemOpener(), page), true, nil
}

// systemOpener is the command that opens a URL in the desktop's browser.
func systemOpener() string {
	if runtime.GOOS == "darwin" {
		return "open"
	}
	return "xdg-open"
}
