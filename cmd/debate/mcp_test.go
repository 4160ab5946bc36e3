package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/store"
)

// needTool returns the path of the program name, or skips the test when it
// is missing, except under CI, where .ci/run installs it and its absence
// is a failure.
func needTool(t *testing.T, name, why string) string {
	t.Helper()
	path := testkit.NeedProgram(t, name, why)
	if testing.Short() {
		t.Skip("-short: skipping a test that runs Node")
	}
	return path
}

// buildDebate builds the program into a temporary folder.
func buildDebate(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "debate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// inspector runs the MCP Inspector's CLI against "debate mcp" with args
// and returns its JSON answer. The inspector (1.0.3) reads its own
// package.json through a path it checks relative to the working folder,
// so it runs in a folder whose parent holds one.
func inspector(t *testing.T, cli, work string, target []string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(cli, append(append([]string{"--cli"}, target...), args...)...)
	cmd.Dir = work
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("mcp-inspector-cli %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("mcp-inspector-cli %s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
	}
	return v
}

// structured returns the structured content of a tool call's answer.
func structured(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	sc, ok := v["structuredContent"].(map[string]any)
	if !ok {
		t.Fatalf("no structured content in %v", v)
	}
	return sc
}

// TestMCPInspector: a client no one here wrote, the MCP Inspector's CLI,
// lists the tools of "debate mcp" and calls them: a demo run starts, a
// debate opens on a protocol server, and a write out of turn is refused
// with the protocol's error.
func TestMCPInspector(t *testing.T) {
	t.Parallel()
	cli := needTool(t, "mcp-inspector-cli", "@modelcontextprotocol/inspector-cli")
	bin := buildDebate(t)
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile("../../configs/examples/minimal.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "minimal.jsonc"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newAgentServer(t, "")
	// The inspector takes --server and --config as its own: the server's
	// URL goes in the environment.
	target := []string{"-e", "DEBATE_SERVER_URL=" + srv.url, bin, "mcp", "--folder", work}

	var names []string
	for _, tool := range inspector(t, cli, work, target, "--method", "tools/list")["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	for _, want := range []string{"run_start", "run_status", "run_decision", "run_cancel", "run_list",
		"protocol_create", "protocol_submit", "protocol_wait", "protocol_ruling", "protocol_get_context"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}

	run := structured(t, inspector(t, cli, work, target, "--method", "tools/call", "--tool-name", "run_start",
		"--tool-arg", "config=minimal.jsonc", "demo=true"))
	if run["state"] != "running" || run["folder"] != filepath.Join(work, "output") || run["topicsTotal"] != float64(1) {
		t.Errorf("run_start answered %v", run)
	}

	opened := structured(t, inspector(t, cli, work, target, "--method", "tools/call", "--tool-name", "protocol_create",
		"--tool-arg", "title=Cache by events", "type=general_debate", "content=Invalidate by price events."))
	if opened["state"] != "AWAITING_OPPONENT" {
		t.Fatalf("protocol_create answered %v", opened)
	}
	refused := inspector(t, cli, work, target, "--method", "tools/call", "--tool-name", "protocol_submit",
		"--tool-arg", "debate_id="+opened["debate_id"].(string), "role=proposer", "target_id="+opened["argument_id"].(string), "content=Me again.")
	text, _ := json.Marshal(refused["content"])
	if refused["isError"] != true || !strings.Contains(string(text), "ACTION_NOT_ALLOWED") {
		t.Errorf("a claim out of turn answered %v, want a tool error ACTION_NOT_ALLOWED", refused)
	}
}

// The conformance suite's scenarios that any server must pass, and those
// that call the suite's own fixture tools, prompts and resources
// (test_simple_text, test_image_content, …), which debate does not have.
var (
	conformanceScenarios = []string{"server-initialize", "ping", "tools-list", "logging-set-level", "resources-list",
		"prompts-list", "server-sse-multiple-streams", "dns-rebinding-protection"}
	conformanceNotApplicable = []string{"completion-complete", "tools-call-simple-text", "tools-call-image",
		"tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging",
		"tools-call-error", "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation",
		"elicitation-sep1034-defaults", "elicitation-sep1330-enums", "resources-read-text", "resources-read-binary",
		"resources-templates-read", "resources-subscribe", "resources-unsubscribe", "prompts-get-simple",
		"prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image"}
)

// TestMCPConformance: the MCP conformance suite runs against the /mcp
// endpoint of a server wired as "debate serve" wires it; every check of the
// scenarios any server must pass succeeds (a warning is not a failure).
func TestMCPConformance(t *testing.T) {
	t.Parallel()
	suite := needTool(t, "conformance", "@modelcontextprotocol/conformance")
	node := needTool(t, "node", "Node.js 22 or later")
	if v, err := exec.Command(node, "--version").Output(); err != nil || nodeMajor(string(v)) < 22 {
		if testkit.UnderCI() {
			t.Fatalf("node %s under CI: the conformance suite needs Node 22 (.ci/run installs it from npm)", v)
		}
		t.Skipf("node %s: the conformance suite needs Node 22 or later", strings.TrimSpace(string(v)))
	}
	url := serveMCP(t)
	out := t.TempDir()
	for _, sc := range conformanceScenarios {
		cmd := exec.Command(suite, "server", "--url", url, "--scenario", sc, "-o", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", sc, err, b)
		}
	}
	checks, err := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	if err != nil || len(checks) != len(conformanceScenarios) {
		t.Fatalf("%d results for %d scenarios (%v)", len(checks), len(conformanceScenarios), err)
	}
	for _, f := range checks {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list []struct{ ID, Status, ErrorMessage string }
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range list {
			t.Logf("%s: %s %s", c.ID, c.Status, c.ErrorMessage)
			if c.Status == "FAILURE" {
				t.Errorf("%s failed: %s", c.ID, c.ErrorMessage)
			}
		}
	}
	t.Logf("not applicable (they call the suite's own fixture tools, prompts and resources): %s", strings.Join(conformanceNotApplicable, ", "))
}

// TestServeRunToolsNeedToken: the /mcp of "debate serve" serves the run
// tools only when the server has a token, since a run spends money; the
// protocol tools follow the REST API's access.
func TestServeRunToolsNeedToken(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"", "s3cret"} {
		c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, nil)
		hc := &http.Client{Transport: bearer(tok)}
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: serveMCPWith(t, tok), HTTPClient: hc,
			DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		cs.Close()
		if got := slices.Contains(names, "run_start"); got != (tok != "") || !slices.Contains(names, "protocol_create") {
			t.Errorf("token %q: tools %v", tok, names)
		}
	}
}

// bearer sends its token, when it has one, with every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+string(b))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// serveMCP serves the protocol with the MCP endpoint as "debate serve"
// does, on a loopback port, and returns the endpoint's URL.
func serveMCP(t *testing.T) string {
	t.Helper()
	return serveMCPWith(t, "")
}

// serveMCPWith is serveMCP with a token.
func serveMCPWith(t *testing.T, token string) string {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tools, stopRuns := (&runFlags{}).mcpHandler(&env{getenv: os.LookupEnv}, ln.Addr(), token, log)
	srv := server.New(st, server.Options{Token: token, Logger: log, MCP: tools})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && err != http.ErrServerClosed {
			t.Error(err)
		}
		stopRuns()
		st.Close()
	})
	return "http://" + ln.Addr().String() + server.MCPPath
}

var majorVersion = regexp.MustCompile(`^v(\d+)\.`)

// nodeMajor returns the major version of "node --version", 0 if unknown.
func nodeMajor(v string) int {
	m := majorVersion.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
