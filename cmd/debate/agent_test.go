package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/store"
)

// agentServer is a real protocol server on a temporary database.
type agentServer struct {
	url   string
	polls chan struct{} // receives once per poll request that reaches the server
}

// newAgentServer starts a server with token (none when empty).
func newAgentServer(t *testing.T, token string) *agentServer {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(st, server.Options{Token: token, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s := &agentServer{polls: make(chan struct{}, 64)}
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/poll") {
			select {
			case s.polls <- struct{}{}:
			default:
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); st.Close() })
	s.url = ts.URL
	return s
}

// call is one invocation of an agent command.
type call struct {
	vars   map[string]string
	stdin  string
	notify func(chan<- os.Signal)
	// notices lets stderr hold what a person should read (the test checks
	// it); otherwise an agent command must leave stderr empty.
	notices bool
}

// answer is what an agent command printed.
type answer struct {
	code           int
	stdout, stderr string
	json           map[string]any
}

// getenv looks the call's variables up. A server is started on demand only
// when the call sets DEBATE_AUTO_START: elsewhere a closed port stays closed.
func (c call) getenv(k string) (string, bool) {
	v, ok := c.vars[k]
	if !ok && k == autoStartVar {
		return "0", true
	}
	return v, ok
}

// run runs the program with c and args, and fails the test unless it printed
// exactly one JSON object on one line of stdout and nothing on stderr.
func (c call) run(t *testing.T, args ...string) answer {
	t.Helper()
	a, err := c.exec(args...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// exec is run for other goroutines than the test's: it returns what run
// would fail on.
func (c call) exec(args ...string) (answer, error) {
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(c.stdin), stdout: &out, stderr: &errb,
		getenv: c.getenv,
		notify: c.notify,
		spawn:  helperProcess,
	}
	a := answer{code: e.main(args), stdout: out.String(), stderr: errb.String()}
	if a.stderr != "" && !c.notices {
		return a, fmt.Errorf("%v: stderr is not empty: %s", args, a.stderr)
	}
	if strings.Count(a.stdout, "\n") != 1 || !strings.HasSuffix(a.stdout, "\n") {
		return a, fmt.Errorf("%v: want one line of JSON, got:\n%s", args, a.stdout)
	}
	dec := json.NewDecoder(strings.NewReader(a.stdout))
	if err := dec.Decode(&a.json); err != nil {
		return a, fmt.Errorf("%v: stdout is not a JSON object: %v\n%s", args, err, a.stdout)
	}
	if dec.More() {
		return a, fmt.Errorf("%v: more than one JSON value:\n%s", args, a.stdout)
	}
	if ec, ok := a.json["exit_code"].(float64); ok && int(ec) != a.code {
		return a, fmt.Errorf("%v: exit_code %v in the JSON, but exit %d", args, ec, a.code)
	}
	return a, nil
}

// result is the outcome of exec, passed between goroutines.
type outcome struct {
	a   answer
	err error
}

func (o outcome) must(t *testing.T) answer {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.a
}

// str returns the string at path in the answer ("" when absent).
func (a answer) str(path ...string) string {
	s, _ := a.get(path...).(string)
	return s
}

func (a answer) get(path ...string) any {
	var v any = a.json
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// mustOK fails the test unless the command succeeded.
func (a answer) mustOK(t *testing.T) answer {
	t.Helper()
	if a.code != exitOK || a.get("success") != true {
		t.Fatalf("exit %d, want 0:\n%s", a.code, a.stdout)
	}
	return a
}

// wantError checks a failure's exit code and error code.
func (a answer) wantError(t *testing.T, exit int, code string) {
	t.Helper()
	if a.code != exit || a.get("success") != false || a.str("error", "code") != code {
		t.Errorf("exit %d and error %q, want %d and %q:\n%s", a.code, a.str("error", "code"), exit, code, a.stdout)
	}
	if a.str("error", "message") == "" {
		t.Errorf("error without a message:\n%s", a.stdout)
	}
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// TestAgentWholeDebate drives a debate from creation to its close through
// every writing command, checking what each one prints.
func TestAgentWholeDebate(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}

	gen := c.run(t, "generate-id").mustOK(t)
	id := gen.str("id")
	if len(id) != 36 || strings.Count(id, "-") != 4 {
		t.Fatalf("generate-id printed %q, want a UUID", id)
	}
	if other := c.run(t, "generate-id").str("id"); other == id {
		t.Errorf("two generate-id runs printed the same id %s", id)
	}

	motion := filepath.Join(t.TempDir(), "motion.md")
	if err := os.WriteFile(motion, []byte("Adopt a cache layer."), 0o644); err != nil {
		t.Fatal(err)
	}
	created := c.run(t, "create", "--debate-id", id, "--title", "Cache", "--type", "coding_plan_debate",
		"--file", motion, "--client-request-id", "create-1").mustOK(t)

	// step is one write and what it must leave behind.
	type step struct {
		name      string
		args      []string
		stdin     string
		typ, role string
		state     string
		waitRole  string // role of the printed wait_command, "" when none
	}
	prev := created.str("argument_id")
	steps := []step{
		{name: "opponent answers the motion", args: []string{"submit", "--role", "opponent", "--stdin"}, stdin: "Too complex.",
			typ: "CLAIM", role: "opponent", state: "AWAITING_PROPOSER", waitRole: "opponent"},
		{name: "proposer revises", args: []string{"submit", "--role", "proposer", "--content", "Simpler plan."},
			typ: "CLAIM", role: "proposer", state: "AWAITING_OPPONENT", waitRole: "proposer"},
		{name: "opponent objects", args: []string{"submit", "--role", "opponent", "--content", "Still no."},
			typ: "CLAIM", role: "opponent", state: "AWAITING_PROPOSER", waitRole: "opponent"},
		{name: "proposer appeals", args: []string{"appeal", "--content", "A or B?"},
			typ: "APPEAL", role: "proposer", state: "AWAITING_ARBITRATOR", waitRole: "proposer"},
		{name: "arbitrator rules", args: []string{"ruling", "--content", "B."},
			typ: "RULING", role: "arbitrator", state: "AWAITING_PROPOSER", waitRole: "arbitrator"},
		{name: "arbitrator intervenes without content", args: []string{"intervention"},
			typ: "INTERVENTION", role: "arbitrator", state: "INTERVENTION_PENDING", waitRole: "arbitrator"},
		{name: "arbitrator rules again", args: []string{"ruling", "--content", "Go on."},
			typ: "RULING", role: "arbitrator", state: "AWAITING_PROPOSER", waitRole: "arbitrator"},
		{name: "proposer requests completion", args: []string{"request-completion", "--content", "Done."},
			typ: "RESOLUTION", role: "proposer", state: "CLOSED"},
	}
	seq := 1
	for _, s := range steps {
		args := append([]string{}, s.args...)
		args = append(args, "--debate-id", id)
		if s.typ == "CLAIM" || s.typ == "APPEAL" || s.typ == "RESOLUTION" {
			args = append(args, "--target-id", prev)
		}
		a := call{vars: c.vars, stdin: s.stdin}.run(t, args...).mustOK(t)
		seq++
		if a.str("type") != s.typ || a.str("role") != s.role || a.str("state") != s.state || a.get("seq") != float64(seq) {
			t.Fatalf("%s: got %s by %s, state %s, seq %v:\n%s", s.name, a.str("type"), a.str("role"), a.str("state"), a.get("seq"), a.stdout)
		}
		if a.str("argument_id") == "" || a.str("argument_id") != a.str("argument", "id") || a.str("debate_id") != id {
			t.Errorf("%s: ids do not match the argument:\n%s", s.name, a.stdout)
		}
		if a.str("client_request_id") == "" {
			t.Errorf("%s: no client_request_id was generated:\n%s", s.name, a.stdout)
		}
		wantWait := ""
		if s.waitRole != "" {
			wantWait = fmt.Sprintf("debate wait --debate-id %s --role %s --argument-id %s", id, s.waitRole, a.str("argument_id"))
		}
		if got := a.str("wait_command"); got != wantWait {
			t.Errorf("%s: wait_command %q, want %q", s.name, got, wantWait)
		}
		if got := strs(a.get("available_actions", "proposer")); s.state == "AWAITING_PROPOSER" && !reflect.DeepEqual(got, []string{"CLAIM", "APPEAL", "RESOLUTION"}) {
			t.Errorf("%s: proposer's available_actions %v", s.name, got)
		}
		if s.typ == "RESOLUTION" {
			seq++
			if a.str("auto_ruling", "type") != "RULING" || a.get("auto_ruling", "seq") != float64(seq) {
				t.Errorf("request-completion without its automatic closing ruling:\n%s", a.stdout)
			}
		}
		if s.typ == "INTERVENTION" && a.str("argument", "content") != "" {
			t.Errorf("intervention without content stored %q", a.str("argument", "content"))
		}
		prev = a.str("argument_id")
	}

	// Resending the create with its request id is a replay of the MOTION.
	again := c.run(t, "create", "--debate-id", id, "--title", "Cache", "--type", "coding_plan_debate",
		"--content", "Adopt a cache layer.", "--client-request-id", "create-1").mustOK(t)
	if again.get("replay") != true || again.str("argument_id") != created.str("argument_id") || again.str("state") != "CLOSED" {
		t.Errorf("replayed create: %s", again.stdout)
	}

	ctx := c.run(t, "get-context", "--debate-id", id).mustOK(t)
	if ctx.str("state") != "CLOSED" || ctx.str("motion", "content") != "Adopt a cache layer." {
		t.Errorf("get-context: %s", ctx.stdout)
	}
	if n := len(ctx.get("arguments").([]any)); n != seq-1 {
		t.Errorf("get-context shows %d arguments besides the motion, want %d", n, seq-1)
	}
	if ctx.str("last_argument_id") == "" || ctx.str("last_argument_id") == prev {
		t.Errorf("last_argument_id %q should be the automatic ruling after %s", ctx.str("last_argument_id"), prev)
	}
	for _, role := range []string{"proposer", "opponent", "arbitrator"} {
		if v, ok := ctx.get("available_actions").(map[string]any)[role]; !ok || len(strs(v)) != 0 {
			t.Errorf("closed debate: available_actions[%s] = %v, want present and empty", role, v)
		}
	}
	limited := c.run(t, "get-context", "--debate-id", id, "--limit", "2").mustOK(t)
	if n := len(limited.get("arguments").([]any)); n != 2 {
		t.Errorf("--limit 2 shows %d arguments", n)
	}

	closed := c.run(t, "wait", "--debate-id", id, "--role", "opponent", "--argument-id", prev).mustOK(t)
	if closed.str("status") != "debate_closed" || closed.str("action") != "debate_closed" || closed.get("retry_command") != nil {
		t.Errorf("wait on a closed debate: %s", closed.stdout)
	}

	refused := c.run(t, "submit", "--debate-id", id, "--role", "opponent", "--target-id", prev, "--content", "late")
	refused.wantError(t, exitNotAllowed, "ACTION_NOT_ALLOWED")
	if refused.str("error", "current_state") != "CLOSED" {
		t.Errorf("refusal without the current state: %s", refused.stdout)
	}
	if roles, ok := refused.get("error", "allowed_roles").([]any); !ok || len(roles) != 0 {
		t.Errorf("refusal on a closed debate: allowed_roles %v, want present and empty", refused.get("error", "allowed_roles"))
	}

	list := c.run(t, "list", "--state", "CLOSED").mustOK(t)
	if list.get("total") != float64(1) || len(list.get("debates").([]any)) != 1 {
		t.Errorf("list --state CLOSED: %s", list.stdout)
	}
	if open := c.run(t, "list", "--pending-first-opponent").mustOK(t); open.get("total") != float64(0) {
		t.Errorf("list --pending-first-opponent: %s", open.stdout)
	}
}

func TestAgentDocuments(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	created := c.run(t, "docs", "create", "--title", "Plan", "--content", "v1", "--client-request-id", "doc-1").mustOK(t)
	doc := created.str("doc_id")
	if doc == "" || created.get("version") != float64(1) || created.get("replay") != false || created.str("title") != "Plan" {
		t.Fatalf("docs create: %s", created.stdout)
	}
	if again := c.run(t, "docs", "create", "--title", "Plan", "--content", "v1", "--client-request-id", "doc-1").mustOK(t); again.get("replay") != true || again.str("doc_id") != doc {
		t.Errorf("replayed docs create: %s", again.stdout)
	}
	v2 := call{vars: c.vars, stdin: "v2"}.run(t, "docs", "submit", doc, "--stdin").mustOK(t)
	if v2.get("version") != float64(2) || v2.get("latest_version") != float64(2) {
		t.Errorf("docs submit: %s", v2.stdout)
	}
	for _, tt := range []struct {
		args    []string
		version float64
		content string
	}{
		{[]string{"docs", "get", doc}, 2, "v2"},
		{[]string{"docs", "get", doc, "--version", "1"}, 1, "v1"},
	} {
		got := c.run(t, tt.args...).mustOK(t)
		if got.get("version") != tt.version || got.str("document", "content") != tt.content || got.get("latest_version") != float64(2) || got.get("replay") != nil {
			t.Errorf("%v: %s", tt.args, got.stdout)
		}
	}
	c.run(t, "docs", "get", "no-such-doc").wantError(t, exitNotFound, "DOCUMENT_NOT_FOUND")
	c.run(t, "docs", "get").wantError(t, exitInvalid, "INVALID_INPUT")
	c.run(t, "docs", "get", doc, "extra").wantError(t, exitInvalid, "INVALID_INPUT")
	c.run(t, "docs", "publish").wantError(t, exitInvalid, "INVALID_INPUT")
	if r := invoke(t, nil, "docs"); r.code != exitOK || !strings.Contains(r.stdout, "submit") {
		t.Errorf("docs without a command: exit %d\n%s", r.code, r.stdout)
	}
}

// TestAgentErrors checks that each kind of failure keeps the server's error
// and maps to its exit code.
func TestAgentErrors(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	vars := map[string]string{"DEBATE_SERVER_URL": srv.url}
	c := call{vars: vars}
	motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")

	closedPort := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr
	}()
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); silent.Close() })
	secured := newAgentServer(t, "s3cret")

	tests := []struct {
		name string
		vars map[string]string
		args []string
		exit int
		code string
		// check inspects the error further.
		check func(a answer) string
	}{
		{name: "unknown debate", args: []string{"get-context", "--debate-id", "nope"}, exit: exitNotFound, code: "DEBATE_NOT_FOUND",
			check: func(a answer) string {
				if a.str("error", "suggestion") == "" {
					return "no suggestion"
				}
				return ""
			}},
		{name: "unknown target", args: []string{"submit", "--debate-id", "d1", "--role", "opponent", "--target-id", "nope", "--content", "x"},
			exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "content too large", args: []string{"submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", strings.Repeat("x", 10241)},
			exit: exitInvalid, code: "CONTENT_TOO_LARGE",
			check: func(a answer) string {
				if !strings.Contains(a.str("error", "suggestion"), "docs create") {
					return "the suggestion does not point at documents"
				}
				return ""
			}},
		{name: "empty content refused by the server", args: []string{"submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", ""},
			exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "missing flag", args: []string{"submit", "--role", "opponent", "--target-id", motion, "--content", "x"}, exit: exitInvalid, code: "INVALID_INPUT",
			check: func(a answer) string {
				if !strings.Contains(a.str("error", "message"), "--debate-id is required") || !strings.Contains(a.str("error", "suggestion"), "debate submit --help") {
					return "the message does not name the flag and the help"
				}
				return ""
			}},
		{name: "unknown flag", args: []string{"wait", "--debate", "d1"}, exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "stray argument", args: []string{"get-context", "d1"}, exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "bad role", args: []string{"submit", "--debate-id", "d1", "--role", "arbitrator", "--target-id", motion, "--content", "x"}, exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "bad type", args: []string{"create", "--debate-id", "d2", "--title", "T", "--type", "chat", "--content", "x"}, exit: exitInvalid, code: "INVALID_INPUT",
			check: func(a answer) string {
				if !strings.Contains(a.str("error", "message"), "general_debate or coding_plan_debate") {
					return "the message does not list the types"
				}
				return ""
			}},
		{name: "bad state", args: []string{"list", "--state", "OPEN"}, exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "bad server URL", vars: map[string]string{"DEBATE_SERVER_URL": "127.0.0.1:3456"}, args: []string{"list"}, exit: exitInvalid, code: "INVALID_INPUT"},
		{name: "not allowed now", args: []string{"appeal", "--debate-id", "d1", "--target-id", motion, "--content", "x"}, exit: exitNotAllowed, code: "ACTION_NOT_ALLOWED",
			check: func(a answer) string {
				if a.str("error", "current_state") != "AWAITING_OPPONENT" || !reflect.DeepEqual(strs(a.get("error", "allowed_roles")), []string{}) {
					return "current_state or allowed_roles missing"
				}
				return ""
			}},
		{name: "wrong side", args: []string{"submit", "--debate-id", "d1", "--role", "proposer", "--target-id", motion, "--content", "x"}, exit: exitNotAllowed, code: "ACTION_NOT_ALLOWED",
			check: func(a answer) string {
				if a.str("error", "current_state") != "AWAITING_OPPONENT" || !reflect.DeepEqual(strs(a.get("error", "allowed_roles")), []string{"opponent"}) {
					return "current_state or allowed_roles missing"
				}
				return ""
			}},
		{name: "no token", vars: map[string]string{"DEBATE_SERVER_URL": secured.url}, args: []string{"list"}, exit: exitAuth, code: "AUTH_FAILED"},
		{name: "wrong token", vars: map[string]string{"DEBATE_SERVER_URL": secured.url, "DEBATE_AUTH_TOKEN": "guess"}, args: []string{"list"}, exit: exitAuth, code: "AUTH_FAILED"},
		{name: "unreachable", vars: map[string]string{}, args: []string{"get-context", "--debate-id", "d1", "--server", closedPort}, exit: exitUnreachable, code: "UNREACHABLE",
			check: func(a answer) string {
				if a.str("error", "detail") == "" || a.str("error", "suggestion") == "" {
					return "no detail or suggestion"
				}
				return ""
			}},
		{name: "timeout", vars: map[string]string{"DEBATE_SERVER_URL": silent.URL}, args: []string{"list", "--timeout", "150ms"}, exit: exitTimeout, code: "TIMEOUT"},
		{name: "negative timeout", vars: map[string]string{"DEBATE_SERVER_URL": silent.URL + "/"}, args: []string{"list", "--timeout", "-1s"}, exit: exitInvalid, code: "INVALID_INPUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := vars
			if tt.vars != nil {
				v = tt.vars
			}
			a := call{vars: v}.run(t, tt.args...)
			a.wantError(t, tt.exit, tt.code)
			if tt.check != nil {
				if msg := tt.check(a); msg != "" {
					t.Errorf("%s:\n%s", msg, a.stdout)
				}
			}
		})
	}
}

