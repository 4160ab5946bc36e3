package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/debatehq/debate/mcp"
	"github.com/debatehq/debate/ops"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
	"github.com/debatehq/debate/store"
)

// The environment of the test binary when it serves MCP on stdio as a child
// of a test (see TestMain).
const (
	childVar   = "DEBATE_MCP_TEST_CHILD"   // set: serve on stdio
	foldersVar = "DEBATE_MCP_TEST_FOLDERS" // the config folders served
	serverVar  = "DEBATE_MCP_TEST_SERVER"  // the protocol server's URL
	tokenVar   = "DEBATE_MCP_TEST_TOKEN"   // its token
)

func TestMain(m *testing.M) {
	if os.Getenv(childVar) != "" {
		os.Exit(serveChild())
	}
	os.Exit(m.Run())
}

// serveChild serves MCP on stdio as "debate mcp" does, with the folders and
// the server of its environment.
func serveChild() int {
	runs := ops.NewRuns(ops.RunsOptions{Folders: filepath.SplitList(os.Getenv(foldersVar))})
	defer runs.Close()
	s := mcp.New(mcp.Options{Runs: runs, Debates: client.New(os.Getenv(serverVar), os.Getenv(tokenVar), nil)})
	if err := mcp.ServeStdio(context.Background(), s, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

const token = "s3cret-token"

// backend is a protocol server with the MCP endpoint, and a folder of
// configs its runs may use.
type backend struct {
	url     string
	folder  string
	config  string // a demo config of one topic
	config5 string // a demo config of five topics
}

func newBackend(t *testing.T) backend {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b := backend{folder: filepath.Join(dir, "configs")}
	if err := os.Mkdir(b.folder, 0o755); err != nil {
		t.Fatal(err)
	}
	b.config = writeConfig(t, b.folder, "one.jsonc", 1)
	b.config5 = writeConfig(t, b.folder, "five.jsonc", 5)
	runs := ops.NewRuns(ops.RunsOptions{Folders: []string{b.folder}})
	t.Cleanup(runs.Close)
	hs := httptest.NewUnstartedServer(nil)
	b.url = "http://" + hs.Listener.Addr().String()
	self := client.New(b.url, token, nil)
	srv := server.New(st, server.Options{Token: token, MCP: mcp.Handler(mcp.New(mcp.Options{Runs: runs, Debates: self}))})
	hs.Config.Handler = srv.Handler()
	hs.Start()
	t.Cleanup(hs.Close)
	return b
}

// writeConfig writes a demo config of n topics to folder.
func writeConfig(t *testing.T, folder, name string, n int) string {
	t.Helper()
	var topics []string
	for i := range n {
		topics = append(topics, fmt.Sprintf(`{"id": "t%d", "title": "Should cache %d be invalidated by events or by a TTL?"}`, i+1, i+1))
	}
	cfg := `{
  "api": {"baseURL": "https://api.openai.com/v1", "apiKey": "sk-test-key"},
  "debaters": [{"id": "a", "model": "gpt-5.2"}, {"id": "b", "model": "claude-sonnet-4-6"}],
  "reviewer": {"id": "r", "model": "gpt-5.2"},
  "topics": [` + strings.Join(topics, ",") + `],
  "output": {"dir": "out-` + strings.TrimSuffix(name, ".jsonc") + `"}
}`
	path := filepath.Join(folder, name)
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// bearer adds the server's token to every request.
type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return http.DefaultTransport.RoundTrip(r)
}

// transports names the ways a client reaches the server.
var transports = []string{"stdio", "http"}

// agent is one MCP client with the progress notifications it received.
type agent struct {
	cs       *sdk.ClientSession
	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
}

// connect connects a new client to b over the transport named.
func connect(t *testing.T, b backend, transport string) *agent {
	t.Helper()
	a := &agent{}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			a.mu.Lock()
			a.progress = append(a.progress, req.Params)
			a.mu.Unlock()
		}})
	var tr sdk.Transport
	switch transport {
	case "stdio":
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childVar+"=1", foldersVar+"="+b.folder, serverVar+"="+b.url, tokenVar+"="+token)
		cmd.Stderr = os.Stderr
		tr = &sdk.CommandTransport{Command: cmd}
	default:
		tr = &sdk.StreamableClientTransport{Endpoint: b.url + server.MCPPath, HTTPClient: &http.Client{Transport: bearer{}},
			DisableStandaloneSSE: true, MaxRetries: -1}
	}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("%s: connect: %v", transport, err)
	}
	t.Cleanup(func() { cs.Close() })
	a.cs = cs
	return a
}

