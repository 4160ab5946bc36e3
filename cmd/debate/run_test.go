package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

const testKey = "sk-test-DO-NOT-LEAK-4242"

// writeConfig writes a three-debater config pointing at the fake and returns its path.
func writeConfig(t *testing.T, srv *providertest.Server, maxRounds int, extra string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := `{
  // End-to-end test config: every model is served by the fake.
  "api": {"baseURL": "` + srv.URL() + `", "apiKey": "${TEST_API_KEY}", "maxRetries": 0, "timeout": 10000},
  "debaters": [
    {"id": "a", "label": "Party A", "model": "m-a"},
    {"id": "b", "label": "Party B", "model": "m-b"},
    {"id": "c", "label": "Party C", "model": "m-c", "fallback": "m-c2"},
  ],
  "reviewer": {"id": "judge", "label": "Judge", "model": "m-judge"},
  "params": {"maxRounds": ` + itoa(maxRounds) + `, "synthesis": false, "blind": false},
  "fallback": {"maxConsecutiveFailures": 2, "retryDelay": 1},
  "topics": [{"id": "t1", "title": "Root question", "annotations": ["note one"]}` + extra + `],
  "output": {"dir": "out", "format": ["markdown", "html"]},
}`
	path := filepath.Join(dir, "debate.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

type divergence struct {
	ID         string            `json:"id"`
	Title      string            `json:"title"`
	Sides      map[string]string `json:"sides"`
	Uninvolved []string          `json:"uninvolved"`
}

func triage(divs ...divergence) scripted.Reply {
	if divs == nil {
		divs = []divergence{}
	}
	return scripted.Fenced(map[string]any{
		"consensus":   []map[string]string{{"point": "Agreed point", "detail": "Everyone accepts it."}},
		"divergences": divs,
	})
}

// scriptJudges answers debaters with plain text and the judge by node title:
// the root splits into ALPHA and BETA, ALPHA converges, BETA splits into
// GAMMA, and a forced-verdict prompt (GAMMA's, at round 3) gets verdicts.
func scriptJudges(srv *providertest.Server) { srv.Script(judgesReply) }

// judgesReply is scriptJudges' answer to c.
func judgesReply(c scripted.Call) scripted.Reply {
	if c.Model != "m-judge" {
		return scripted.Text("Position of " + c.Model + ": I argue my case with evidence.")
	}
	switch {
	case c.Contains("forcedVerdicts"): // only the forced-verdict prompt shows this field
		return scripted.Fenced(map[string]any{
			"consensus":      []map[string]string{},
			"divergences":    []divergence{{ID: "x", Title: "Still split", Sides: map[string]string{"a": "yes", "b": "no"}, Uninvolved: []string{"c"}}},
			"forcedVerdicts": []map[string]string{{"divergenceId": "x", "recommendation": "Do yes", "reasoning": "It is cheaper."}},
		})
	case c.Contains("BETA"):
		return triage(divergence{ID: "z", Title: "GAMMA", Sides: map[string]string{"a": "g1", "c": "g2"}, Uninvolved: []string{"b"}})
	case c.Contains("ALPHA"):
		return triage()
	}
	return triage(
		divergence{ID: "one", Title: "ALPHA", Sides: map[string]string{"a": "a1", "b": "b1"}, Uninvolved: []string{"c"}},
		divergence{ID: "two", Title: "BETA", Sides: map[string]string{"b": "b2", "c": "c2"}, Uninvolved: []string{"a"}},
	)
}

func readRun(t *testing.T, path string) *tree.Run {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run, err := output.DecodeRun(b)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func shape(n *tree.Node) []string {
	var out []string
	n.Walk(func(x *tree.Node) { out = append(out, x.ID+" "+string(x.Status)) })
	return out
}

// TestRunEndToEnd drives "debate run" against the fake API: the tree's shape,
// statuses and ids, 7 calls per node for 3 debaters, the files written, the
// exit code, and that the key never reaches any output.
func TestRunEndToEnd(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 3, "")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "--config", cfgPath)
	if r.code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	outDir := filepath.Join(filepath.Dir(cfgPath), "out")
	files := strings.Fields(r.stdout)
	for _, want := range []string{"run.json", "summary.md", "summary.html", "topic-t1-root-question.md", "topic-t1-root-question.html"} {
		if !slices.Contains(files, filepath.Join(outDir, want)) {
			t.Errorf("stdout does not list %s:\n%s", want, r.stdout)
		}
	}
	run := readRun(t, filepath.Join(outDir, "run.json"))
	root := run.Topics[0].Root
	if got, want := shape(root), []string{"root split", "d1 converged", "d2 split", "d2.1 forced"}; !slices.Equal(got, want) {
		t.Fatalf("tree %q, want %q", got, want)
	}
	if got := run.Topics[0].Status; got != tree.Forced {
		t.Errorf("topic status %s, want forced", got)
	}
	if v := root.Find("d2.1").Judgment.ForcedVerdicts; len(v) != 1 || v[0].DivergenceID != "d2.1.1" {
		t.Errorf("forced verdicts %+v, want one for d2.1.1", v)
	}
	if got := srv.Count(); got != 4*7 {
		t.Errorf("%d calls, want 28 (7 per node)", got)
	}
	if got := run.Topics[0].Usage.Calls; got != 28 {
		t.Errorf("run.json counts %d calls, want 28", got)
	}
	if !strings.Contains(string(run.Config), `"[redacted]"`) {
		t.Errorf("run.json config does not show the key as redacted: %s", run.Config)
	}
	assertNoKey(t, outDir, r)
}

// assertNoKey fails when the key appears in any written file or the output.
func assertNoKey(t *testing.T, dir string, r result) {
	t.Helper()
	if strings.Contains(r.stdout+r.stderr, testKey) {
		t.Error("the API key appears on stdout or stderr")
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, _ := os.ReadFile(path); strings.Contains(string(b), testKey) {
			t.Errorf("the API key appears in %s", path)
		}
		return nil
	})
}

