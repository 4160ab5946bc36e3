package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/ghrunner"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// TestWorkflows runs action.yml and every example workflow as GitHub's
// runner would (see runner), with debate built once from this checkout.
func TestWorkflows(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds debate")
	}
	bin := filepath.Join(t.TempDir(), "debate")
	if b, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	for name, test := range map[string]func(*testing.T, string){
		"action": testActionSteps, "report": testExampleReport, "pull request": testExamplePullRequest, "sharded": testExampleSharded,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, bin)
		})
	}
}

// testActionSteps runs action.yml's steps as a runner would: a demo run of
// the example config with fail-on "decided" writes its reports, uploads
// them, sets the outputs and fails the job with exit 8.
func testActionSteps(t *testing.T, bin string) {
	r := newRunner(t, bin, nil)
	r.summary = filepath.Join(r.temp, "summary.md")
	if err := os.CopyFS(filepath.Join(r.work, "configs"), os.DirFS(filepath.Join(r.root, "configs", "examples"))); err != nil {
		t.Fatal(err)
	}
	s := &scope{steps: map[string]map[string]string{}}
	ok := r.steps([]actionStep{{ID: "debate", Uses: "./", With: map[string]string{
		"config": "configs/minimal.jsonc", "args": "--demo --format markdown,junit", "fail-on": "decided"}}}, s)
	got := s.steps["debate"]
	if ok || got["exit-code"] != "8" {
		t.Errorf("the step succeeded (%v) with exit-code %q, want a failure with 8 (a decision in fail-on)\n%s", ok, got["exit-code"], r.log.String())
	}
	if got["decision-counts"] != `{"agreed":0,"decided":1,"split":0,"undecided":0}` || got["failed-topics"] != "cache-invalidation" {
		t.Errorf("outputs %v", got)
	}
	for _, f := range []string{"summary.md", "junit.xml", "run.json"} {
		if _, err := os.Stat(filepath.Join(r.artifacts, "debate-output", f)); err != nil {
			t.Errorf("the uploaded artifact holds no %s: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(r.summary); !strings.HasPrefix(string(b), "### debate: 1 decided\n") {
		t.Errorf("job summary:\n%s", b)
	}
}

// readOutputs reads a step's GITHUB_OUTPUT file as the runner does.
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return ghrunner.Outputs(string(b))
}

// exampleConfig writes debate.jsonc into the runner's workspace: topics
// extra beside t1, every model served by srv, the key read from
// DEBATE_API_KEY as the examples say.
func exampleConfig(t *testing.T, r *runner, srv *providertest.Server, extra string) {
	t.Helper()
	b, err := os.ReadFile(writeConfig(t, srv, 1, extra))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(b), "${TEST_API_KEY}", "${DEBATE_API_KEY}", 1)
	if err := os.WriteFile(filepath.Join(r.work, "debate.jsonc"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testExampleReport: the report workflow runs the debates, uploads the
// reports and succeeds when no decision is in fail-on; run again on an
// unchanged config, it restores the call cache and makes no call, with no
// seed set anywhere.
func testExampleReport(t *testing.T, bin string) {
	srv := providertest.New(t)
	scriptJudges(srv)
	r := newRunner(t, bin, map[string]string{"DEBATE_API_KEY": testKey})
	exampleConfig(t, r, srv, "")
	if jobs := r.workflow("debate-report.yml"); !jobs["debate"] {
		t.Fatalf("the job failed (exit codes %q):\n%s", r.exitCodes, r.log.String())
	}
	if _, err := os.Stat(filepath.Join(r.artifacts, "debate-output", "junit.xml")); err != nil {
		t.Errorf("no junit.xml uploaded: %v", err)
	}
	calls := srv.Count()
	if calls == 0 {
		t.Fatal("the first run made no call")
	}
	os.RemoveAll(filepath.Join(r.work, ".debate-cache")) // a new runner's workspace
	if jobs := r.workflow("debate-report.yml"); !jobs["debate"] || srv.Count() != calls {
		t.Errorf("the second run: job ok %v, %d calls more, want none\n%s", jobs["debate"], srv.Count()-calls, r.log.String())
	}
	// Without a seed in the config or the workflow: each topic drew from
	// its own, derived from the topic.
	run := readRun(t, filepath.Join(r.artifacts, "debate-output", "run.json"))
	if run.Seed != nil || len(run.Topics) != 1 || run.Topics[0].Seed == 0 || run.Cache == nil || run.Cache.Fresh != 0 {
		t.Errorf("the second run: a run seed %v, topics %d, cache %+v; want no run seed, the topic's own, no fresh call", run.Seed != nil, len(run.Topics), run.Cache)
	}
}

// testExamplePullRequest: the pull-request workflow lints the config
// without the key and runs nothing (a fork's pull request), flags a bad
// config on its line, and with the key runs the debates and fails the
// check on a decision in fail-on.
func testExamplePullRequest(t *testing.T, bin string) {
	srv := providertest.New(t)
	scriptJudges(srv)

	fork := newRunner(t, bin, nil)
	exampleConfig(t, fork, srv, "")
	if jobs := fork.workflow("debate-pr.yml"); !jobs["debate"] || srv.Count() != 0 || !strings.Contains(fork.log.String(), "the debates were not run") {
		t.Errorf("without the key: job ok %v, %d calls; want the lint alone to pass\n%s", jobs["debate"], srv.Count(), fork.log.String())
	}

	bad := newRunner(t, bin, nil)
	exampleConfig(t, bad, srv, `, {"id": "t 2", "title": "Bad id"}`)
	jobs := bad.workflow("debate-pr.yml")
	cmds := ghrunner.Commands(bad.log.String())
	if jobs["debate"] || len(cmds) == 0 || cmds[0].Name != "error" || cmds[0].Properties["file"] != "debate.jsonc" || cmds[0].Properties["line"] == "" {
		t.Errorf("a bad config: job ok %v, annotations %+v; want an error on debate.jsonc's line\n%s", jobs["debate"], cmds, bad.log.String())
	}

	member := newRunner(t, bin, map[string]string{"DEBATE_API_KEY": testKey})
	exampleConfig(t, member, srv, "")
	if jobs := member.workflow("debate-pr.yml"); !jobs["debate"] || srv.Count() == 0 {
		t.Errorf("with the key: job ok %v after %d calls, want a run that passes\n%s", jobs["debate"], srv.Count(), member.log.String())
	}

	// A topic whose debaters all fail is undecided: in fail-on, it fails
	// the check.
	srv.When("Broken", scripted.Status(500, "down"))
	gated := newRunner(t, bin, map[string]string{"DEBATE_API_KEY": testKey})
	exampleConfig(t, gated, srv, `, {"id": "t2", "title": "Broken question"}`)
	if jobs := gated.workflow("debate-pr.yml"); jobs["debate"] || !slices.Contains(gated.exitCodes, "8") {
		t.Errorf("an undecided topic: job ok %v, exit codes %q; want the check failed with 8\n%s", jobs["debate"], gated.exitCodes, gated.log.String())
	}
}

// testExampleSharded: the sharded workflow runs four slices, each
// uploading its folder, and merges them into one report with every topic.
func testExampleSharded(t *testing.T, bin string) {
	srv := providertest.New(t)
	scriptJudges(srv)
	r := newRunner(t, bin, map[string]string{"DEBATE_API_KEY": testKey})
	exampleConfig(t, r, srv, `, {"id": "t2", "title": "Second"}, {"id": "t3", "title": "Third"}`)
	jobs := r.workflow("debate-sharded.yml")
	if !jobs["shard"] || !jobs["merge"] {
		t.Fatalf("jobs %v (exit codes %q)\n%s", jobs, r.exitCodes, r.log.String())
	}
	run := readRun(t, filepath.Join(r.artifacts, "debate-output", "run.json"))
	if len(run.Topics) != 3 || run.Shard != nil {
		t.Errorf("the merged run has %d topics and shard %v, want 3 and none", len(run.Topics), run.Shard)
	}
	if b, _ := os.ReadFile(r.summary); !strings.HasPrefix(string(b), "### debate: ") {
		t.Errorf("merge's job summary:\n%s", b)
	}
}
