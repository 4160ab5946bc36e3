package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/ghrunner"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

var githubLog = flag.String("github-log", "", "write the log of TestGitHubLogCarriesNoInjectedCommand to this file")

// TestGitHubLogCarriesNoInjectedCommand: on a runner, a run whose providers
// answer errors, refusals and texts made of workflow commands logs them (so
// a person sees what happened), yet the runner reads no command in its
// stdout or stderr but the run's own annotations, one per topic that is
// not settled, each whole.
func TestGitHubLogCarriesNoInjectedCommand(t *testing.T) {
	t.Parallel()
	hostile := strings.Join(ghrunner.Injections, "\n")
	srv := providertest.New(t)
	scriptJudges(srv)
	srv.ReplyTo("m-a", scripted.Status(400, hostile))
	srv.ReplyTo("m-b", scripted.Reply{FinishReason: "content_filter", Refusal: hostile})
	srv.ReplyTo("m-c", scripted.Status(503, hostile))
	srv.ReplyTo("m-c2", scripted.Text("Position: "+hostile))
	cfg := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Second ##[add-mask]question"}`)
	summary := filepath.Join(t.TempDir(), "summary.md")
	out := filepath.Join(t.TempDir(), "outputs")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey, "GITHUB_ACTIONS": "true", "CI": "true",
		"GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": out}, "run", "-c", cfg, "--verbose")
	if *githubLog != "" {
		os.WriteFile(*githubLog, []byte("== stdout\n"+r.stdout+"== stderr\n"+r.stderr), 0o644)
	}
	if r.code != exitFailed {
		t.Fatalf("exit %d, want 1 (the debaters failed)\n%s", r.code, r.stderr)
	}
	plain := strings.ReplaceAll(r.stderr, "\u200b", "")
	for _, quoted := range []string{"##[add-mask]X", "##[stop-commands]tok"} {
		if !strings.Contains(plain, quoted) {
			t.Errorf("the log does not quote %q: the test injects nothing\n%s", quoted, r.stderr)
		}
	}
	if cmds := ghrunner.Commands(r.stderr); len(cmds) != 0 {
		t.Errorf("the runner acts on %d commands from stderr: %+v", len(cmds), cmds)
	}
	run := readRun(t, filepath.Join(filepath.Dir(cfg), "out", "run.json"))
	var want []string
	for _, topic := range run.Topics {
		if topic.Cause != "" || topic.Decision == "split" {
			want = append(want, "debate: "+topic.ID+" "+topic.DecisionText())
		}
	}
	var got []string
	for _, c := range ghrunner.Commands(r.stdout) {
		if c.Name != "warning" && c.Name != "error" {
			t.Errorf("the runner acts on %s from stdout: %+v", c.Name, c)
		}
		got = append(got, c.Properties["title"])
	}
	if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("annotations %q, want %q\nstdout:\n%s", got, want, r.stdout)
	}
}

// TestMergeRefusesHostileIDs: a shard's run.json whose topic id holds line
// breaks and workflow commands is refused, naming the folder and the id;
// nothing reaches $GITHUB_OUTPUT and the runner reads no command.
func TestMergeRefusesHostileIDs(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfg := writeConfig(t, srv, 1, `, {"id": "t2", "title": "Second"}`)
	work := t.TempDir()
	var dirs []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(work, fmt.Sprintf("s%d", i))
		if r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", dir, "--shard", fmt.Sprintf("%d/2", i)); r.code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s", i, r.code, r.stderr)
		}
		dirs = append(dirs, dir)
	}
	runJSON := filepath.Join(dirs[0], "run.json")
	b, err := os.ReadFile(runJSON)
	if err != nil {
		t.Fatal(err)
	}
	hostile := `t1\n::error::X\ndecision-counts={}`
	at := strings.LastIndex(string(b), `"id": "t1"`) // the topic's, after the config's
	if at < 0 {
		t.Fatalf("run.json has no topic id t1 to replace:\n%s", b)
	}
	b = []byte(string(b[:at]) + `"id": "` + hostile + `"` + string(b[at+len(`"id": "t1"`):]))
	if err := os.WriteFile(runJSON, b, 0o644); err != nil {
		t.Fatal(err)
	}
	outputs := filepath.Join(work, "outputs")
	r := invoke(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputs},
		append([]string{"merge", "-o", filepath.Join(work, "merged")}, dirs...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, dirs[0]+": run.json: the id") {
		t.Errorf("exit %d, want 2 naming %s and the id\n%s", r.code, dirs[0], r.stderr)
	}
	if cmds := ghrunner.Commands(r.stdout + r.stderr); len(cmds) != 0 {
		t.Errorf("the runner acts on %+v", cmds)
	}
	if b, err := os.ReadFile(outputs); err == nil {
		t.Errorf("a refused merge set outputs:\n%s", b)
	}
}

