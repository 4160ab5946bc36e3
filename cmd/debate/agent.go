package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// The agent commands (generate-id, create, get-context, submit, appeal,
// request-completion, ruling, intervention, wait, list, docs) talk to a
// protocol server and print exactly one JSON object on stdout, errors
// included. Their exit codes say what kind of failure happened; 0 and 1 are
// shared with the other commands, the rest are theirs.
const (
	exitNotFound    = 2 // DEBATE_NOT_FOUND, ARGUMENT_NOT_FOUND, DOCUMENT_NOT_FOUND
	exitInvalid     = 3 // bad flags, unreadable content, INVALID_INPUT, CONTENT_TOO_LARGE
	exitNotAllowed  = 4 // ACTION_NOT_ALLOWED
	exitAuth        = 5 // AUTH_FAILED
	exitUnreachable = 6 // no connection to the server
	exitTimeout     = 7 // no answer in time
)

// Codes the agent commands add to the server's.
const (
	codeInterrupted = "INTERRUPTED"
)

// Defaults of the shared agent flags.
const (
	defaultServer  = "http://127.0.0.1:3456"
	defaultTimeout = 30 * time.Second
	// maxInput bounds content read from a file or stdin; the server's own
	// limits (10,240 characters per argument, 1 MiB per document) are lower.
	maxInput = 8 << 20
)

// agentExits is the exit-code table every agent command's help ends with.
const agentExits = `  0    success (for wait also when the deadline passed: "status":"timeout")
  1    internal error on the server, or an answer that is not the server's
  2    not found: DEBATE_NOT_FOUND, ARGUMENT_NOT_FOUND, DOCUMENT_NOT_FOUND
  3    invalid input: bad or missing flags, unreadable --file, INVALID_INPUT, CONTENT_TOO_LARGE
  4    not allowed now: ACTION_NOT_ALLOWED (the JSON has current_state and allowed_roles)
  5    authentication failed: AUTH_FAILED (check --token or DEBATE_AUTH_TOKEN)
  6    server unreachable: UNREACHABLE (is debate serve running? check --server)
  7    no answer in time: TIMEOUT
  130  interrupted by Ctrl-C
`

// agentOutput is the part of every agent command's help that describes what
// it prints.
const agentOutput = `
OUTPUT
  One JSON object on one line of stdout, nothing on stderr; control characters are escaped.
  Success: {"success":true, …}. Failure: {"success":false,"error":{"code","message","suggestion",
  "current_state","allowed_roles"},"exit_code":N}, where code is the server's error code, or
  INVALID_INPUT for a bad command line, UNREACHABLE, TIMEOUT or INTERRUPTED.
`

// agentEnvHelp describes the environment variables of the commands that talk
// to a server.
const agentEnvHelp = `
ENVIRONMENT
  DEBATE_SERVER_URL  server address when --server is not given (default ` + defaultServer + `)
  DEBATE_AUTH_TOKEN  bearer token when --token is not given; prefer it to --token, so the
                     commands printed in wait_command and retry_command run as they are
  DEBATE_AUTO_START  0 keeps the command from starting debate serve in the background when
                     nothing answers on a loopback server address (default: it starts one)
`

// agent is one agent command: its name, its flags and the environment it
// prints to. The flags bind to the command's options struct; the server's
// flags bind to srv, which run resolves into a conn before the command's
// body runs.
type agent struct {
	e    *env
	name string // "submit", "docs create"
	fs   *pflag.FlagSet

	remote   bool // the command talks to a server
	srv      serverFlags
	longPoll bool // the command bounds its own requests (wait)

	hasContent, contentOptional bool
	content, file               string
	stdin                       bool

	requestID string
}

// serverFlags are the flags of the commands that talk to a server.
type serverFlags struct {
	server  string
	token   string
	timeout time.Duration
}

// conn is the server an agent command talks to, resolved once from the
// flags and the environment before the command's body runs.
type conn struct {
	client *client.Client
	url    string
	token  string
	// given is set when --server was on the command line: the commands
	// printed for the agent to run next repeat it.
	given bool
}

// newAgent returns the agent command name with a fresh flag set.
func newAgent(e *env, name string) *agent {
	return &agent{e: e, name: name, fs: flagSet(name)}
}

// withServer marks a command that talks to a server; run adds the server's
// flags after the command's own.
func (a *agent) withServer() { a.remote = true }

func (a *agent) addServerFlags() {
	a.fs.StringVar(&a.srv.server, "server", "", "server URL (default $DEBATE_SERVER_URL, else "+defaultServer+")")
	a.fs.StringVar(&a.srv.token, "token", "", "bearer token (default $DEBATE_AUTH_TOKEN); never printed")
	a.fs.DurationVar(&a.srv.timeout, "timeout", defaultTimeout, "how long to wait for the server's answer")
}

// withContent adds the three content sources; optional makes giving none
// valid.
func (a *agent) withContent(what string, optional bool) {
	a.hasContent, a.contentOptional = true, optional
	a.fs.StringVar(&a.content, "content", "", what+", given inline")
	a.fs.StringVar(&a.file, "file", "", what+", read from a file (- reads stdin)")
	a.fs.BoolVar(&a.stdin, "stdin", false, what+", read from stdin")
}