// TestAgentContentSources reads the content from each source, and refuses
// none or several.
func TestAgentContentSources(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	vars := map[string]string{"DEBATE_SERVER_URL": srv.url}
	file := filepath.Join(t.TempDir(), "motion.md")
	if err := os.WriteFile(file, []byte("from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		flags   []string
		stdin   string
		content string // the MOTION stored; "" for a usage error
		message string // part of the usage error
	}{
		{name: "inline", flags: []string{"--content", "inline, with a comma"}, content: "inline, with a comma"},
		{name: "file", flags: []string{"--file", file}, content: "from a file\n"},
		{name: "file dash is stdin", flags: []string{"--file", "-"}, stdin: "piped", content: "piped"},
		{name: "stdin", flags: []string{"--stdin"}, stdin: "piped\nlines", content: "piped\nlines"},
		{name: "none", message: "exactly one of --content"},
		{name: "two", flags: []string{"--content", "a", "--stdin"}, stdin: "b", message: "--content and --stdin"},
		{name: "three", flags: []string{"--content", "a", "--file", file, "--stdin"}, message: "--content and --file and --stdin"},
		{name: "missing file", flags: []string{"--file", filepath.Join(t.TempDir(), "nope.md")}, message: "nope.md"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id := fmt.Sprintf("d%d", i)
			args := append([]string{"create", "--debate-id", id, "--title", "T", "--type", "general_debate"}, tt.flags...)
			a := call{vars: vars, stdin: tt.stdin}.run(t, args...)
			if tt.content == "" {
				a.wantError(t, exitInvalid, "INVALID_INPUT")
				if !strings.Contains(a.str("error", "message"), tt.message) {
					t.Errorf("message %q does not contain %q", a.str("error", "message"), tt.message)
				}
				call{vars: vars}.run(t, "get-context", "--debate-id", id).wantError(t, exitNotFound, "DEBATE_NOT_FOUND")
				return
			}
			a.mustOK(t)
			if got := a.str("argument", "content"); got != tt.content {
				t.Errorf("stored %q, want %q", got, tt.content)
			}
		})
	}
}

