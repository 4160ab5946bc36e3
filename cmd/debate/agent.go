package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/ops"
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

// agentExits is the exit-code table of every agent command's help.
const agentExits = `  0    success (for wait also when the deadline passed: "status":"timeout")
  1    internal error on the server, or an answer that is not the server's
  2    not found: DEBATE_NOT_FOUND, ARGUMENT_NOT_FOUND, DOCUMENT_NOT_FOUND
  3    invalid input: bad or missing flags, unreadable --file, INVALID_INPUT,
       CONTENT_TOO_LARGE
  4    not allowed now: ACTION_NOT_ALLOWED (the JSON has current_state and
       allowed_roles)
  5    authentication failed: AUTH_FAILED (check --token or DEBATE_AUTH_TOKEN)
  6    server unreachable: UNREACHABLE (is debate serve running? check --server)
  7    no answer in time: TIMEOUT
  130  interrupted by Ctrl-C
`

// agentOutput describes what every agent command prints.
const agentOutput = `  One JSON object on one line of stdout, nothing on stderr; control characters
  are escaped. Success: {"success":true, …}. Failure:
  {"success":false,"error":{"code","message","suggestion",
  "current_state","allowed_roles"},"exit_code":N}, where code is the server's
  error code, or INVALID_INPUT for a bad command line, UNREACHABLE, TIMEOUT or
  INTERRUPTED.
`

// agentEnvHelp describes the environment variables of the commands that talk
// to a server.
const agentEnvHelp = `  DEBATE_SERVER_URL  server address when --server is not given (default
                     ` + defaultServer + `)
  DEBATE_AUTH_TOKEN  bearer token when --token is not given; prefer it to
                     --token, so the commands printed in wait_command and
                     retry_command run as they are
  DEBATE_AUTO_START  0 keeps the command from starting debate serve in the
                     background when nothing answers on a loopback server
                     address (default: it starts one)
`

// agentCommand returns an agent command: the help of every agent command
// with its usage, what it does and its examples, and its options.
func agentCommand(name, summary, usage, about, examples string, remote bool, o func() options) *command {
	h := help{about: about, usage: usage, sections: []section{{"OUTPUT", agentOutput}},
		examples: examples, exits: agentExits}
	if remote {
		h.environ = agentEnvHelp
	}
	return &command{name: name, summary: summary, help: h, agent: true, options: o}
}

// agent is what the options of every agent command share: the flags of
// the server it talks to, of the content it sends and of the idempotency
// key, each when the command has them. Its flags come after the command's
// own.
type agent struct {
	name string // "submit", "docs create"

	remote   bool // the command talks to a server
	srv      serverFlags
	longPoll bool // the command bounds its own requests (wait)

	// what names the content in flag help ("the CLAIM"); empty when the
	// command sends none.
	what            string
	contentOptional bool
	content, file   string
	stdin           bool
	// given lists the content flags given, stdinSet whether --stdin was.
	given    []string
	stdinSet bool

	idempotent bool // the command has --client-request-id
	requestID  string
}