// TestRunFailedNodeExitsOne: a judge that never answers JSON fails the root;
// the reports are still written and the exit code is 1.
func TestRunFailedNodeExitsOne(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t, scripted.WithDefault(scripted.Text("I have no JSON for you.")))
	cfgPath := writeConfig(t, srv, 2, "")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath)
	if r.code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitFailed, r.stderr)
	}
	outDir := filepath.Join(filepath.Dir(cfgPath), "out")
	run := readRun(t, filepath.Join(outDir, "run.json"))
	if root := run.Topics[0].Root; root.Status != tree.Failed || root.RawJudgment == "" {
		t.Errorf("root %s with raw judgment %q, want failed with the raw answer kept", root.Status, root.RawJudgment)
	}
	if _, err := os.Stat(filepath.Join(outDir, "topic-t1-root-question.md")); err != nil {
		t.Errorf("the failed topic's report was not written: %v", err)
	}
}

// TestRunOutputDash prints run JSON on stdout and writes no folder.
func TestRunOutputDash(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 1, "")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--output", "-")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	run, err := output.DecodeRun([]byte(r.stdout))
	if err != nil {
		t.Fatalf("stdout is not run JSON: %v\n%s", err, r.stdout)
	}
	if run.SchemaVersion != tree.SchemaVersion || len(run.Topics) != 1 || run.Topics[0].Status != tree.Forced {
		t.Errorf("unexpected run: version %d, %d topics", run.SchemaVersion, len(run.Topics))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfgPath), "out")); !os.IsNotExist(err) {
		t.Errorf("--output - created the output folder")
	}
}

// TestRunInterrupted: the first interrupt stops new calls, the reports are
// written with open nodes marked interrupted, and the exit code is 130.
func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t, scripted.WithLatency(200*time.Millisecond))
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 3, "")
	var out, errb strings.Builder
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) (string, bool) {
			if k == "TEST_API_KEY" {
				return testKey, true
			}
			return "", false
		},
		notify: func(c chan<- os.Signal) {
			go func() {
				// Interrupt once the first round's positions are in flight.
				for srv.Count() < 3 {
					time.Sleep(5 * time.Millisecond)
				}
				c <- syscall.SIGINT
			}()
		},
	}
	code := e.main([]string{"run", "-c", cfgPath})
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, errb.String())
	}
	run := readRun(t, filepath.Join(filepath.Dir(cfgPath), "out", "run.json"))
	if got := run.Topics[0].Status; got != tree.Interrupted {
		t.Errorf("topic status %s, want interrupted", got)
	}
	if got := run.Topics[0].Root.Status; got != tree.Interrupted {
		t.Errorf("root status %s, want interrupted", got)
	}
	if n := srv.Count(); n > 3 {
		t.Errorf("%d calls were made; none should start after the interrupt", n)
	}
	if !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", errb.String())
	}
	if want := "debate run --config " + shellQuote(cfgPath) + " --resume"; !strings.Contains(errb.String(), want) {
		t.Errorf("the interrupt message does not say how to resume (%q):\n%s", want, errb.String())
	}
}