// TestAgentWait covers an answer already there, one written while waiting,
// the deadline and Ctrl-C.
func TestAgentWait(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	vars := map[string]string{"DEBATE_SERVER_URL": srv.url}
	c := call{vars: vars}
	motion := c.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")

	t.Run("an argument already there", func(t *testing.T) {
		a := c.run(t, "wait", "--debate-id", "d1", "--role", "opponent").mustOK(t)
		if a.str("status") != "new_argument" || a.str("action") != "respond" || a.str("argument_id") != motion ||
			!reflect.DeepEqual(strs(a.get("available_actions")), []string{"CLAIM"}) {
			t.Errorf("%s", a.stdout)
		}
	})

	t.Run("deadline", func(t *testing.T) {
		a := c.run(t, "wait", "--debate-id", "d1", "--role", "opponent", "--argument-id", motion, "--deadline", "200ms").mustOK(t)
		want := "debate wait --debate-id d1 --role opponent --argument-id " + motion + " --deadline 200ms"
		if a.str("status") != "timeout" || a.get("has_new_argument") != false || a.str("retry_command") != want ||
			a.str("debate_state") != "AWAITING_OPPONENT" || !reflect.DeepEqual(strs(a.get("available_actions")), []string{"CLAIM"}) {
			t.Errorf("want timeout with retry_command %q:\n%s", want, a.stdout)
		}
	})

	t.Run("retry command quotes what the shell would split", func(t *testing.T) {
		const id = "it's;$(x)"
		m := c.run(t, "create", "--debate-id", id, "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t).str("argument_id")
		a := call{}.run(t, "wait", "--debate-id", id, "--role", "opponent", "--argument-id", m,
			"--deadline", "100ms", "--server", srv.url).mustOK(t)
		want := `debate wait --debate-id 'it'\''s;$(x)' --role opponent --argument-id ` + m + " --deadline 100ms --server " + srv.url
		if a.str("retry_command") != want {
			t.Errorf("retry_command %q, want %q", a.str("retry_command"), want)
		}
	})

	t.Run("woken by a write", func(t *testing.T) {
		for len(srv.polls) > 0 {
			<-srv.polls
		}
		done := make(chan outcome, 1)
		go func() {
			a, err := c.exec("wait", "--debate-id", "d1", "--role", "proposer", "--argument-id", motion, "--deadline", "1m")
			done <- outcome{a, err}
		}()
		select {
		case <-srv.polls:
		case o := <-done:
			t.Fatalf("wait ended before it polled: %s %v", o.a.stdout, o.err)
		}
		claim := c.run(t, "submit", "--debate-id", "d1", "--role", "opponent", "--target-id", motion, "--content", "No.").mustOK(t)
		a := (<-done).must(t).mustOK(t)
		if a.str("status") != "new_argument" || a.str("action") != "respond" || a.str("argument_id") != claim.str("argument_id") ||
			a.str("debate_state") != "AWAITING_PROPOSER" || !reflect.DeepEqual(strs(a.get("available_actions")), []string{"CLAIM", "APPEAL", "RESOLUTION"}) {
			t.Errorf("%s", a.stdout)
		}
	})

	t.Run("ctrl-c", func(t *testing.T) {
		for len(srv.polls) > 0 {
			<-srv.polls
		}
		// Wait after the newest argument, so that the poll holds until the
		// interrupt comes.
		newest := c.run(t, "wait", "--debate-id", "d1", "--role", "opponent").mustOK(t).str("argument_id")
		for len(srv.polls) > 0 {
			<-srv.polls
		}
		sigs := make(chan chan<- os.Signal, 1)
		done := make(chan outcome, 1)
		go func() {
			a, err := call{vars: vars, notify: func(c chan<- os.Signal) { sigs <- c }}.exec(
				"wait", "--debate-id", "d1", "--role", "opponent", "--argument-id", newest, "--deadline", "1m")
			done <- outcome{a, err}
		}()
		sig := <-sigs
		select {
		case <-srv.polls:
		case o := <-done:
			t.Fatalf("wait ended before it polled: %s %v", o.a.stdout, o.err)
		}
		sig <- os.Interrupt
		a := (<-done).must(t)
		a.wantError(t, exitInterrupted, "INTERRUPTED")
		if !strings.Contains(a.str("error", "suggestion"), "debate wait --debate-id d1 --role opponent --argument-id "+newest+" --deadline 1m0s") {
			t.Errorf("no command to resume: %s", a.stdout)
		}
	})

	t.Run("bad flags", func(t *testing.T) {
		c.run(t, "wait", "--debate-id", "d1").wantError(t, exitInvalid, "INVALID_INPUT")
		c.run(t, "wait", "--debate-id", "d1", "--role", "judge").wantError(t, exitInvalid, "INVALID_INPUT")
		c.run(t, "wait", "--debate-id", "d1", "--role", "opponent", "--deadline", "0s").wantError(t, exitInvalid, "INVALID_INPUT")
		c.run(t, "wait", "--debate-id", "nope", "--role", "opponent").wantError(t, exitNotFound, "DEBATE_NOT_FOUND")
	})
}

// TestAgentEscapesControls sends content full of terminal controls and
// checks that the output holds none of them raw, yet decodes to the same text.
func TestAgentEscapesControls(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	content := "red \x1b[31mtext\x1b[0m, bell \a, del \x7f, csi \u009b2J, <b>&</b>, line\u2028sep, é"
	a := c.run(t, "create", "--debate-id", "d1", "--title", "T\x1b]0;owned\a", "--type", "general_debate", "--content", content).mustOK(t)
	got := c.run(t, "get-context", "--debate-id", "d1").mustOK(t)
	for _, r := range []answer{a, got} {
		body := strings.TrimSuffix(r.stdout, "\n")
		for i, ch := range body {
			if ch < 0x20 || (ch >= 0x7f && ch <= 0x9f) || ch == '\u2028' {
				t.Errorf("raw control %U at byte %d of:\n%q", ch, i, body)
			}
		}
		if !utf8.ValidString(body) || !strings.Contains(body, "<b>&</b>") {
			t.Errorf("output is not readable UTF-8 with HTML kept as is: %q", body)
		}
	}
	if s := got.str("motion", "content"); s != content {
		t.Errorf("content came back as %q, want %q", s, content)
	}
	if s := got.str("debate", "title"); s != "T\x1b]0;owned\a" {
		t.Errorf("title came back as %q", s)
	}
}

func TestEscapeControls(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "\x7f", "a\u0080b\u009fc\u00a0d", "\u0085", "é\x7fü", strings.Repeat("\u009b", 3)} {
		var buf bytes.Buffer
		e := &env{stdout: &buf}
		e.printJSON(map[string]string{"s": s})
		out := buf.Bytes()
		if bytes.IndexByte(out, 0x7f) >= 0 || bytes.Contains(out, []byte("\xc2\x80")) || bytes.Contains(out, []byte("\xc2\x9b")) {
			t.Errorf("%q: raw control in %q", s, out)
		}
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil || back["s"] != s {
			t.Errorf("%q: round trip gave %q (%v)", s, back["s"], err)
		}
	}
}

