package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/store"
	"github.com/debatehq/debate/tree"
)

// writeMotionConfig writes a config with one motion (and the topic of
// writeConfig when withTopic) pointing at the fake, and returns its path.
func writeMotionConfig(t *testing.T, srv *providertest.Server, arbitrator string, withTopic bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte("# Plan\n1. Retry with backoff.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	topics := ""
	if withTopic {
		topics = `
  "debaters": [{"id": "a", "model": "m-a"}, {"id": "b", "model": "m-b"}, {"id": "c", "model": "m-c"}],
  "reviewer": {"id": "judge", "model": "m-judge"},
  "params": {"maxRounds": 1, "synthesis": false, "blind": false},
  "topics": [{"id": "t1", "title": "Root question"}],`
	}
	cfg := `{
  "api": {"baseURL": "` + srv.URL() + `", "apiKey": "${TEST_API_KEY}", "maxRetries": 0, "timeout": 10000},` + topics + `
  "protocol": {
    "proposer": {"model": "m-proposer"},
    "opponent": {"model": "m-opponent"},
    "arbitrator": ` + arbitrator + `,
    "maxTurns": 1,
  },
  "motions": [{"id": "m1", "title": "Retry webhooks", "motion": "Adopt the plan.", "documents": ["plan.md"]}],
  "output": {"dir": "out", "format": ["markdown", "html"]},
}`
	path := filepath.Join(dir, "debate.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func motionEnv(db string) map[string]string {
	return map[string]string{"TEST_API_KEY": testKey, "DEBATE_DB": db}
}

func kinds(m tree.Motion) []string {
	var out []string
	for _, a := range m.Arguments {
		out = append(out, a.Type+"/"+a.Role)
	}
	return out
}

func TestRunMotionEndToEnd(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	srv.Enqueue("m-opponent", scripted.Text("**C1**: retries duplicate deliveries."))
	srv.Enqueue("m-proposer", scripted.Fenced(map[string]string{"action": "appeal", "content": "Decide C1: 1. keys; 2. accept; 3. other."}))
	srv.Enqueue("m-arbitrator", scripted.Fenced(map[string]any{"close": false, "content": "Option 1."}))
	cfgPath := writeMotionConfig(t, srv, `{"model": "m-arbitrator"}`, true)
	db := testDB(t)
	r := invoke(t, motionEnv(db), "run", "--config", cfgPath)
	if r.code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	outDir := filepath.Join(filepath.Dir(cfgPath), "out")
	files := strings.Fields(r.stdout)
	for _, want := range []string{"motion-m1-retry-webhooks.md", "motion-m1-retry-webhooks.html", "topic-t1-root-question.md", "summary.md", "run.json"} {
		if !slices.Contains(files, filepath.Join(outDir, want)) {
			t.Errorf("stdout does not list %s:\n%s", want, r.stdout)
		}
	}
	run := readRun(t, filepath.Join(outDir, "run.json"))
	if len(run.Topics) != 1 || len(run.Motions) != 1 {
		t.Fatalf("%d topics, %d motions", len(run.Topics), len(run.Motions))
	}
	m := run.Motions[0]
	// maxTurns 1: the proposer's first reply is the last; the model's ruling closes.
	want := []string{"MOTION/proposer", "CLAIM/opponent", "APPEAL/proposer", "RULING/arbitrator"}
	if got := kinds(m); !slices.Equal(got, want) || m.State != "CLOSED" || m.Status != tree.Forced {
		t.Fatalf("motion %q, state %s, status %s (%s)", kinds(m), m.State, m.Status, m.StopReason)
	}
	if m.Usage.Calls != 3 || run.Usage.Calls != run.Topics[0].Usage.Calls+3 {
		t.Errorf("usage: motion %+v, run %+v", m.Usage, run.Usage)
	}
	// The debate lives in the shared database, where "debate serve" shows it.
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.Get(context.Background(), m.DebateID, -1)
	if err != nil || c.Debate.State != protocol.Closed || len(c.Arguments) != 3 {
		t.Errorf("database holds %+v, %v", c.Debate, err)
	}
	sum, err := os.ReadFile(filepath.Join(outDir, "summary.md"))
	if err != nil || !strings.Contains(string(sum), "## Motions") {
		t.Errorf("summary lacks the motions: %v", err)
	}
	assertNoKey(t, outDir, r)

	// A fresh run of the same config plays a new debate; --resume replays
	// the finished one without a call.
	calls := srv.Count()
	r = invoke(t, motionEnv(db), "run", "--config", cfgPath, "--topic", "m1", "--resume")
	if r.code != exitOK || srv.Count() != calls {
		t.Fatalf("resume: exit %d, %d new calls\n%s", r.code, srv.Count()-calls, r.stderr)
	}
	again := readRun(t, filepath.Join(outDir, "run.json"))
	if len(again.Topics) != 0 || len(again.Motions) != 1 || again.Motions[0].DebateID != m.DebateID || len(again.Motions[0].Arguments) != 4 {
		t.Fatalf("resumed run: %d topics, motions %+v", len(again.Topics), again.Motions)
	}
}

// TestRunMotionHumanResume stops a run that waits for a person's ruling,
// lets the person rule through the database, and resumes: the run continues
// the same debate, asks no model again, and still reports the reasoning of
// the arguments the first run wrote.
func TestRunMotionHumanResume(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Enqueue("m-opponent", scripted.Reasoned("Is the backoff capped?", "C1: no cap."))
	appeal := scripted.Fenced(map[string]string{"action": "appeal", "content": "Decide C1."})
	appeal.Reasoning = "Only a ruling settles C1."
	srv.Enqueue("m-proposer", appeal)
	cfgPath := writeMotionConfig(t, srv, `"human"`, false)
	db := testDB(t)
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	vars := motionEnv(db)
	var out strings.Builder
	errb := &testkit.Buffer{}
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: errb,
		getenv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		notify: func(c chan<- os.Signal) {
			waiting := errb.Appears(regexp.MustCompile("waiting for a human ruling"))
			go func() {
				// Ctrl-C once the run says it waits for the ruling.
				select {
				case <-waiting:
					c <- syscall.SIGINT
				case <-t.Context().Done():
				}
			}()
		},
	}
	if code := e.main([]string{"run", "-c", cfgPath}); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, errb.String())
	}
	if !strings.Contains(errb.String(), "debate ruling --debate-id") {
		t.Errorf("progress does not say how to rule:\n%s", errb.String())
	}
	outDir := filepath.Join(filepath.Dir(cfgPath), "out")
	m := readRun(t, filepath.Join(outDir, "run.json")).Motions[0]
	if m.Status != tree.Interrupted || m.State != string(protocol.AwaitingArbitrator) || len(m.Arguments) != 3 {
		t.Fatalf("interrupted motion: status %s, state %s, %d arguments", m.Status, m.State, len(m.Arguments))
	}

	// The person rules, as through "debate serve" on the same database.
	if _, err := st.Submit(context.Background(), protocol.Write{DebateID: m.DebateID, Type: protocol.Ruling, Role: protocol.Arbitrator,
		Content: "Cap at 6 h; closed.", Close: true}); err != nil {
		t.Fatal(err)
	}
	calls := srv.Count()
	r := invoke(t, vars, "run", "-c", cfgPath, "--resume")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\n%s", r.code, r.stderr)
	}
	m2 := readRun(t, filepath.Join(outDir, "run.json")).Motions[0]
	if m2.DebateID != m.DebateID || m2.Status != tree.Forced || len(m2.Arguments) != 4 || m2.Arguments[3].Content != "Cap at 6 h; closed." {
		t.Errorf("resumed motion: %s %s %q", m2.DebateID, m2.Status, kinds(m2))
	}
	if srv.Count() != calls {
		t.Errorf("the resumed run made %d calls, want none", srv.Count()-calls)
	}
	var reasoning []string
	for _, a := range m2.Arguments {
		reasoning = append(reasoning, a.Reasoning)
	}
	if want := []string{"", "Is the backoff capped?", "Only a ruling settles C1.", ""}; !slices.Equal(reasoning, want) {
		t.Errorf("reasoning after resuming %q, want %q", reasoning, want)
	}
}

func TestRunMotionSelection(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	cfgPath := writeMotionConfig(t, srv, `"human"`, true)
	r := invoke(t, motionEnv(filepath.Join(t.TempDir(), "d.db")), "run", "-c", cfgPath, "--topic", "nope")
	if r.code != exitUsage || !strings.Contains(r.stderr, "known ids: t1, m1") {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
	r = invoke(t, nil, "run", "-c", cfgPath, "--topic", "m1", "--dry-run")
	if r.code != exitOK || !strings.Contains(r.stdout, "MOTION m1: Retry webhooks") || strings.Contains(r.stdout, "TOPIC t1") {
		t.Errorf("dry run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if srv.Count() != 0 {
		t.Errorf("a dry run made %d calls", srv.Count())
	}
}