// call calls a tool and decodes its structured answer into out; it fails
// the test on a tool error.
func (a *agent) call(t *testing.T, name string, args any, out any) {
	t.Helper()
	if msg, ok := a.try(t, name, args, out); !ok {
		t.Fatalf("%s: tool error: %s", name, msg)
	}
}

// try calls a tool; on a tool error it returns the error's text and false.
func (a *agent) try(t *testing.T, name string, args any, out any) (string, bool) {
	t.Helper()
	msg, err := a.do(name, args, out)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return msg, msg == ""
}

// do calls a tool and decodes its structured answer into out; on a tool
// error it returns the error's text.
func (a *agent) do(name string, args any, out any) (string, error) {
	p := &sdk.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken(name + "-token")
	res, err := a.cs.CallTool(context.Background(), p)
	if err != nil {
		return "", err
	}
	if res.IsError {
		return res.Content[0].(*sdk.TextContent).Text, nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return "", err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return "", fmt.Errorf("decode %s: %w", b, err)
	}
	return "", nil
}

// TestRunTools: a demo run started, followed to its end with progress
// notifications, its decision and reports read, and another run cancelled,
// over stdio and over HTTP.
func TestRunTools(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			a := connect(t, b, tr)
			tools := a.toolNames(t)
			for _, want := range []string{"run_start", "run_status", "run_decision", "run_cancel", "run_list", "protocol_create", "protocol_wait", "protocol_ruling"} {
				if !slices.Contains(tools, want) {
					t.Errorf("tools %v lack %s", tools, want)
				}
			}
			var st ops.Status
			a.call(t, "run_start", map[string]any{"config": b.config, "demo": true}, &st)
			if st.ID == "" || st.State != ops.Running || st.Total != 1 || !strings.HasSuffix(st.Folder, "out-one") {
				t.Fatalf("run_start answered %+v", st)
			}
			for st.State == ops.Running {
				a.call(t, "run_status", map[string]any{"id": st.ID, "waitSeconds": 50}, &st)
			}
			if st.State != ops.Finished || st.Done != 1 || st.Calls == 0 || len(st.Reports) == 0 {
				t.Fatalf("the run ended as %+v", st)
			}
			if n := a.progressCount(); n == 0 {
				t.Error("no progress notification while waiting for the run")
			}
			var d ops.Decision
			a.call(t, "run_decision", map[string]any{"id": st.ID}, &d)
			if len(d.Topics) != 1 || d.Topics[0].Decision == "" || d.Folder != st.Folder || !d.Gate.Pass {
				t.Fatalf("run_decision answered %+v", d)
			}
			for _, uri := range []string{ops.ReportURI(st.ID, "summary.md"), d.Topics[0].Report, d.RunJSON} {
				res, err := a.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
				if err != nil {
					t.Fatalf("read %s: %v", uri, err)
				}
				if text := res.Contents[0].Text; !strings.Contains(strings.ToLower(text), "demo") {
					t.Errorf("%s does not say it is a demo:\n%.300s", uri, text)
				}
			}
			if _, err := a.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: ops.ReportURI(st.ID, "../../etc/passwd")}); err == nil {
				t.Error("a path outside the run's reports was read")
			}

			var c ops.Status
			a.call(t, "run_start", map[string]any{"config": b.config5, "demo": true}, &c)
			a.call(t, "run_cancel", map[string]any{"id": c.ID}, &c)
			if c.State != ops.Cancelled || slices.ContainsFunc(c.Topics, func(l ops.TopicLine) bool { return l.Decision == "agreed" || l.Decision == "decided" }) {
				t.Fatalf("run_cancel answered %+v", c)
			}
			var list struct{ Runs []ops.Status }
			a.call(t, "run_list", map[string]any{}, &list)
			if len(list.Runs) < 2 || list.Runs[0].ID != c.ID {
				t.Errorf("run_list answered %+v, want the cancelled run first", list.Runs)
			}
		})
	}
}