// TestAgentToken checks that a server's token is required, taken from the
// flag or the environment, and never printed.
func TestAgentToken(t *testing.T) {
	t.Parallel()
	const token = "tok-s3cret-9f8e"
	srv := newAgentServer(t, token)
	env := map[string]string{"DEBATE_SERVER_URL": srv.url, "DEBATE_AUTH_TOKEN": token}
	var outputs []answer
	check := func(a answer) answer { outputs = append(outputs, a); return a }

	check(call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}.run(t, "list")).wantError(t, exitAuth, "AUTH_FAILED")
	motion := check(call{vars: env}.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M")).mustOK(t).str("argument_id")
	check(call{}.run(t, "get-context", "--debate-id", "d1", "--server", srv.url, "--token", token)).mustOK(t)
	check(call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}.run(t, "get-context", "--debate-id", "d1", "--token", "bad-"+token)).wantError(t, exitAuth, "AUTH_FAILED")
	timeout := check(call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}.run(t, "wait", "--debate-id", "d1", "--role", "opponent",
		"--argument-id", motion, "--deadline", "100ms", "--token", token)).mustOK(t)
	if timeout.str("status") != "timeout" || timeout.str("retry_command") == "" {
		t.Errorf("wait: %s", timeout.stdout)
	}
	check(call{vars: env}.run(t, "docs", "create", "--content", "x")).mustOK(t)
	check(call{vars: map[string]string{"DEBATE_SERVER_URL": "http://user:" + token + "@127.0.0.1:1"}}.run(t, "list")).wantError(t, exitUnreachable, "UNREACHABLE")
	check(call{vars: map[string]string{"DEBATE_SERVER_URL": "ftp://user:" + token + "@host"}}.run(t, "list")).wantError(t, exitInvalid, "INVALID_INPUT")
	for _, a := range outputs {
		if strings.Contains(a.stdout+a.stderr, token) {
			t.Errorf("the token was printed:\n%s%s", a.stdout, a.stderr)
		}
	}
}