// withRequestID adds --client-request-id.
func (a *agent) withRequestID() {
	a.fs.StringVar(&a.requestID, "client-request-id", "", "idempotency key: resending it returns the original write (default: a fresh one, kept across retries)")
}

// help lays the command's help out with the agents' output, environment and
// exit-code sections.
func (a *agent) help(usage, about, examples string) func() string {
	return func() string {
		var b strings.Builder
		b.WriteString(helpText(a.fs, usage, about, "", ""))
		b.WriteString(agentOutput)
		if a.remote {
			b.WriteString(agentEnvHelp)
		}
		fmt.Fprintf(&b, "\nEXAMPLES\n%s\nEXIT CODES\n%s", examples, agentExits)
		return b.String()
	}
}

// run parses args, checks that exactly positional arguments remain, and
// calls body with a client of the server; it prints body's result or error
// as JSON and returns the exit code.
func (a *agent) run(args []string, help func() string, positional []string, body func(ctx context.Context, s conn, args []string) (any, error)) int {
	if a.remote {
		a.addServerFlags()
	}
	err := a.fs.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(a.e.stdout, showHelp(help()))
		return exitOK
	case err != nil:
		return a.fail(context.Background(), usageError{err})
	}
	if n := a.fs.NArg(); n != len(positional) {
		if n > len(positional) {
			return a.fail(context.Background(), usagef("unexpected argument %q", a.fs.Arg(len(positional))))
		}
		return a.fail(context.Background(), usagef("missing <%s>", positional[n]))
	}
	var s conn
	if a.remote {
		if s, err = a.connect(); err != nil {
			return a.fail(context.Background(), err)
		}
	}
	sig, stop := a.e.interruptible(nil)
	defer stop()
	if a.remote {
		if _, err := a.e.autoStart(sig, s); err != nil {
			return a.fail(sig, err)
		}
	}
	ctx := sig
	if a.remote && !a.longPoll {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(sig, a.srv.timeout)
		defer cancel()
	}
	out, err := body(ctx, s, a.fs.Args())
	if err != nil {
		return a.fail(sig, a.e.explainUnreachable(s, err))
	}
	a.e.printJSON(out)
	return exitOK
}

// connect resolves the server and the token from the flags and the
// environment.
func (a *agent) connect() (conn, error) {
	s := conn{url: a.srv.server, token: a.srv.token, given: a.fs.Changed("server")}
	if !s.given {
		if v, ok := a.e.getenv("DEBATE_SERVER_URL"); ok && v != "" {
			s.url = v
		} else {
			s.url = defaultServer
		}
	}
	u, err := url.Parse(s.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return conn{}, usagef("--server %q: want an http:// or https:// URL such as %s", redactURL(s.url), defaultServer)
	}
	if !a.fs.Changed("token") {
		s.token, _ = a.e.getenv("DEBATE_AUTH_TOKEN")
	}
	if a.srv.timeout <= 0 {
		return conn{}, usagef("--timeout must be positive (got %s)", a.srv.timeout)
	}
	s.client = client.New(s.url, s.token, nil)
	return s, nil
}

// explainUnreachable says, when err is a server that does not answer, why
// none was started and how to start one.
func (e *env) explainUnreachable(s conn, err error) error {
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Code != client.CodeUnreachable {
		return err
	}
	u, _ := url.Parse(s.url)
	switch v, _ := e.getenv(autoStartVar); {
	case u == nil || !loopbackHost(u.Hostname()):
		ce.Suggestion = "nothing answers on " + redactURL(s.url) + "; a server is started on demand only for a loopback address: " +
			"start debate serve on that host, or check --server / DEBATE_SERVER_URL"
	case v == "0" || strings.EqualFold(v, "false"):
		ce.Suggestion = "nothing answers on " + redactURL(s.url) + " and " + autoStartVar + "=" + v + " keeps agent commands from starting a server: " +
			"start one with debate serve --detach (or debate serve in another terminal), or unset " + autoStartVar
	}
	return err
}

// redactURL drops a password from a URL (or a database path) that will be
// printed. A URL that does not parse but may hold credentials (an "@") is
// replaced whole, since its password cannot be told from the rest.
func redactURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil && strings.Contains(s, "@"):
		return "(a URL that does not parse, not shown: it may hold a password)"
	case err == nil && u.User != nil:
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
	}
	return s
}

// require returns a usage error when the flag named name was not given a
// value; hint says how to get one.
func (a *agent) require(name, value, hint string) error {
	if value != "" {
		return nil
	}
	if hint != "" {
		return usagef("--%s is required (%s)", name, hint)
	}
	return usagef("--%s is required", name)
}