// TestRunRefusals: a config outside the served folders, an inline question
// without a default config, and a run without a cap on its spend are
// refused with a code an agent can act on.
func TestRunRefusals(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	outside := writeConfig(t, t.TempDir(), "outside.jsonc", 1)
	a := connect(t, b, "http")
	for _, c := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"outside the folders", map[string]any{"config": outside, "demo": true}, ops.CodeFolderRefused},
		{"no budget", map[string]any{"config": b.config}, ops.CodeNeedsMaxCost},
		{"inline without default", map[string]any{"question": "Q?", "models": []string{"a", "b"}, "maxCost": 1}, ops.CodeBadConfig},
		{"both", map[string]any{"config": b.config, "question": "Q?"}, "INVALID_INPUT"},
		{"unknown run", nil, ops.CodeRunNotFound},
	} {
		tool, args := "run_start", c.args
		if args == nil {
			tool, args = "run_decision", map[string]any{"id": "nope"}
		}
		msg, ok := a.try(t, tool, args, &struct{}{})
		var body ops.FailureBody
		if ok || json.Unmarshal([]byte(msg), &body) != nil || body.Code != c.code || body.Message == "" {
			t.Errorf("%s: got %q, want a failure with code %s", c.name, msg, c.code)
		}
	}
}

func (a *agent) toolNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for tool, err := range a.cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	return names
}

func (a *agent) progressCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.progress)
}