func TestAgentHelp(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"generate-id", "create", "get-context", "submit", "appeal", "request-completion",
		"ruling", "intervention", "wait", "list", "docs create", "docs submit", "docs get"} {
		args := append(strings.Fields(name), "--help")
		r := invoke(t, nil, args...)
		if r.code != exitOK || r.stderr != "" {
			t.Errorf("%s --help: exit %d, stderr %q", name, r.code, r.stderr)
		}
		for _, want := range []string{"USAGE\n  debate " + name, "FLAGS", "EXAMPLES", "OUTPUT", "EXIT CODES", "ACTION_NOT_ALLOWED", "130"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s --help lacks %q:\n%s", name, want, r.stdout)
			}
		}
		if name != "generate-id" {
			for _, want := range []string{"--server", "--token", "DEBATE_SERVER_URL", "DEBATE_AUTH_TOKEN"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("%s --help lacks %q", name, want)
				}
			}
		}
	}
	r := invoke(t, nil, "help")
	for _, want := range []string{"Batch debates", "Server, web UI and role guides", "Agent commands", "guide ", "open ", "request-completion", "AGENT EXIT CODES", "6 server unreachable"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("top help lacks %q:\n%s", want, r.stdout)
		}
	}
	if i, j := strings.Index(r.stdout, "    docs "), strings.Index(r.stdout, "    help "); i < 0 || j < i {
		t.Errorf("help is not last:\n%s", r.stdout)
	}
	if r := invoke(t, nil, "help", "wait"); r.code != exitOK || !strings.Contains(r.stdout, "retry_command") {
		t.Errorf("debate help wait: exit %d\n%s", r.code, r.stdout)
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"0191f2a4-7c3e-7b1a", "0191f2a4-7c3e-7b1a"},
		{"http://127.0.0.1:3456", "http://127.0.0.1:3456"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"a\nb", "'a\nb'"},
	} {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