// TestValidateWithoutEnvironment: --no-env checks a config whose key
// variable is unset (a pull request from a fork) and names the variable;
// without it the same config fails. On a runner, a config's problems are
// errors on the config's lines and a section of the job summary.
func TestValidateWithoutEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonc")
	bad := filepath.Join(dir, "bad.jsonc")
	body := `{"api": {"baseURL": "http://127.0.0.1:1/v1", "apiKey": "${DEBATE_API_KEY}"},
"debaters": [{"id": "a", "model": "m-a"}, {"id": "b", "model": "m-b"}],
"reviewer": {"id": "j", "model": "m-j"},
"topics": [{"id": "t", "title": "T"}]}`
	os.WriteFile(good, []byte(body), 0o644)
	os.WriteFile(bad, []byte(strings.Replace(body, `"model": "m-b"`, `"model": ""`, 1)), 0o644)

	if r := invoke(t, nil, "validate", "-c", good); r.code != exitUsage || !strings.Contains(r.stderr, "DEBATE_API_KEY is not set") {
		t.Errorf("without the variable: exit %d, want 2\n%s", r.code, r.stderr)
	}
	r := invoke(t, nil, "validate", "-c", good, "--no-env")
	if r.code != exitOK || !strings.Contains(r.stdout, "not read (--no-env): DEBATE_API_KEY") {
		t.Errorf("--no-env: exit %d, want 0 naming the variable\n%s%s", r.code, r.stdout, r.stderr)
	}

	summary := filepath.Join(dir, "summary.md")
	r = invoke(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary}, "validate", "-c", bad, "--no-env")
	if r.code != exitUsage {
		t.Fatalf("a bad config: exit %d, want 2\n%s", r.code, r.stderr)
	}
	cmds := ghrunner.Commands(r.stdout + r.stderr)
	if len(cmds) != 1 || cmds[0].Name != "error" || cmds[0].Properties["file"] != bad || cmds[0].Properties["line"] != "2" ||
		cmds[0].Properties["col"] == "" || !strings.Contains(cmds[0].Data, `add a "model" field`) {
		t.Errorf("annotations %+v, want one error at %s line 2", cmds, bad)
	}
	if b, _ := os.ReadFile(summary); !strings.Contains(string(b), "1 problem in the config") || !strings.Contains(string(b), "debaters[1].model") {
		t.Errorf("job summary:\n%s", b)
	}
}

// TestMaxCostFlag: --max-cost sets budget.maxCost for the run (here the cap
// --strict-budget checks the worst case against), and a negative one is
// refused, naming the flag.
func TestMaxCostFlag(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writePricedConfig(t, srv, 2, "")
	vars := map[string]string{"TEST_API_KEY": testKey}
	if r := invoke(t, vars, "run", "-c", cfgPath, "--strict-budget", "--max-cost", "0.001"); r.code != exitUsage || !strings.Contains(r.stderr, "exceeds budget.maxCost 0.001") {
		t.Errorf("--max-cost 0.001: exit %d\n%s", r.code, r.stderr)
	}
	if r := invoke(t, vars, "run", "-c", cfgPath, "--max-cost", "-1"); r.code != exitUsage || !strings.Contains(r.stderr, "--max-cost must be 0 (no cap) or more") {
		t.Errorf("--max-cost -1: exit %d\n%s", r.code, r.stderr)
	}
	if srv.Count() != 0 {
		t.Errorf("%d calls made by refused runs", srv.Count())
	}
}
