package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/journal"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestHelperRun is not a test: it is the body of the child process that
// TestRunResumeAfterKill starts and kills.
func TestHelperRun(t *testing.T) {
	raw := os.Getenv("DEBATE_HELPER_ARGS")
	if raw == "" {
		t.Skip("runs only as a child process")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		t.Fatal(err)
	}
	os.Exit(Main(args, os.Stdin, os.Stdout, os.Stderr))
}

// helperProcess returns a command running the program with args in a child
// process (the test binary's TestHelperRun), for servers started in the
// background.
func helperProcess(args []string) *exec.Cmd {
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRun$")
	cmd.Env = append(os.Environ(), "DEBATE_HELPER_ARGS="+string(b))
	return cmd
}

// TestRunResumeAfterKill: a run killed with SIGKILL part-way and resumed with
// --resume repeats no call it had completed, makes every missing one, and
// ends with the same debate as a run that was never stopped.
func TestRunResumeAfterKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	srv := providertest.New(t, scripted.WithLatency(30*time.Millisecond))
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 3, `, {"id": "t2", "title": "Second question"}`)
	vars := map[string]string{"TEST_API_KEY": testKey}
	base := filepath.Dir(cfgPath)

	whole := invoke(t, vars, "run", "-c", cfgPath, "--output", filepath.Join(base, "whole"))
	if whole.code != exitOK {
		t.Fatalf("uninterrupted run: exit %d\n%s", whole.code, whole.stderr)
	}
	total := srv.Count()

	// The run to kill, in a child process.
	killed := filepath.Join(base, "killed")
	cmd := helperProcess([]string{"run", "-c", cfgPath, "--output", killed})
	cmd.Env = append(cmd.Env, "TEST_API_KEY="+testKey)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for srv.Count() < total+total/2 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(killed, "run.json")); err == nil {
		t.Fatal("the child finished before it was killed; the test needs a partial run")
	}

	j, err := journal.Open(context.Background(), filepath.Join(killed, batch.JournalFile), false)
	if err != nil {
		t.Fatal(err)
	}
	done, err := j.Len(context.Background())
	j.Close()
	if err != nil || done == 0 || done >= total {
		t.Fatalf("the killed run journaled %d of %d calls (%v); the test needs a partial run", done, total, err)
	}

	before := srv.Count()
	resumed := invoke(t, vars, "run", "-c", cfgPath, "--output", killed, "--resume")
	if resumed.code != exitOK {
		t.Fatalf("resumed run: exit %d\n%s", resumed.code, resumed.stderr)
	}
	if made := srv.Count() - before; made != total-done {
		t.Errorf("the resumed run made %d calls; want %d (%d in all, %d completed before the kill)", made, total-done, total, done)
	}
	if !strings.Contains(resumed.stderr, "resuming") {
		t.Errorf("the resumed run does not say it resumes:\n%s", resumed.stderr)
	}
	a, b := readRun(t, filepath.Join(base, "whole", "run.json")), readRun(t, filepath.Join(killed, "run.json"))
	for i := range a.Topics {
		// Times differ between any two runs; everything else must not.
		a.Topics[i].StartedAt, a.Topics[i].FinishedAt = b.Topics[i].StartedAt, b.Topics[i].FinishedAt
		x, _ := json.Marshal(a.Topics[i])
		y, _ := json.Marshal(b.Topics[i])
		if string(x) != string(y) {
			t.Errorf("topic %s after resuming differs from the uninterrupted run", a.Topics[i].ID)
		}
	}
}

// TestRunWithoutResumeStartsAfresh: a plain run ignores an earlier journal.
func TestRunWithoutResumeStartsAfresh(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, "")
	vars := map[string]string{"TEST_API_KEY": testKey}
	for i, args := range [][]string{{}, {}, {"--resume"}} {
		before := srv.Count()
		r := invoke(t, vars, append([]string{"run", "-c", cfgPath}, args...)...)
		if r.code != exitOK {
			t.Fatalf("run %d: exit %d\n%s", i, r.code, r.stderr)
		}
		made := srv.Count() - before
		switch {
		case i < 2 && made == 0:
			t.Errorf("run %d without --resume made no call", i)
		case i == 2 && made != 0:
			t.Errorf("--resume after a complete run made %d calls, want 0", made)
		}
	}
	if r := invoke(t, vars, "run", "-c", cfgPath, "--resume", "--output", "-"); r.code != exitUsage {
		t.Errorf("--resume with --output - exit %d, want %d", r.code, exitUsage)
	}
}