// TestMotionOverMCP: a motion argued to a ruling and closed by a proposer,
// an opponent and an arbitrator, each its own MCP client, with no CLI.
func TestMotionOverMCP(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			proposer, opponent, arbitrator := connect(t, b, tr), connect(t, b, tr), connect(t, b, tr)
			var motion ops.Written
			proposer.call(t, "protocol_create", map[string]any{"title": "Cache by events", "type": "general_debate",
				"content": "Invalidate the catalogue cache by price events."}, &motion)
			if motion.State != "AWAITING_OPPONENT" || motion.Next == nil || motion.DebateID == "" {
				t.Fatalf("protocol_create answered %+v", motion)
			}
			id := motion.DebateID

			var open ops.Listing
			opponent.call(t, "protocol_list", map[string]any{"pending_first_opponent": true}, &open)
			if !slices.ContainsFunc(open.Debates, func(d api.Debate) bool { return d.ID == id }) {
				t.Fatalf("protocol_list does not offer the new debate: %+v", open)
			}
			var turn ops.Waited
			opponent.call(t, "protocol_wait", map[string]any{"debate_id": id, "role": "opponent"}, &turn)
			if turn.Action != "respond" || turn.ArgumentID != motion.ArgumentID {
				t.Fatalf("the opponent's first wait answered %+v", turn)
			}

			// The proposer waits while the opponent writes: the wait wakes.
			type waited struct {
				w   ops.Waited
				msg string
				err error
			}
			woke := make(chan waited, 1)
			go func() {
				var w waited
				w.msg, w.err = proposer.do("protocol_wait", motion.Next, &w.w)
				woke <- w
			}()
			var claim ops.Written
			opponent.call(t, "protocol_submit", map[string]any{"debate_id": id, "role": "opponent", "target_id": motion.ArgumentID,
				"content": "Events get lost when the bus is down; a TTL bounds staleness."}, &claim)
			wk := <-woke
			if wk.err != nil || wk.msg != "" {
				t.Fatalf("the proposer's wait failed: %v %s", wk.err, wk.msg)
			}
			got := wk.w
			if got.Status != ops.WaitNew || got.Action != "respond" || got.ArgumentID != claim.ArgumentID {
				t.Fatalf("the proposer's wait answered %+v, want the opponent's claim", got)
			}

			var review, v2, read ops.Doc
			opponent.call(t, "protocol_doc_write", map[string]any{"title": "Review", "content": "C1: events get lost."}, &review)
			opponent.call(t, "protocol_doc_write", map[string]any{"doc_id": review.DocID, "content": "C1: events get lost.\nM1: no TTL."}, &v2)
			proposer.call(t, "protocol_doc_get", map[string]any{"doc_id": review.DocID, "version": 1}, &read)
			if review.Version != 1 || v2.Version != 2 || read.Document.Content != "C1: events get lost." || read.LatestVersion != 2 {
				t.Fatalf("documents: wrote v%d and v%d, read %+v", review.Version, v2.Version, read)
			}

			msg, ok := proposer.try(t, "protocol_submit", map[string]any{"debate_id": id, "role": "opponent", "target_id": claim.ArgumentID, "content": "x"}, &struct{}{})
			var refusal ops.FailureBody
			if ok || json.Unmarshal([]byte(msg), &refusal) != nil || refusal.Code != "ACTION_NOT_ALLOWED" || refusal.CurrentState != "AWAITING_PROPOSER" {
				t.Fatalf("a claim out of turn got %q, want ACTION_NOT_ALLOWED with the current state", msg)
			}

			var appeal ops.Written
			proposer.call(t, "protocol_appeal", map[string]any{"debate_id": id, "target_id": claim.ArgumentID,
				"content": "Option A: events with a TTL backstop. Option B: TTL only. Option C: the arbitrator proposes another way."}, &appeal)
			var seen ops.Context
			arbitrator.call(t, "protocol_get_context", map[string]any{"debate_id": id}, &seen)
			if seen.State != "AWAITING_ARBITRATOR" || !slices.Contains(seen.AvailableActions["arbitrator"], "RULING") {
				t.Fatalf("the arbitrator reads %s with actions %v", seen.State, seen.AvailableActions)
			}
			var ruling ops.Written
			arbitrator.call(t, "protocol_ruling", map[string]any{"debate_id": id, "content": "Take option A."}, &ruling)
			proposer.call(t, "protocol_wait", appeal.Next, &got)
			if got.Action != "align_to_ruling" || got.ArgumentID != ruling.ArgumentID {
				t.Fatalf("after the ruling the proposer's wait answered %+v", got)
			}
			var done ops.Written
			proposer.call(t, "protocol_request_completion", map[string]any{"debate_id": id, "target_id": ruling.ArgumentID,
				"content": "Events with a TTL backstop, as ruled."}, &done)
			if done.State != "CLOSED" || done.AutoRuling == nil || done.Next != nil {
				t.Fatalf("protocol_request_completion answered %+v", done)
			}
			opponent.call(t, "protocol_wait", claim.Next, &got)
			if got.Status != ops.WaitClosed || len(got.Arguments) != 4 {
				t.Fatalf("the opponent's last wait answered %+v, want the debate closed after 4 arguments", got)
			}
		})
	}
}

// TestEndpointGuarded: /mcp is behind the server's token and its origin
// check, as every route is.
func TestEndpointGuarded(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct {
		name    string
		headers map[string]string
		status  int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer guess"}, http.StatusUnauthorized},
		{"another origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"the token", map[string]string{"Authorization": "Bearer " + token}, http.StatusOK},
	} {
		req, err := http.NewRequest(http.MethodPost, b.url+server.MCPPath, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.status)
		}
	}
}

// TestWaitTimesOut: a wait with nothing new answers timeout at its end,
// for the agent to call again.
func TestWaitTimesOut(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	a := connect(t, b, "http")
	var motion ops.Written
	a.call(t, "protocol_create", map[string]any{"title": "T", "type": "general_debate", "content": "M"}, &motion)
	var w ops.Waited
	a.call(t, "protocol_wait", map[string]any{"debate_id": motion.DebateID, "role": "proposer", "argument_id": motion.ArgumentID, "waitSeconds": 0.2}, &w)
	if w.Status != ops.WaitTimeout || w.HasNewArgument || w.Message == "" {
		t.Errorf("protocol_wait answered %+v, want a timeout", w)
	}
}