// readContent returns the content from the one source given. ok is false
// when the content is optional and none was given.
func (a *agent) readContent() (content string, ok bool, err error) {
	var given []string
	for _, n := range []string{"content", "file", "stdin"} {
		if a.fs.Changed(n) {
			given = append(given, "--"+n)
		}
	}
	switch {
	case len(given) > 1:
		return "", false, usagef("%s: give the content with exactly one of --content, --file or --stdin", strings.Join(given, " and "))
	case len(given) == 0 && a.contentOptional:
		return "", false, nil
	case len(given) == 0:
		return "", false, usagef("no content: give exactly one of --content <text>, --file <path> or --stdin")
	case a.fs.Changed("content"):
		return a.content, true, nil
	case a.fs.Changed("stdin") && !a.stdin:
		return "", false, usagef("no content: --stdin=false reads nothing; give --content, --file or --stdin")
	case a.stdin || a.file == "-":
		s, err := readAll(a.e.stdin, "stdin")
		return s, err == nil, err
	default:
		if a.file == "" {
			return "", false, usagef("--file needs a path (or - for stdin)")
		}
		f, err := os.Open(a.file)
		if err != nil {
			return "", false, usageError{fmt.Errorf("--file: %w", err)}
		}
		defer f.Close()
		s, err := readAll(f, a.file)
		return s, err == nil, err
	}
}

func readAll(r io.Reader, name string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return "", usageError{fmt.Errorf("read %s: %w", name, err)}
	}
	if len(b) > maxInput {
		return "", usagef("%s is larger than %d MiB; share it as a document in parts, or shorten it", name, maxInput>>20)
	}
	return string(b), nil
}

// command returns a shell command line for another agent command, with
// --server when this one was given it, every value quoted for a POSIX shell.
// The token is never part of it.
func (s conn) command(name string, flags ...string) string {
	parts := []string{"debate", name}
	for i := 0; i+1 < len(flags); i += 2 {
		if flags[i+1] != "" {
			parts = append(parts, flags[i], shellQuote(flags[i+1]))
		}
	}
	if s.given {
		parts = append(parts, "--server", shellQuote(s.url))
	}
	return strings.Join(parts, " ")
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell; plain words stay as they are.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// head starts every successful answer.
type head struct {
	Success bool `json:"success"`
}

var success = head{Success: true}

// errorOut is every failure.
type errorOut struct {
	Success  bool      `json:"success"`
	Error    errorBody `json:"error"`
	ExitCode int       `json:"exit_code"`
}

// errorBody is the server's error with, for failures without an answer, the
// network cause.
type errorBody struct {
	api.ErrorBody
	Detail string `json:"detail,omitempty"`
}

// fail prints err as JSON and returns its exit code. sig is the command's
// interrupt context (context.Background() before it exists).
func (a *agent) fail(sig context.Context, err error) int {
	var (
		b  errorBody
		ue usageError
		ce *client.Error
	)
	switch {
	case sig.Err() != nil:
		b.Code, b.Message = codeInterrupted, "interrupted"
		var ie interruptedError
		if errors.As(err, &ie) {
			b.Suggestion = "run " + ie.retry + " to wait again"
		}
	case errors.As(err, &ue):
		b.Code, b.Message = string(protocol.CodeInvalidInput), err.Error()
		b.Suggestion = fmt.Sprintf("run \"debate %s --help\" for usage", a.name)
	case errors.As(err, &ce):
		b.ErrorBody = api.ErrorBody{Code: ce.Code, Message: ce.Message, Suggestion: ce.Suggestion,
			CurrentState: ce.CurrentState, AllowedRoles: ce.AllowedRoles, RequestID: ce.RequestID}
		if ce.Err != nil {
			b.Detail = ce.Err.Error()
		}
	default:
		b.Code, b.Message = string(protocol.CodeInternal), err.Error()
	}
	code := exitForCode(b.Code)
	a.e.printJSON(errorOut{Error: b, ExitCode: code})
	return code
}

// unknownAgentCommand answers a mistyped agent command the way agent
// commands answer: JSON naming the command meant, and the exit code of
// invalid input.
func (e *env) unknownAgentCommand(name, near string) int {
	b := errorBody{ErrorBody: api.ErrorBody{Code: string(protocol.CodeInvalidInput),
		Message:    fmt.Sprintf("unknown command %q: did you mean %q?", name, near),
		Suggestion: fmt.Sprintf("run \"%s --help\" for its flags, or \"debate help\" for every command", near)}}
	e.printJSON(errorOut{Error: b, ExitCode: exitForCode(b.Code)})
	return exitForCode(b.Code)
}

// interruptedError carries the command that resumes an interrupted wait.
type interruptedError struct {
	err   error
	retry string
}

func (e interruptedError) Error() string { return e.err.Error() }
func (e interruptedError) Unwrap() error { return e.err }

// printJSON writes v as one line of JSON on stdout. encoding/json escapes C0
// control characters; DEL and the C1 controls, which terminals may also act
// on, are escaped here. HTML characters are kept readable.
func (e *env) printJSON(v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only unsupported values fail, and every output is plain data.
		panic(fmt.Sprintf("encode output: %v", err))
	}
	_, _ = e.stdout.Write(escapeControls(buf.Bytes()))
}

// escapeControls rewrites DEL and U+0080–U+009F in encoded JSON as \u
// escapes. Those bytes can only occur inside strings there, and the input is
// valid UTF-8, so 0xC2 is always the first byte of a character.
func escapeControls(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 && bytes.IndexByte(b, 0xc2) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}