// TestRunKeepsUnfinishedJournal: a run without --resume over the journal of
// a run that never finished says it starts afresh and keeps that journal
// beside the new one; over the journal of a finished run it says nothing.
func TestRunKeepsUnfinishedJournal(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writeConfig(t, srv, 2, "")
	out := filepath.Join(filepath.Dir(cfgPath), "out")
	j, err := journal.Open(context.Background(), filepath.Join(out, batch.JournalFile), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"call-1", "call-2"} {
		if err := j.Record(context.Background(), k, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()

	vars := map[string]string{"TEST_API_KEY": testKey}
	r := invoke(t, vars, "run", "-c", cfgPath)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "unfinished run (2 completed calls)") || !strings.Contains(r.stderr, "starts afresh") {
		t.Errorf("the run does not say it starts afresh over an unfinished journal:\n%s", r.stderr)
	}
	kept, _ := filepath.Glob(filepath.Join(out, ".debate-journal.*.db"))
	if len(kept) != 1 {
		t.Fatalf("kept journals: %q, want one", kept)
	}
	old, err := journal.Open(context.Background(), kept[0], false)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := old.Len(context.Background()); n != 2 {
		t.Errorf("the kept journal holds %d calls, want 2", n)
	}
	old.Close()

	again := invoke(t, vars, "run", "-c", cfgPath)
	if again.code != exitOK || strings.Contains(again.stderr, "starts afresh") {
		t.Errorf("a run after a finished one: exit %d, says:\n%s", again.code, again.stderr)
	}
}

// TestRunShardResumeCommand: a --shard 1/2 run interrupted by Ctrl-C prints
// a resume command that keeps every flag that changes what runs; run as
// printed, it plays that shard's topics alone, reuses the calls completed
// before the interrupt, and finishes.
func TestRunShardResumeCommand(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t, scripted.WithLatency(20*time.Millisecond))
	scriptJudges(srv)
	var extra string
	for _, id := range []string{"t2", "t3", "t4"} {
		extra += `, {"id": "` + id + `", "title": "Question ` + id + `"}`
	}
	cfgPath := writeConfig(t, srv, 2, extra)
	out := filepath.Join(filepath.Dir(cfgPath), "shard-1")
	vars := map[string]string{"TEST_API_KEY": testKey}

	// The first judge call interrupts the run: one topic's positions and
	// rebuttals are journaled by then, no judgment is.
	var armed atomic.Bool
	armed.Store(true)
	sigs := make(chan chan<- os.Signal, 1)
	srv.On(func(c scripted.Call) bool { return c.Model == "m-judge" && armed.Load() },
		func(scripted.Call) scripted.Reply {
			if armed.CompareAndSwap(true, false) {
				(<-sigs) <- syscall.SIGINT
			}
			return triage()
		})
	var stdout, stderr strings.Builder
	e := &env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: call{vars: vars}.getenv,
		notify: func(c chan<- os.Signal) { sigs <- c },
	}
	args := []string{"run", "-c", cfgPath, "--shard", "1/2", "--output", out, "--format", "markdown",
		"--concurrency", "2", "--max-rounds", "1", "--seed", "7", "--topic", "t1,t2,t3"}
	if code := e.main(args); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
	}
	interrupted := readRun(t, filepath.Join(out, "run.json"))
	var mine []string
	for _, tp := range interrupted.Topics {
		mine = append(mine, tp.ID)
	}
	if len(mine) != 2 {
		t.Fatalf("shard 1/2 of three topics played %v", mine)
	}

	printed := resumeLine(t, stderr.String())
	for _, flag := range []string{"--shard 1/2", "--format markdown", "--concurrency 2", "--max-rounds 1", "--seed 7", "--topic t1 --topic t2 --topic t3", "--output " + out} {
		if !strings.Contains(printed, flag) {
			t.Errorf("the resume command drops %q: %s", flag, printed)
		}
	}
	calls := srv.Count()
	resumed := invoke(t, vars, strings.Fields(printed)[1:]...)
	if resumed.code != exitOK {
		t.Fatalf("%s: exit %d\n%s", printed, resumed.code, resumed.stderr)
	}
	run := readRun(t, filepath.Join(out, "run.json"))
	var ids []string
	for _, tp := range run.Topics {
		ids = append(ids, tp.ID)
		if tp.Status == tree.Interrupted || tp.Status == tree.Failed {
			t.Errorf("topic %s ended %s after the resume", tp.ID, tp.Status)
		}
	}
	if !slices.Equal(ids, mine) || run.Shard == nil || run.Shard.String() != "1/2" {
		t.Errorf("the resumed run played %v as shard %v, want %v as 1/2", ids, run.Shard, mine)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.html")); !os.IsNotExist(err) {
		t.Errorf("the resumed run wrote HTML though --format markdown was given: %v", err)
	}
	asked := 0
	for _, c := range srv.Calls()[calls:] {
		if c.Model != "m-judge" {
			asked++
		}
	}
	if whole := 2 * 2 * 3; asked >= whole {
		t.Errorf("the resumed run made %d debater calls, all %d of its topics: it reused none", asked, whole)
	}
	for _, c := range srv.Calls() {
		for _, id := range []string{"t2", "t3", "t4"} {
			if !slices.Contains(mine, id) && c.Contains("Question "+id) {
				t.Errorf("%s was asked about %s, which is not in shard 1/2", c.Model, id)
			}
		}
	}
}

// resumeLine returns the resume command printed in stderr: as the value of
// a log line's resume field, or on a line of its own on a terminal.
func resumeLine(t *testing.T, stderr string) string {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if _, field, ok := strings.Cut(line, ` resume="`); ok {
			line, _, _ = strings.Cut(field, `"`)
		}
		if strings.HasPrefix(line, "debate run ") && strings.HasSuffix(line, " --resume") {
			if strings.ContainsAny(line, `'\`) {
				t.Fatalf("the test cannot split a quoted command: %s", line)
			}
			return line
		}
	}
	t.Fatalf("no resume command in:\n%s", stderr)
	return ""
}