// TestReadyFirst: a protocol tool is answered with the error of Ready (a
// server that could not be started), and Ready is asked before each one.
func TestReadyFirst(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	asked := 0
	ready := func(context.Context) error {
		asked++
		if asked == 1 {
			return &client.Error{Code: client.CodeUnreachable, Message: "nothing answers", Suggestion: "start debate serve"}
		}
		return nil
	}
	a := connectReady(t, b, ready)
	msg, ok := a.try(t, "protocol_list", map[string]any{}, &struct{}{})
	var body ops.FailureBody
	if ok || json.Unmarshal([]byte(msg), &body) != nil || body.Code != client.CodeUnreachable || body.Suggestion == "" {
		t.Errorf("with the server down protocol_list answered %q", msg)
	}
	var l ops.Listing
	a.call(t, "protocol_list", map[string]any{}, &l)
	if asked != 2 {
		t.Errorf("Ready asked %d times for two calls", asked)
	}
}

// connectReady connects a new client, in memory, to a server of the
// protocol tools of b that calls ready before it asks b.
func connectReady(t *testing.T, b backend, ready func(context.Context) error) *agent {
	t.Helper()
	s := mcp.New(mcp.Options{Debates: client.New(b.url, token, nil), Ready: ready})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &agent{cs: cs}
}

// TestRefusedInputStartsNoServer: every protocol tool checks its input
// before Ready (which may start a server): an input it refuses is
// answered INVALID_INPUT, naming the field, and starts nothing.
func TestRefusedInputStartsNoServer(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	var asked atomic.Int32
	a := connectReady(t, b, func(context.Context) error { asked.Add(1); return nil })
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"protocol_create", map[string]any{"title": "", "type": "general_debate", "content": "M"}, "title"},
		{"protocol_submit", map[string]any{"debate_id": "d1", "role": "judge", "target_id": "a1", "content": "C"}, "role"},
		{"protocol_appeal", map[string]any{"debate_id": "d1", "target_id": "", "content": "C"}, "target_id"},
		{"protocol_request_completion", map[string]any{"debate_id": "", "target_id": "a1", "content": "C"}, "debate_id"},
		{"protocol_ruling", map[string]any{"debate_id": "", "content": "R"}, "debate_id"},
		{"protocol_intervention", map[string]any{"debate_id": ""}, "debate_id"},
		{"protocol_doc_write", map[string]any{"content": ""}, "content"},
		{"protocol_wait", map[string]any{"debate_id": "d1", "role": "judge"}, "role"},
		{"protocol_get_context", map[string]any{"debate_id": ""}, "debate_id"},
		{"protocol_doc_get", map[string]any{"doc_id": "x", "version": -1}, "version"},
		{"protocol_list", map[string]any{"state": "OPEN"}, "state"},
	} {
		msg, ok := a.try(t, c.tool, c.args, &struct{}{})
		var body ops.FailureBody
		if ok || json.Unmarshal([]byte(msg), &body) != nil || body.Code != "INVALID_INPUT" || !strings.Contains(body.Message, c.want) {
			t.Errorf("%s %v: got %q, want INVALID_INPUT naming %s", c.tool, c.args, msg, c.want)
		}
		if n := asked.Load(); n != 0 {
			t.Fatalf("%s %v: Ready called %d times for an input refused", c.tool, c.args, n)
		}
	}
}

// TestProtocolRefusals: a protocol tool refuses an argument left empty or
// out of range (the SDK refuses one left out) before any call to the
// server, naming the argument as the agent wrote it.
func TestProtocolRefusals(t *testing.T) {
	t.Parallel()
	b := newBackend(t)
	a := connect(t, b, "http")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"protocol_submit", map[string]any{"debate_id": "", "role": "opponent", "target_id": "a1", "content": "C"}, "debate_id is required"},
		{"protocol_appeal", map[string]any{"debate_id": "d1", "target_id": "", "content": "C"}, "target_id is required"},
		{"protocol_doc_get", map[string]any{"doc_id": ""}, "doc_id is required"},
		{"protocol_doc_get", map[string]any{"doc_id": "x", "version": -1}, "or 0 for the latest"},
	} {
		msg, ok := a.try(t, c.tool, c.args, &struct{}{})
		var body ops.FailureBody
		if ok || json.Unmarshal([]byte(msg), &body) != nil || body.Code != "INVALID_INPUT" || !strings.Contains(body.Message, c.want) {
			t.Errorf("%s %v: got %q, want INVALID_INPUT saying %q", c.tool, c.args, msg, c.want)
		}
	}
}
