package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/mcp"
	"github.com/debatehq/debate/ops"
	"github.com/debatehq/debate/server/client"
)

// mcpOptions are the flags of "debate mcp".
type mcpOptions struct {
	runs runFlags
	srv  serverFlags
}

// runFlags are the flags that say which runs an MCP server may start.
type runFlags struct {
	folders []string
	config  string
}

// flags binds the flags, named with prefix ("" or "mcp-").
func (f *runFlags) flags(fs *pflag.FlagSet, prefix, folderDefault string) {
	fs.StringArrayVar(&f.folders, prefix+"folder", nil, "a folder whose configs run_start may run; repeat for several (default "+folderDefault+")")
	fs.StringVar(&f.config, prefix+"default-config", "", "the default config of inline questions: run_start with a question and models takes everything else from it (default: none, inline questions refused)")
}

// runs returns the runs an MCP server starts, over the folders given or
// else folders.
func (f *runFlags) runs(e *env, log *slog.Logger, folders ...string) *ops.Runs {
	if len(f.folders) > 0 {
		folders = f.folders
	}
	return ops.NewRuns(ops.RunsOptions{Folders: folders, Default: f.config, Getenv: e.getenv, Templates: checkTemplates, Logger: log})
}

func mcpCommand() *command {
	return &command{
		name: "mcp", summary: "serve runs and debates to MCP clients (Claude Code…)",
		help: help{
			about: `Serve debate to an MCP client (Claude Code, Cursor, Codex, any client that
starts a server on stdio): tools that start a batch run and follow it, read its
decision and its reports (as resources), cancel it and list the recent runs;
and tools that take part in a protocol debate on a server (create, submit,
appeal, request completion, rule, intervene, wait, read, list, documents),
with the same rules and errors as the agent commands. debate serve serves the
same tools over HTTP at /mcp.`,
			usage: `  debate mcp [--folder <dir>]... [--default-config <file.jsonc>]
             [--server <url>] [--token <t>]
`,
			sections: []section{{"TOOLS", `  run_start run_status run_decision run_cancel run_list
  protocol_create protocol_submit protocol_appeal protocol_request_completion
  protocol_ruling protocol_intervention protocol_wait protocol_get_context
  protocol_list protocol_doc_write protocol_doc_get
  Resources: debate://runs/{id}/{name} (summary.md, run.json, topic reports)
`}, {"SAFETY", `  run_start reads configs only inside the --folder folders (default: the
  folder debate mcp was started in). An inline question takes its endpoint and
  key from --default-config; it names only models. A run's spend is capped by
  the config's budget.maxCost or by the tool's maxCost, which is then required.
  A tool call answers within 50 s; run_status and protocol_wait are called
  again while there is more to wait for.
`}},
			examples: `  debate mcp
  debate mcp --folder ~/debates --default-config ~/debates/default.jsonc
  claude mcp add debate -- debate mcp --folder "$PWD"
`,
			exits: `  0  the client closed the connection, or Ctrl-C
  1  serving failed
  2  bad flags
`,
			environ: agentEnvHelp,
		},
		options: func() options { return &mcpOptions{} },
	}
}

func (o *mcpOptions) flags(fs *pflag.FlagSet) {
	o.runs.flags(fs, "", "the current folder")
	o.srv.flags(fs, "the protocol tools send it to the server")
}

func (o *mcpOptions) args(fs *pflag.FlagSet) error {
	o.srv.given(fs)
	return onlyFlags(fs)
}

func (o *mcpOptions) run(e *env) error {
	s, err := o.srv.connect(e)
	if err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	runs := o.runs.runs(e, log, wd)
	defer runs.Close()
	ctx, stop := e.interruptible(nil)
	defer stop()
	// The protocol tools start a server on demand, as the agent commands do.
	ready := func(ctx context.Context) error {
		_, err := e.autoStart(ctx, s)
		return err
	}
	err = mcp.ServeStdio(ctx, mcp.New(mcp.Options{Runs: runs, Debates: s.client, Ready: ready, Version: versionString(), Logger: log}), e.stdin, e.stdout)
	if ctx.Err() != nil {
		return nil // Ctrl-C or SIGTERM: the runs still going write their reports as they stop
	}
	return err
}

// mcpHandler returns the MCP endpoint of a server listening on addr: the
// protocol tools call the server itself, as the agent commands do; the run
// tools are served only with a token, since a run spends money. stop ends
// the runs still going.
func (f *runFlags) mcpHandler(e *env, addr net.Addr, token string, log *slog.Logger) (h http.Handler, stop func()) {
	opt := mcp.Options{Debates: client.New("http://"+dialable(addr), token, nil), Version: versionString(), Logger: log}
	stop = func() {}
	if token != "" {
		opt.Runs = f.runs(e, log)
		stop = opt.Runs.Close
	}
	return mcp.Handler(mcp.New(opt)), stop
}

// dialable is addr as a client reaches it: a server listening on every
// address is reached on loopback.
func dialable(addr net.Addr) string {
	a, ok := addr.(*net.TCPAddr)
	if !ok || !a.IP.IsUnspecified() {
		return addr.String()
	}
	ip := net.IPv4(127, 0, 0, 1)
	if a.IP.To4() == nil {
		ip = net.IPv6loopback
	}
	return (&net.TCPAddr{IP: ip, Port: a.Port}).String()
}
