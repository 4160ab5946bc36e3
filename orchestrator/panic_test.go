package orchestrator

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestPanicFailsOnlyItsNode: a panic in the work of one node (here in one
// debater's call at d1 of t1, inside the step's fan-out) fails that node
// with the panic's message; its siblings, the other topic and every report
// are complete, and the run is not finished, which `debate run` turns into
// exit code 1.
func TestPanicFailsOnlyItsNode(t *testing.T) {
	s := &script{judge: map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
	}, words: 5}
	c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		if r.Participant == "party-b" && nodeOf(r) == "d1" && r.Origin.Topic == "t1" {
			var m map[string]int
			//lint:ignore SA5000 the nil map write is the bug this test plants
			m["boom"]++
		}
		return s.answer(ctx, r)
	})
	run, err := english(testConfig(2, "t1", "t2"), c, promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t1, t2 := run.Topics[0], run.Topics[1]
	if got, want := shape(t1.Root), []string{"root split", "d1 failed", "d2 converged"}; !slices.Equal(got, want) {
		t.Errorf("t1 shape %q, want %q", got, want)
	}
	d1 := t1.Root.Find("d1")
	const msg = "panic: assignment to entry in nil map"
	if d1.StopReason != msg || len(d1.Errors) != 1 || d1.Errors[0].Message != msg {
		t.Errorf("d1 stop reason %q, errors %+v; want the panic's message", d1.StopReason, d1.Errors)
	}
	if t1.Status != tree.Failed {
		t.Errorf("t1 %s, want failed", t1.Status)
	}
	if got, want := shape(t2.Root), []string{"root split", "d1 converged", "d2 converged"}; !slices.Equal(got, want) || t2.Status != tree.Converged {
		t.Errorf("t2 %s, shape %q, want converged %q", t2.Status, got, want)
	}
	if run.Finished() {
		t.Error("the run counts as finished: debate run would exit 0")
	}
	dir := t.TempDir()
	files, err := output.Write(dir, run, output.Options{Formats: []string{"markdown", "html"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"summary.md", "run.json", "summary.html"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("%s not written: %v (files %v)", want, err, files)
		}
	}
	for _, id := range []string{"t1", "t2"} {
		if m, _ := filepath.Glob(filepath.Join(dir, "topic-"+id+"-*.md")); len(m) != 1 {
			t.Errorf("report of %s: %v", id, m)
		}
	}
	report, _ := filepath.Glob(filepath.Join(dir, "topic-t1-*.md"))
	if b, _ := os.ReadFile(report[0]); !strings.Contains(string(b), msg) {
		t.Errorf("t1's report does not say why d1 failed")
	}
}

// TestPanicOutsideNodesFailsOnlyItsTopic: a panic in a topic's own work
// outside its nodes (here the consumer of its events, on t1's root) fails
// that topic; the other topic is complete, and both topics' ends are
// announced, so that a progress display shows each one finished.
func TestPanicOutsideNodesFailsOnlyItsTopic(t *testing.T) {
	s := &script{judge: map[string][]string{}, words: 5}
	var mu sync.Mutex
	finished := map[string]tree.Status{}
	events := func(ev tree.Event) {
		if ev.Kind == tree.NodeStarted && ev.Topic == "t1" && ev.Node == tree.RootID {
			panic("progress display bug")
		}
		if ev.Kind == tree.TopicFinished {
			mu.Lock()
			finished[ev.Topic] = ev.Status
			mu.Unlock()
		}
	}
	run, err := english(testConfig(2, "t1", "t2"), completer(s.answer), promptSet(t), Options{Events: events}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if t1 := run.Topics[0]; t1.Status != tree.Failed || t1.Root.StopReason != "panic: progress display bug" {
		t.Errorf("t1 %s (%q), want failed with the panic's message", t1.Status, t1.Root.StopReason)
	}
	if t2 := run.Topics[1]; t2.Status != tree.Converged {
		t.Errorf("t2 %s, want converged", t2.Status)
	}
	if want := map[string]tree.Status{"t1": tree.Failed, "t2": tree.Converged}; !maps.Equal(finished, want) {
		t.Errorf("finished topics announced: %v, want %v", finished, want)
	}
}

// panickyRoles builds role prompts, but panics for the opponent of one
// motion.
type panickyRoles struct {
	*prompts.Roles
	title string
}

func (p panickyRoles) Opponent(t prompts.Turn) ([]prompts.Message, error) {
	if t.Title == p.title {
		panic("opponent prompt of " + t.Title)
	}
	return p.Roles.Opponent(t)
}

// TestPanicFailsOnlyItsMotion: a panic while one motion is played fails
// that motion with the panic's message; the other motion closes normally.
func TestPanicFailsOnlyItsMotion(t *testing.T) {
	cfg := motionConfig(12, false)
	second := cfg.Motions[0]
	second.ID, second.Title = "m2", "Second motion"
	cfg.Motions = append(cfg.Motions, second)
	r := newMotionRig(t, cfg)
	r.srv.Script(func(c scripted.Call) scripted.Reply {
		if c.Model == modelP {
			return propose("resolution", "All settled.")
		}
		return scripted.Text("C1: nothing else.")
	})
	client, err := providers.New(cfg, providers.Options{HTTPClient: r.srv.HTTPClient(), Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := english(cfg, client, promptSet(t), Options{}).RunMotions(context.Background(),
		MotionOptions{Store: r.st, Roles: panickyRoles{Roles: rolePrompts(t), title: "Retry webhooks"}, RunID: "run1"})
	if err != nil {
		t.Fatal(err)
	}
	const msg = "panic: opponent prompt of Retry webhooks"
	if m := ms[0]; m.Status != tree.Failed || m.StopReason != msg || len(m.Errors) != 1 || m.Errors[0].Message != msg {
		t.Errorf("m1: %s (%s), errors %+v; want failed with the panic's message", m.Status, m.StopReason, m.Errors)
	}
	if m := ms[0]; len(m.Arguments) != 1 || m.Arguments[0].Type != "MOTION" {
		t.Errorf("m1 arguments %+v, want the MOTION the database holds", m.Arguments)
	}
	if m := ms[1]; m.Status != tree.Converged {
		t.Errorf("m2: %s (%s), want converged", m.Status, m.StopReason)
	}
}
