// Package mcp is debate's MCP server: the operations of package ops as MCP
// tools, and a run's reports as resources, served on stdio ("debate mcp")
// and as stateless streamable HTTP (the /mcp route of "debate serve"),
// with the official Go SDK. It holds no logic of its own: each tool parses
// its input, calls ops and returns the answer as structured content.
package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/debatehq/debate/ops"
)

// MaxBlock is the longest a tool call waits before it answers, under the
// deadlines MCP clients put on a tool call (about 60 s).
const MaxBlock = 50 * time.Second

// Options say what a server serves.
type Options struct {
	// Runs serves the run tools and the reports; nil serves none.
	Runs *ops.Runs
	// Debates serves the protocol tools; nil serves none.
	Debates ops.Debates
	// Ready, when set, is called by each protocol tool once its input
	// is checked, before the tool asks the server (it may start the
	// protocol server on demand, as the agent commands do); its error is
	// the tool's.
	Ready func(context.Context) error
	// Version is the program's version, told to clients.
	Version string
	// Logger receives the SDK's log; nil discards it.
	Logger *slog.Logger
}

// instructions tell a client's model what the server is for.
const instructions = `debate plays structured debates between models and keeps argument-protocol debates between agents.
Run tools: run_start starts a batch run (a config path, or an inline question with models) and returns its id at once;
run_status (with waitSeconds) follows it with progress notifications; run_decision gives what it decided;
its reports are resources (debate://runs/{id}/{name}); run_cancel stops it; run_list lists the recent runs.
Protocol tools: protocol_create opens a debate (proposer); protocol_submit, protocol_appeal and
protocol_request_completion write the proposer's and the opponent's arguments; protocol_ruling and
protocol_intervention are the arbitrator's; protocol_wait waits for one's turn (call it again on status timeout);
protocol_get_context reads a debate; protocol_list lists debates; protocol_doc_write and protocol_doc_get
share long material as versioned documents, cited by doc_id in short arguments.`

// New returns an MCP server with the tools and resources opt serves.
func New(opt Options) *sdk.Server {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Version == "" {
		opt.Version = "dev"
	}
	// The SDK logs every session at Info, and over stateless HTTP every
	// request is a session: only its warnings and errors are kept.
	log := slog.New(atLeast{opt.Logger.Handler(), slog.LevelWarn})
	s := sdk.NewServer(&sdk.Implementation{Name: "debate", Title: "debate", Version: opt.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: log, Capabilities: &sdk.ServerCapabilities{}})
	s.AddReceivingMiddleware(bounded)
	if opt.Runs != nil {
		addRunTools(s, opt.Runs)
	}
	if opt.Debates != nil {
		addProtocolTools(s, opt.Debates, opt.Ready)
	}
	return s
}

// callLimit bounds a tool call whatever it waits for (a protocol server
// that does not answer): MaxBlock and the time to answer.
const callLimit = MaxBlock + 5*time.Second

// bounded ends every tool call by callLimit.
func bounded(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithTimeout(ctx, callLimit)
		defer cancel()
		return next(ctx, method, req)
	}
}

// atLeast is a handler that drops records below a level.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// ServeStdio serves s on in and out, a client's pipes (newline-delimited
// JSON-RPC), until the client closes in or ctx ends.
func ServeStdio(ctx context.Context, s *sdk.Server, in io.Reader, out io.Writer) error {
	return s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
}

// nopCloser is a writer whose Close does nothing: the pipes belong to the
// process.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Handler serves s as stateless streamable HTTP. It leaves the checks of
// Host, Origin and token to the server it is mounted on.
func Handler(s *sdk.Server) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true})
}

// failure is an operation's error as a tool error: its text is the JSON
// failure an agent command prints, so that an agent reads the same code,
// suggestion, state and allowed roles through either door.
type failure struct {
	ops.FailureBody
}

func (f failure) Error() string {
	b, _ := json.Marshal(f.FailureBody)
	return string(b)
}

// fail turns err into a tool error.
func fail(err error) error {
	return failure{ops.Failure(err)}
}

// answer is a tool's answer: out, or err as a tool error.
func answer[T any](out T, err error) (*sdk.CallToolResult, T, error) {
	if err != nil {
		var zero T
		return nil, zero, fail(err)
	}
	return nil, out, nil
}

// wait returns the wait in seconds a tool was given, within MaxBlock;
// def when none was given. The bound is applied to the seconds, before a
// large count (1e10, "for ever") would overflow a time.Duration.
func wait(seconds float64, def time.Duration) time.Duration {
	switch {
	case seconds <= 0:
		return def
	case seconds >= MaxBlock.Seconds():
		return MaxBlock
	}
	return time.Duration(seconds * float64(time.Second))
}