// serverFlags are the flags of the commands that talk to a server.
type serverFlags struct {
	server  string
	token   string
	timeout time.Duration
	// serverSet and tokenSet tell the flags given from their defaults.
	serverSet, tokenSet bool
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

// flags binds the shared flags of the command to a.
func (a *agent) flags(fs *pflag.FlagSet) {
	if a.what != "" {
		fs.StringVar(&a.content, "content", "", a.what+", given inline")
		fs.StringVar(&a.file, "file", "", a.what+", read from a file (- reads stdin)")
		fs.BoolVar(&a.stdin, "stdin", false, a.what+", read from stdin")
	}
	if a.idempotent {
		fs.StringVar(&a.requestID, "client-request-id", "", "idempotency key: resending it returns the original write (default: a fresh one, kept across retries)")
	}
	if a.remote {
		a.srv.flags(fs, "never printed")
		fs.DurationVar(&a.srv.timeout, "timeout", defaultTimeout, "how long to wait for the server's answer")
	}
}

// flags binds --server and --token; tokenUse says what becomes of a token.
func (s *serverFlags) flags(fs *pflag.FlagSet, tokenUse string) {
	fs.StringVar(&s.server, "server", "", "server URL (default $DEBATE_SERVER_URL, else "+defaultServer+")")
	fs.StringVar(&s.token, "token", "", "bearer token (default $DEBATE_AUTH_TOKEN); "+tokenUse)
	s.timeout = defaultTimeout
}

// given records which of the server's flags were given.
func (s *serverFlags) given(fs *pflag.FlagSet) {
	s.serverSet, s.tokenSet = fs.Changed("server"), fs.Changed("token")
}

// args checks that exactly the positional arguments named remain and
// records which shared flags were given; it returns those arguments.
func (a *agent) args(fs *pflag.FlagSet, positional ...string) ([]string, error) {
	if n := fs.NArg(); n != len(positional) {
		if n > len(positional) {
			return nil, usagef("unexpected argument %q", fs.Arg(len(positional)))
		}
		return nil, usagef("missing <%s>", positional[n])
	}
	for _, n := range []string{"content", "file", "stdin"} {
		if fs.Changed(n) {
			a.given = append(a.given, "--"+n)
		}
	}
	a.stdinSet = fs.Changed("stdin")
	a.srv.given(fs)
	if a.remote && a.srv.timeout <= 0 {
		return nil, usagef("--timeout must be positive (got %s)", a.srv.timeout)
	}
	return fs.Args(), nil
}

// call runs body with a client of the server (none when the command talks
// to no server) and prints its result as JSON; its error goes back to the
// one printer of failures.
func (a *agent) call(e *env, body func(ctx context.Context, s conn) (any, error)) error {
	var s conn
	if a.remote {
		var err error
		if s, err = a.srv.connect(e); err != nil {
			return err
		}
	}
	sig, stop := e.interruptible(nil)
	defer stop()
	out, err := a.callWith(sig, e, s, body)
	if err != nil && sig.Err() != nil && !errors.As(err, new(interruptedError)) {
		err = interruptedError{err: err}
	}
	if err != nil {
		return err
	}
	e.printJSON(out)
	return nil
}

// callWith starts a server if none answers and runs body within the
// command's timeout.
func (a *agent) callWith(sig context.Context, e *env, s conn, body func(ctx context.Context, s conn) (any, error)) (any, error) {
	if !a.remote {
		return body(sig, s)
	}
	started, err := e.autoStart(sig, s)
	if err != nil {
		return nil, err
	}
	ctx := sig
	if !a.longPoll {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(sig, a.srv.timeout)
		defer cancel()
	}
	out, err := body(ctx, s)
	if started != nil {
		if err != nil {
			return nil, started.explain(err)
		}
		return started.with(out), nil
	}
	return out, e.explainUnreachable(s, err)
}

// connect resolves the server and the token from the flags and the
// environment.
func (f *serverFlags) connect(e *env) (conn, error) {
	s := conn{url: f.server, token: f.token, given: f.serverSet}
	if !s.given {
		if v, ok := e.getenv("DEBATE_SERVER_URL"); ok && v != "" {
			s.url = v
		} else {
			s.url = defaultServer
		}
	}
	u, err := url.Parse(s.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return conn{}, usagef("--server %q: want an http:// or https:// URL such as %s", redact.URL(s.url), defaultServer)
	}
	if !f.tokenSet {
		s.token, _ = e.getenv("DEBATE_AUTH_TOKEN")
	}
	s.client = client.New(s.url, s.token, nil)
	return s, nil
}

// explainUnreachable says, when err is a server that does not answer, why
// none was started and how to start one.
func (e *env) explainUnreachable(s conn, err error) error {
	var ce *client.Error
	if err == nil || !errors.As(err, &ce) || ce.Code != client.CodeUnreachable {
		return err
	}
	u, _ := url.Parse(s.url)
	switch v, _ := e.getenv(autoStartVar); {
	case u == nil || !loopback.Host(u.Hostname()):
		ce.Suggestion = "nothing answers on " + redact.URL(s.url) + "; a server is started on demand only for a loopback address: " +
			"start debate serve on that host, or check --server / DEBATE_SERVER_URL"
	case v == "0" || strings.EqualFold(v, "false"):
		ce.Suggestion = "nothing answers on " + redact.URL(s.url) + " and " + autoStartVar + "=" + v + " keeps agent commands from starting a server: " +
			"start one with debate serve --detach (or debate serve in another terminal), or unset " + autoStartVar
	}
	return err
}

// flagError is an operation's refusal of its input as a usage error naming
// the flag (debate_id is --debate-id); other errors are left as they are.
func flagError(err error) error {
	var ie *ops.InputError
	if errors.As(err, &ie) {
		return usagef("--%s %s", strings.ReplaceAll(ie.Field, "_", "-"), ie.Problem)
	}
	return err
}

// require returns a usage error when the flag named name was not given a
// value; hint says how to get one.
func require(name, value, hint string) error {
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
func (a *agent) readContent(e *env) (content string, ok bool, err error) {
	given := a.given
	switch {
	case len(given) > 1:
		return "", false, usagef("%s: give the content with exactly one of --content, --file or --stdin", strings.Join(given, " and "))
	case len(given) == 0 && a.contentOptional:
		return "", false, nil
	case len(given) == 0:
		return "", false, usagef("no content: give exactly one of --content <text>, --file <path> or --stdin")
	case given[0] == "--content":
		return a.content, true, nil
	case a.stdinSet && !a.stdin:
		return "", false, usagef("no content: --stdin=false reads nothing; give --content, --file or --stdin")
	case a.stdin || a.file == "-":
		s, err := readAll(e.stdin, "stdin")
		return s, err == nil, err
	default:
		if a.file == "" {
			return "", false, usagef("--file needs a path (or - for stdin)")
		}
		f, err := openRegular(a.file)
		if err != nil {
			return "", false, err
		}
		defer f.Close()
		s, err := readAll(f, a.file)
		return s, err == nil, err
	}
}

// openRegular opens the --file path, a regular file of at most maxInput
// bytes: a named pipe would block the command before it could be
// interrupted, and a device such as /dev/zero never ends.
func openRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("--file: %w", err)}
	}
	if !fi.Mode().IsRegular() {
		return nil, usagef("--file %s: %s, not a regular file; give a file, or pipe it in with --stdin", path, fileKind(fi.Mode()))
	}
	if fi.Size() > maxInput {
		return nil, usagef("--file %s: %d bytes, more than %d MiB; share it as a document in parts, or shorten it", path, fi.Size(), maxInput>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("--file: %w", err)}
	}
	return f, nil
}

// fileKind names the kind of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
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
	Success  bool            `json:"success"`
	Error    ops.FailureBody `json:"error"`
	ExitCode int             `json:"exit_code"`
}

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