// TestRunRawResponses: with includeRawResponses every request and response
// lands under raw/ as JSON, numbered, with the key nowhere in them.
func TestRunRawResponses(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	// Debaters' answers echo the Authorization header: the key must still
	// reach no file.
	srv.On(func(c scripted.Call) bool { return c.Model != "m-judge" },
		func(c scripted.Call) scripted.Reply {
			return scripted.Reply{Text: "My position.", EchoAuthorization: true}
		})
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 1, "")
	b, _ := os.ReadFile(cfgPath)
	cfg := strings.Replace(string(b), `"output": {"dir": "out",`, `"output": {"dir": "out", "includeRawResponses": true,`, 1)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	out := filepath.Join(filepath.Dir(cfgPath), "out")
	entries, err := os.ReadDir(filepath.Join(out, "raw"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != srv.Count() {
		t.Errorf("%d raw files for %d requests", len(entries), srv.Count())
	}
	redacted := 0
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(out, "raw", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), "[REDACTED]") {
			redacted++
		}
		var x struct {
			Topic, Node, Step, Participant string
			Attempt                        int
			Request                        json.RawMessage `json:"request"`
			Response                       json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal(body, &x); err != nil || x.Participant == "" || len(x.Request) == 0 || len(x.Response) == 0 {
			t.Errorf("%s: %v, %+v", e.Name(), err, x)
		}
		// The name says what the call was for, as the body does.
		if x.Topic != "t1" || x.Node == "" || x.Step == "" || x.Attempt < 1 {
			t.Errorf("%s: topic %q node %q step %q attempt %d", e.Name(), x.Topic, x.Node, x.Step, x.Attempt)
		}
		want := fmt.Sprintf("-t1-%s-%s-%s-attempt%d.json", output.Slug(x.Node), x.Step, x.Participant, x.Attempt)
		if len(e.Name()) != 4+len(want) || !strings.HasSuffix(e.Name(), want) {
			t.Errorf("raw file %s, want NNNN%s", e.Name(), want)
		}
	}
	if redacted == 0 {
		t.Error("no raw file shows the echoed key redacted: the check above proves nothing")
	}
	assertNoKey(t, out, r)
}

// TestRunTopicList: --topic takes a comma-separated list like --format, and
// an unknown id in it is a usage error naming the known ones.
func TestRunTopicList(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Second"}, {"id": "t3", "title": "Third"}`)
	vars := map[string]string{"TEST_API_KEY": testKey}
	r := invoke(t, vars, "run", "-c", cfgPath, "--topic", "t1,t3")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	run := readRun(t, filepath.Join(filepath.Dir(cfgPath), "out", "run.json"))
	var ids []string
	for _, tp := range run.Topics {
		ids = append(ids, tp.ID)
	}
	if !slices.Equal(ids, []string{"t1", "t3"}) {
		t.Errorf("topics run: %q, want t1 and t3", ids)
	}
	bad := invoke(t, vars, "run", "-c", cfgPath, "--topic", "t1,nope")
	if bad.code != exitUsage || !strings.Contains(bad.stderr, `--topic "nope"`) || !strings.Contains(bad.stderr, "t1, t2, t3") {
		t.Errorf("unknown id in a list: exit %d\n%s", bad.code, bad.stderr)
	}
}

func TestQuantity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0 tokens"},
		{1, "1 token"},
		{999, "999 tokens"},
		{1000, "1,000 tokens"},
		{41230, "41,230 tokens"},
		{1234567, "1,234,567 tokens"},
	} {
		if got := quantity(tc.n, "token", "tokens"); got != tc.want {
			t.Errorf("quantity(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
