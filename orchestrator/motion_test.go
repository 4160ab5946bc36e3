package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/store"
	"github.com/debatehq/debate/tree"
)

// The models of the protocol roles in these tests.
const (
	modelP = "model-proposer"
	modelO = "model-opponent"
	modelX = "model-arbitrator"
)

func motionConfig(maxTurns int, human bool) *configs.Config {
	cfg := &configs.Config{
		Fallback: configs.Fallback{MaxConsecutiveFailures: 1},
		Protocol: &configs.Protocol{
			Proposer:   &configs.Participant{ID: configs.ProposerID, Label: "Proposer", Model: modelP},
			Opponent:   &configs.Participant{ID: configs.OpponentID, Label: "Opponent", Model: modelO},
			Arbitrator: &configs.Arbitrator{ID: configs.ArbitratorID, Label: "Arbitrator", Model: modelX},
			MaxTurns:   maxTurns, DebateType: "coding_plan_debate",
		},
		Motions: []configs.Motion{{
			ID: "m1", Title: "Retry webhooks", Motion: "Adopt the retry plan.",
			Documents: []string{"plan.md"}, Docs: []configs.Document{{Path: "plan.md", Content: "# Plan\n1. Retry with backoff."}},
		}},
	}
	if human {
		cfg.Protocol.Arbitrator = &configs.Arbitrator{Human: true}
	}
	return cfg
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func rolePrompts(t *testing.T) *prompts.Roles {
	t.Helper()
	r, err := prompts.NewRoles("en", "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// motionRig plays motions through the real providers client against the
// providertest fake, with scripted answers queued per role model.
type motionRig struct {
	t   *testing.T
	cfg *configs.Config
	srv *providertest.Server
	st  *store.Store
	ev  *recorder
	// journal, when set, is the run's journal (nil: none).
	journal Notebook
}

func newMotionRig(t *testing.T, cfg *configs.Config) *motionRig {
	srv := providertest.New(t, scripted.WithDefault(scripted.Status(500, "no scripted answer left")))
	noRetries := 0
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret", MaxRetries: &noRetries, Timeout: 10_000}
	return &motionRig{t: t, cfg: cfg, srv: srv, st: openStore(t), ev: &recorder{}}
}

func (r *motionRig) play(ctx context.Context, runID string) ([]tree.Motion, error) {
	r.t.Helper()
	client, err := providers.New(r.cfg, providers.Options{HTTPClient: r.srv.HTTPClient(), Concurrency: 4})
	if err != nil {
		r.t.Fatal(err)
	}
	e := english(r.cfg, client, promptSet(r.t), Options{Events: r.ev.add})
	opt := MotionOptions{Store: r.st, Roles: rolePrompts(r.t), RunID: runID, HumanWait: time.Hour}
	if r.journal != nil {
		opt.Journal = r.journal
	}
	return e.RunMotions(ctx, opt)
}

// playRuled plays motion m1 of run1 while a person makes the closing
// ruling through the store as soon as one is needed.
func (r *motionRig) playRuled(ruling string) []tree.Motion {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	human := make(chan error, 1)
	go func() { human <- actAsHuman(ctx, r.st, DebateID("run1", "m1"), ruling, true) }()
	ms, err := r.play(ctx, "run1")
	if err != nil {
		r.t.Fatal(err)
	}
	if err := <-human; err != nil {
		r.t.Fatal(err)
	}
	return ms
}

func propose(action, content string) scripted.Reply {
	return scripted.Fenced(map[string]string{"action": action, "content": content})
}

func rule(closeFlag bool, content string) scripted.Reply {
	return scripted.Fenced(map[string]any{"close": closeFlag, "content": content})
}

// sequence describes the arguments as "TYPE/role" in seq order, and checks
// that seq is contiguous from 1 and every parent is an earlier argument.
func sequence(t *testing.T, m tree.Motion) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	for i, a := range m.Arguments {
		if a.Seq != i+1 {
			t.Errorf("argument %d has seq %d", i, a.Seq)
		}
		if (a.ParentID == "") != (a.Type == "MOTION") || (a.ParentID != "" && !seen[a.ParentID]) {
			t.Errorf("#%d %s has parent %q", a.Seq, a.Type, a.ParentID)
		}
		seen[a.ID] = true
		out = append(out, a.Type+"/"+a.Role)
	}
	return out
}

func callsOf(srv *providertest.Server, model string) []scripted.Call {
	var out []scripted.Call
	for _, c := range srv.Calls() {
		if c.Model == model {
			out = append(out, c)
		}
	}
	return out
}

// motionEvents writes the motion events of rec, calls left out, as text.
func motionEvents(rec *recorder) []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, e := range rec.events {
		switch e.Kind {
		case tree.MotionStarted:
			out = append(out, string(e.Kind))
		case tree.TurnStarted:
			out = append(out, fmt.Sprintf("%s %d %s", e.Kind, e.Turn, e.Role))
		case tree.Argued, tree.Ruled:
			s := fmt.Sprintf("%s %d %s %s #%d", e.Kind, e.Turn, e.Role, e.Argument, e.Seq)
			if e.Closes {
				s += " closes"
			}
			out = append(out, s)
		case tree.TurnFailed, tree.MotionFinished:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, e.Status))
		}
	}
	return out
}

func TestMotionResolution(t *testing.T) {
	r := newMotionRig(t, motionConfig(12, false))
	r.srv.Enqueue(modelO,
		scripted.Text("**C1**: retries can duplicate deliveries."),
		scripted.Text("C1 resolved. Nothing else."))
	r.srv.Enqueue(modelP,
		scripted.JSON(map[string]string{"action": "claim", "content": "C1 fixed: idempotency keys."}),
		propose("RESOLUTION", "All issues are settled."))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	want := []string{"MOTION/proposer", "CLAIM/opponent", "CLAIM/proposer", "CLAIM/opponent", "RESOLUTION/proposer", "RULING/arbitrator"}
	if got := sequence(t, m); !slices.Equal(got, want) {
		t.Fatalf("arguments %q, want %q", got, want)
	}
	if m.State != string(protocol.Closed) || m.Status != tree.Converged || m.Turns != 2 {
		t.Errorf("state %s, status %s (%s), turns %d", m.State, m.Status, m.StopReason, m.Turns)
	}
	auto := m.Arguments[5]
	if auto.Content != protocol.AutoRulingContent || auto.ParentID != m.Arguments[4].ID {
		t.Errorf("auto-ruling %+v", auto)
	}
	if n := len(callsOf(r.srv, modelX)); n != 0 {
		t.Errorf("the arbitrator model was called %d times; a resolution needs no ruling", n)
	}
	// The document is stored and the MOTION refers to it by id.
	if len(m.Documents) != 1 || m.Documents[0].DocID == "" || !strings.Contains(m.Arguments[0].Content, "`"+m.Documents[0].DocID+"`") {
		t.Errorf("documents %+v, motion %q", m.Documents, m.Arguments[0].Content)
	}
	doc, err := r.st.GetDocument(context.Background(), m.Documents[0].DocID, 1)
	if err != nil || doc.Content != "# Plan\n1. Retry with backoff." {
		t.Errorf("stored document %+v, %v", doc, err)
	}
	// Every call names its participant's endpoint, and the opponent sees the plan.
	if c := callsOf(r.srv, modelO)[0]; !c.Contains("# Plan") || !c.Contains("`C1`") {
		t.Errorf("the opponent's first prompt lacks the plan or the severity rules:\n%s", c.Last())
	}
	if m.Usage.Calls != 4 || m.Usage.Total() == 0 {
		t.Errorf("usage %+v", m.Usage)
	}
	// The motion's events speak of turns, arguments and rulings; none, not
	// even its calls', names a topic or a node.
	if got, want := motionEvents(r.ev), []string{
		"motion_started",
		"turn_started 1 opponent", "argument 1 opponent CLAIM #2", "turn_started 1 proposer", "argument 1 proposer CLAIM #3",
		"turn_started 2 opponent", "argument 2 opponent CLAIM #4", "turn_started 2 proposer", "argument 2 proposer RESOLUTION #5",
		"ruling 2 arbitrator RULING #6 closes",
		"motion_finished converged",
	}; !slices.Equal(got, want) {
		t.Errorf("events\n%q, want\n%q", got, want)
	}
	if n := r.ev.count(tree.CallFinished, func(e tree.Event) bool { return e.Motion == "m1" && e.Turn > 0 }); n != 4 {
		t.Errorf("%d finished calls name the motion and a turn, want 4", n)
	}
	if n := r.ev.count(tree.CallStarted, func(e tree.Event) bool { return e.Topic != "" || e.Node != "" }); n != 0 {
		t.Errorf("%d calls of the motion name a topic or a node", n)
	}
	// The writes carry deterministic request ids.
	ctx := context.Background()
	_, args, err := r.st.Since(ctx, DebateID("run1", "m1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := args[2].ClientRequestID; got != "run1:m1:3:proposer" {
		t.Errorf("client_request_id %q", got)
	}
}

func TestMotionTurnLimit(t *testing.T) {
	r := newMotionRig(t, motionConfig(2, false))
	r.srv.Enqueue(modelO, scripted.Text("C1: no backoff cap."), scripted.Text("C1 still open."))
	r.srv.Enqueue(modelP,
		propose("claim", "The cap is 6 h."),
		propose("claim", "I insist."), // not allowed on the last reply: repaired
		propose("appeal", "Please decide C1. Options: 1. cap 6 h; 2. no cap; 3. another solution."))
	r.srv.Enqueue(modelX, rule(false, "Cap at 6 h."))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	want := []string{"MOTION/proposer", "CLAIM/opponent", "CLAIM/proposer", "CLAIM/opponent", "APPEAL/proposer", "RULING/arbitrator"}
	if got := sequence(t, m); !slices.Equal(got, want) {
		t.Fatalf("arguments %q, want %q", got, want)
	}
	if m.State != string(protocol.Closed) || m.Status != tree.Forced || !strings.Contains(m.StopReason, "turn limit") {
		t.Errorf("state %s, status %s (%s)", m.State, m.Status, m.StopReason)
	}
	calls := callsOf(r.srv, modelP)
	if len(calls) != 3 {
		t.Fatalf("%d proposer calls, want 3 (two replies and one repair)", len(calls))
	}
	if !calls[1].Contains("last allowed reply") || !strings.Contains(calls[2].Last(), `action must be "appeal" or "resolution"`) {
		t.Errorf("the last reply's prompt or its repair does not say what is required:\n%s", calls[2].Last())
	}
	if !callsOf(r.srv, modelX)[0].Contains("this ruling ends the debate") {
		t.Error("the arbitrator was not told that its ruling closes the debate")
	}
}

func TestMotionAppealAndAlign(t *testing.T) {
	r := newMotionRig(t, motionConfig(12, false))
	r.srv.Enqueue(modelO, scripted.Text("M1: the worker polls too often."))
	r.srv.Enqueue(modelP,
		scripted.Text("I think we should appeal."), // no JSON: repaired once
		propose("appeal", "M1 is disputed. Options: 1. 5 s; 2. 30 s; 3. another."),
		propose("resolution", "Aligned with the ruling: 30 s."))
	r.srv.Enqueue(modelX, scripted.Text(`{"close": "no", "content": "30 s."}`), rule(false, "Poll every 30 s."))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	want := []string{"MOTION/proposer", "CLAIM/opponent", "APPEAL/proposer", "RULING/arbitrator", "RESOLUTION/proposer", "RULING/arbitrator"}
	if got := sequence(t, m); !slices.Equal(got, want) {
		t.Fatalf("arguments %q, want %q", got, want)
	}
	if got := m.Arguments[3].StateAfter; got != string(protocol.AwaitingProposer) {
		t.Errorf("state after a ruling without close: %s", got)
	}
	if m.Status != tree.Converged {
		t.Errorf("status %s (%s)", m.Status, m.StopReason)
	}
	if c := callsOf(r.srv, modelX)[1]; !strings.Contains(c.Last(), "close: want the JSON boolean true or false") {
		t.Errorf("the ruling's repair does not name the problem:\n%s", c.Last())
	}
	if c := callsOf(r.srv, modelP)[2]; !strings.Contains(c.Last(), "Reply to #4, the RULING of the arbitrator") {
		t.Errorf("the proposer was not asked to answer the ruling:\n%s", c.Last())
	}
}

func TestMotionInvalidAfterRepair(t *testing.T) {
	r := newMotionRig(t, motionConfig(12, false))
	r.srv.Enqueue(modelO, scripted.Text("C1: broken."))
	r.srv.Enqueue(modelP, propose("shrug", "?"), propose("shrug", "still ?"))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	if m.Status != tree.Failed || m.State != string(protocol.AwaitingProposer) || len(m.Arguments) != 2 {
		t.Fatalf("status %s, state %s, %d arguments", m.Status, m.State, len(m.Arguments))
	}
	if len(m.Errors) != 1 || !strings.Contains(m.Errors[0].Raw, "still ?") || !strings.Contains(m.StopReason, `action "shrug"`) {
		t.Errorf("errors %+v, reason %q", m.Errors, m.StopReason)
	}
}

func TestMotionCallFailureFallsBack(t *testing.T) {
	cfg := motionConfig(12, false)
	cfg.Protocol.Opponent.Fallback = "model-opponent-2"
	r := newMotionRig(t, cfg)
	r.srv.Enqueue(modelO, scripted.Status(503, "down"))
	r.srv.Enqueue("model-opponent-2", scripted.Text("C1 from the fallback."))
	r.srv.Enqueue(modelP, propose("resolution", "Done."))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	if m.Status != tree.Converged || m.Arguments[1].Content != "C1 from the fallback." {
		t.Fatalf("status %s (%s), arguments %+v", m.Status, m.StopReason, m.Arguments)
	}
	if len(m.Fallbacks) != 1 || m.Fallbacks[0].Participant != "opponent" || m.Fallbacks[0].To != "model-opponent-2" {
		t.Errorf("fallbacks %+v", m.Fallbacks)
	}
}

func TestMotionLargeClaimGoesToDocument(t *testing.T) {
	r := newMotionRig(t, motionConfig(12, false))
	long := strings.Repeat("word ", 3000) // 15,000 characters, over the store's limit
	r.srv.Enqueue(modelO, scripted.Text(long))
	r.srv.Enqueue(modelP, propose("resolution", "Done."))
	ms, err := r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	claim := ms[0].Arguments[1].Content
	i := strings.Index(claim, "The full text is document `")
	if i < 0 || len(claim) > store.DefaultContentLimit {
		t.Fatalf("claim of %d characters: %q", len(claim), claim[max(0, len(claim)-120):])
	}
	id, _, _ := strings.Cut(claim[i+len("The full text is document `"):], "`")
	doc, err := r.st.GetDocument(context.Background(), id, 1)
	if err != nil || doc.Content != strings.TrimSpace(long) {
		t.Errorf("document %s: %d characters, %v", id, len(doc.Content), err)
	}
}

// actAsHuman waits until the debate needs a ruling and makes it through the
// store, as "debate serve" would for a person.
func actAsHuman(ctx context.Context, st *store.Store, debateID, content string, closeFlag bool) error {
	for {
		res, err := st.Wait(ctx, debateID, protocol.Arbitrator, "", time.Second)
		if protocol.CodeOf(err) == protocol.CodeDebateNotFound {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Millisecond):
			}
			continue
		}
		if err != nil {
			return err
		}
		if res.Action == protocol.Respond {
			_, err := st.Submit(ctx, protocol.Write{DebateID: debateID, Type: protocol.Ruling, Role: protocol.Arbitrator,
				Content: content, Close: closeFlag, ClientRequestID: "human-" + content})
			return err
		}
		if _, err := st.Wait(ctx, debateID, protocol.Arbitrator, res.Argument.ID, time.Second); err != nil {
			return err
		}
	}
}

func TestMotionHumanArbitrator(t *testing.T) {
	r := newMotionRig(t, motionConfig(1, true))
	r.srv.Enqueue(modelO, scripted.Text("C1: no cap."))
	r.srv.Enqueue(modelP, propose("appeal", "Decide C1."))
	m := r.playRuled("Cap it at 6 h. Closed.")[0]
	want := []string{"MOTION/proposer", "CLAIM/opponent", "APPEAL/proposer", "RULING/arbitrator"}
	if got := sequence(t, m); !slices.Equal(got, want) {
		t.Fatalf("arguments %q, want %q", got, want)
	}
	if m.Arguments[3].Content != "Cap it at 6 h. Closed." || m.Status != tree.Forced || m.Arbitrator.Model != tree.HumanModel {
		t.Errorf("ruling %q, status %s, arbitrator %+v", m.Arguments[3].Content, m.Status, m.Arbitrator)
	}
}

// TestMotionResume interrupts a run that waits for a human ruling, then
// resumes it with the same run id: nothing is written twice, no model is
// asked again for what was already answered, and the arguments the first run
// wrote keep their reasoning.
func TestMotionResume(t *testing.T) {
	r := newMotionRig(t, motionConfig(3, true))
	r.journal = &memJournal{m: map[string][]byte{}}
	r.srv.Enqueue(modelO, scripted.Reasoned("Is the backoff capped?", "C1: no cap."))
	r.srv.Enqueue(modelP, reasoned(propose("appeal", "Decide C1."), "Only a ruling settles C1."))
	ctx, cancel := context.WithCancel(context.Background())
	debateID := DebateID("run1", "m1")
	stopped := make(chan error, 1)
	go func() {
		// Stop the run once it waits for the ruling.
		_, err := r.st.Wait(ctx, debateID, protocol.Arbitrator, "", 0)
		for err == nil || protocol.CodeOf(err) == protocol.CodeDebateNotFound {
			var res protocol.WaitResult
			res, err = r.st.Wait(ctx, debateID, protocol.Arbitrator, "", time.Second)
			if err == nil && res.Action == protocol.Respond {
				cancel()
				break
			}
			if protocol.CodeOf(err) == protocol.CodeDebateNotFound {
				time.Sleep(5 * time.Millisecond)
			}
		}
		stopped <- nil
	}()
	ms, err := r.play(ctx, "run1")
	<-stopped
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	if m := ms[0]; m.Status != tree.Interrupted || len(m.Arguments) != 3 || m.State != string(protocol.AwaitingArbitrator) {
		t.Fatalf("interrupted motion: status %s, state %s, %d arguments", m.Status, m.State, len(m.Arguments))
	}
	before := r.srv.Count()

	// The person rules while nobody runs; the resumed run plays on from there.
	if _, err := r.st.Submit(context.Background(), protocol.Write{DebateID: debateID, Type: protocol.Ruling, Role: protocol.Arbitrator,
		Content: "Cap at 6 h.", ClientRequestID: "human-1"}); err != nil {
		t.Fatal(err)
	}
	r.srv.Enqueue(modelP, propose("resolution", "Aligned: 6 h."))
	ms, err = r.play(context.Background(), "run1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	want := []string{"MOTION/proposer", "CLAIM/opponent", "APPEAL/proposer", "RULING/arbitrator", "RESOLUTION/proposer", "RULING/arbitrator"}
	if got := sequence(t, m); !slices.Equal(got, want) {
		t.Fatalf("arguments %q, want %q", got, want)
	}
	if got := r.srv.Count() - before; got != 1 {
		t.Errorf("the resumed run made %d calls, want 1 (the proposer's answer to the ruling)", got)
	}
	if len(m.Documents) != 1 {
		t.Errorf("documents %+v", m.Documents)
	}
	wantReasoning := []string{"", "Is the backoff capped?", "Only a ruling settles C1.", "", "", ""}
	if got := reasoningByArgument(m); !slices.Equal(got, wantReasoning) {
		t.Errorf("reasoning after resuming %q, want %q", got, wantReasoning)
	}

	// Playing a closed motion again writes and asks nothing.
	before = r.srv.Count()
	ms, err = r.play(context.Background(), "run1")
	if err != nil || len(ms[0].Arguments) != len(want) || r.srv.Count() != before || ms[0].Status != tree.Converged {
		t.Errorf("replay: err %v, %d arguments, %d calls, status %s", err, len(ms[0].Arguments), r.srv.Count()-before, ms[0].Status)
	}
}

// reasoned gives a scripted reply the reasoning the model sends beside its
// answer in message.reasoning.
func reasoned(r scripted.Reply, reasoning string) scripted.Reply {
	r.Reasoning = reasoning
	return r
}

// reasoningByArgument lists the arguments' reasoning in seq order.
func reasoningByArgument(m tree.Motion) []string {
	out := make([]string, len(m.Arguments))
	for i, a := range m.Arguments {
		out[i] = a.Reasoning
	}
	return out
}

// TestMotionReasoning: each argument a model wrote carries the reasoning of
// the answer that became it (the repaired answer's after a repair), in
// whichever shape the model sent it; the MOTION, a person's ruling, the
// closing ruling after a resolution and an appeal the engine wrote for the
// proposer carry none, and no argument's content holds reasoning.
func TestMotionReasoning(t *testing.T) {
	tests := []struct {
		name     string
		maxTurns int
		human    bool
		script   map[string][]scripted.Reply
		// rule, when set, is the ruling a person makes while the run waits.
		rule string
		want []string // "TYPE/role: reasoning" in seq order
	}{{
		name: "every role, with a repair", maxTurns: 2,
		script: map[string][]scripted.Reply{
			modelO: {
				scripted.Reasoned("The plan never caps the backoff.", "C1: no backoff cap."),
				scripted.Think("The cap answers C1 only in part.", "C1 still open: 6 h is too long."),
			},
			modelP: {
				reasoned(scripted.Text("I would claim the cap."), "Draft thinking, thrown away."),
				reasoned(propose("claim", "The cap is 6 h."), "A cap answers C1; pick 6 h."),
				reasoned(propose("appeal", "Decide C1: 1. 6 h; 2. 1 h; 3. other."), "We will not agree; appeal."),
			},
			modelX: {reasoned(rule(true, "Cap at 1 h."), "6 h delays alerts too long.")},
		},
		want: []string{
			"MOTION/proposer: ",
			"CLAIM/opponent: The plan never caps the backoff.",
			"CLAIM/proposer: A cap answers C1; pick 6 h.",
			"CLAIM/opponent: The cap answers C1 only in part.",
			"APPEAL/proposer: We will not agree; appeal.",
			"RULING/arbitrator: 6 h delays alerts too long.",
		},
	}, {
		name: "resolution closed by the store", maxTurns: 12,
		script: map[string][]scripted.Reply{
			modelO: {scripted.Reasoned("Nothing is wrong.", "No issues.")},
			modelP: {reasoned(propose("resolution", "Settled."), "The opponent agrees.")},
		},
		want: []string{"MOTION/proposer: ", "CLAIM/opponent: Nothing is wrong.", "RESOLUTION/proposer: The opponent agrees.", "RULING/arbitrator: "},
	}, {
		name: "appeal written for the proposer", maxTurns: 1,
		script: map[string][]scripted.Reply{
			modelO: {scripted.Text("C1: no cap.")},
			modelP: {
				reasoned(propose("claim", "No."), "Keep arguing."),
				reasoned(propose("claim", "Still no."), "Keep arguing anyway."),
			},
			modelX: {rule(false, "Cap at 1 h.")},
		},
		want: []string{"MOTION/proposer: ", "CLAIM/opponent: ", "APPEAL/proposer: ", "RULING/arbitrator: "},
	}, {
		name: "a person rules", maxTurns: 1, human: true, rule: "Cap at 1 h.",
		script: map[string][]scripted.Reply{
			modelO: {scripted.Reasoned("Look for a cap.", "C1: no cap.")},
			modelP: {reasoned(propose("appeal", "Decide C1."), "Only a ruling settles C1.")},
		},
		want: []string{"MOTION/proposer: ", "CLAIM/opponent: Look for a cap.", "APPEAL/proposer: Only a ruling settles C1.", "RULING/arbitrator: "},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newMotionRig(t, motionConfig(tt.maxTurns, tt.human))
			for model, replies := range tt.script {
				r.srv.Enqueue(model, replies...)
			}
			var ms []tree.Motion
			if tt.rule != "" {
				ms = r.playRuled(tt.rule)
			} else {
				var err error
				if ms, err = r.play(context.Background(), "run1"); err != nil {
					t.Fatal(err)
				}
			}
			m := ms[0]
			var got []string
			for _, a := range m.Arguments {
				got = append(got, a.Type+"/"+a.Role+": "+a.Reasoning)
				for _, line := range strings.Split(a.Reasoning, "\n") {
					if line != "" && strings.Contains(a.Content, line) {
						t.Errorf("#%d %s holds its reasoning in its content: %q", a.Seq, a.Type, a.Content)
					}
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("arguments with reasoning:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		answer string
		final  bool
		typ    protocol.ArgType
		err    string
	}{
		{`{"action": "claim", "content": " x "}`, false, protocol.Claim, ""},
		{"Sure.\n```json\n{\"action\": \"Appeal\", \"content\": \"x\"}\n```", false, protocol.Appeal, ""},
		{`{"action": "resolution", "content": "x"}`, true, protocol.Resolution, ""},
		{`{"action": "claim", "content": "x"}`, true, "", "last allowed reply"},
		{`{"action": "revise", "content": "x"}`, false, "", `action "revise"`},
		{`{"action": "claim", "content": ""}`, false, "", "content: must not be empty"},
		{`{"action": 3}`, false, "", "decode the answer"},
		{`no json at all`, false, "", "no JSON object"},
	}
	for _, tt := range tests {
		typ, content, err := parseReply(tt.answer, nil, tt.final)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseReply(%q) error %v, nil, want %q", tt.answer, err, tt.err)
			}
			continue
		}
		if err != nil || typ != tt.typ || content != "x" {
			t.Errorf("parseReply(%q) = %s, nil, %q, %v", tt.answer, typ, content, err)
		}
	}
}

func TestParseRuling(t *testing.T) {
	tests := []struct {
		answer string
		close  bool
		err    string
	}{
		{`{"close": true, "content": "x"}`, true, ""},
		{`{"close": false, "content": "x"}`, false, ""},
		{`{"close": "true", "content": "x"}`, false, `got "true"`},
		{`{"close": 1, "content": "x"}`, false, "got 1"},
		{`{"content": "x"}`, false, "close: required"},
		{`{"close": true, "content": " "}`, false, "content: must not be empty"},
	}
	for _, tt := range tests {
		c, content, err := parseRuling(tt.answer, nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseRuling(%q, nil) error %v, want %q", tt.answer, err, tt.err)
			}
			continue
		}
		if err != nil || c != tt.close || content != "x" {
			t.Errorf("parseRuling(%q, nil) = %v, %q, %v", tt.answer, c, content, err)
		}
	}
}

func TestRunMotionsSelection(t *testing.T) {
	cfg := motionConfig(12, false)
	cfg.Motions = append(cfg.Motions, configs.Motion{ID: "m2", Title: "Second", Motion: "Another."})
	r := newMotionRig(t, cfg)
	r.srv.Script(func(c scripted.Call) scripted.Reply {
		switch c.Model {
		case modelO:
			return scripted.Text("C1 for " + fmt.Sprint(c.Contains("Another.")))
		default:
			return propose("resolution", "Done.")
		}
	})
	client, err := providers.New(cfg, providers.Options{HTTPClient: r.srv.HTTPClient(), Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := english(cfg, client, promptSet(t), Options{})
	ms, err := e.RunMotions(context.Background(), MotionOptions{Store: r.st, Roles: rolePrompts(t), RunID: "r", Motions: []string{"m2"}})
	if err != nil || len(ms) != 1 || ms[0].ID != "m2" || ms[0].Arguments[1].Content != "C1 for true" {
		t.Fatalf("RunMotions(m2) = %+v, %v", ms, err)
	}
	ms, err = e.RunMotions(context.Background(), MotionOptions{Store: r.st, Roles: rolePrompts(t), RunID: "r2"})
	if err != nil || len(ms) != 2 || ms[0].ID != "m1" || ms[1].ID != "m2" || ms[0].Status != tree.Converged || ms[1].Status != tree.Converged {
		t.Fatalf("RunMotions() = %d motions, %v", len(ms), err)
	}
	if _, err := e.RunMotions(context.Background(), MotionOptions{Store: r.st, Roles: rolePrompts(t), RunID: "r", Motions: []string{"nope"}}); err == nil {
		t.Error("an unknown motion id was accepted")
	}
	if _, err := e.RunMotions(context.Background(), MotionOptions{Store: r.st, Roles: rolePrompts(t)}); err == nil {
		t.Error("a missing run id was accepted")
	}
}

// TestRunTopicsAndMotions: Run plays topics and motions together when
// Options.Motions is set, only what the selection names when there is one, and sums
// the usage of both.
func TestRunTopicsAndMotions(t *testing.T) {
	tests := []struct {
		name        string
		sel         *tree.Selection
		wantTopics  int
		wantMotions int
		withMotions bool
	}{
		{name: "nothing named: everything", withMotions: true, wantTopics: 1, wantMotions: 1},
		{name: "a topic selected", sel: &tree.Selection{Topics: []string{"t1"}}, withMotions: true, wantTopics: 1},
		{name: "a motion selected", sel: &tree.Selection{Motions: []string{"m1"}}, withMotions: true, wantMotions: 1},
		{name: "an empty slice of a sharded run", sel: &tree.Selection{Shard: &tree.Shard{Index: 2, Count: 3}}, withMotions: true},
		{name: "no motion options: topics only", wantTopics: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(1, "t1")
			mc := motionConfig(4, false)
			cfg.Protocol, cfg.Motions = mc.Protocol, mc.Motions
			s := &script{judge: map[string][]string{}, words: 5, tokens: 10}
			c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
				u := providers.Usage{PromptTokens: 100, CompletionTokens: 1}
				switch r.Model {
				case modelO:
					return providers.Response{Text: "C1: retries need a cap.", Model: r.Model, Usage: u}, nil
				case modelP, modelX:
					return providers.Response{Text: `{"action":"resolution","content":"Done."}`, Model: r.Model, Usage: u}, nil
				}
				return s.answer(ctx, r)
			})
			opt := Options{Selection: tt.sel}
			if tt.withMotions {
				opt.Motions = &MotionOptions{Store: openStore(t), Roles: rolePrompts(t), RunID: "r1"}
			}
			run, err := english(cfg, c, promptSet(t), opt).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Topics) != tt.wantTopics || len(run.Motions) != tt.wantMotions {
				t.Fatalf("%d topics and %d motions, want %d and %d", len(run.Topics), len(run.Motions), tt.wantTopics, tt.wantMotions)
			}
			var sum tree.Usage
			for _, x := range run.Topics {
				sum = sum.Add(x.Usage)
			}
			for _, m := range run.Motions {
				if m.Status != tree.Converged {
					t.Errorf("motion %s ended %s: %s", m.ID, m.Status, m.StopReason)
				}
				sum = sum.Add(m.Usage)
			}
			if run.Usage != sum || (sum.Calls == 0) != (tt.wantTopics+tt.wantMotions == 0) {
				t.Errorf("run usage %+v, want the sum of topics and motions %+v", run.Usage, sum)
			}
			if !run.Finished() {
				t.Error("a run whose topics and motions all ended is not Finished")
			}
		})
	}
}

// TestByModelCoversMotions checks that a run with a topic and a motion
// reports the calls of both in byModel, with the cache-eligible tokens of
// the motion's roles, whose later calls begin with their earlier ones, and
// that byModel adds up to the run's usage.
func TestByModelCoversMotions(t *testing.T) {
	t.Parallel()
	cfg := testConfig(1, "t1")
	mc := motionConfig(4, false)
	cfg.Protocol, cfg.Motions = mc.Protocol, mc.Motions
	s := &script{judge: map[string][]string{}, words: 5, tokens: 10}
	var mu sync.Mutex
	replies := 0
	c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		u := providers.Usage{PromptTokens: 100, CompletionTokens: 1}
		switch r.Model {
		case modelO:
			return providers.Response{Text: "C1: retries need a cap.", Model: r.Model, Usage: u}, nil
		case modelP:
			mu.Lock()
			replies++
			action := "claim"
			if replies > 1 {
				action = "resolution"
			}
			mu.Unlock()
			return providers.Response{Text: fmt.Sprintf(`{"action":%q,"content":"C1 fixed: at most 8 attempts."}`, action), Model: r.Model, Usage: u}, nil
		}
		return s.answer(ctx, r)
	})
	opt := Options{Motions: &MotionOptions{Store: openStore(t), Roles: rolePrompts(t), RunID: "r1"}}
	run, err := english(cfg, c, promptSet(t), opt).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Topics) != 1 || len(run.Motions) != 1 || run.Motions[0].Status != tree.Converged {
		t.Fatalf("%d topics and %d motions (%+v), want one of each, the motion converged", len(run.Topics), len(run.Motions), run.Motions)
	}
	for _, model := range []string{modelP, modelO} {
		if got := run.Motions[0].ByModel[model].Calls; got != 2 {
			t.Errorf("the motion's byModel counts %d calls of %s, want 2", got, model)
		}
	}
	tests := []struct {
		model        string
		wantEligible bool
	}{
		// A debater's position and rebuttal open with different system
		// messages, and the judge is called once.
		{"model-a", false},
		{"model-j", false},
		{modelP, true},
		{modelO, true},
	}
	for _, tt := range tests {
		u, ok := run.ByModel[tt.model]
		if !ok || u.Calls == 0 {
			t.Errorf("byModel has no calls of %s: %+v", tt.model, run.ByModel)
			continue
		}
		if got := u.CacheEligiblePromptTokens > 0; got != tt.wantEligible {
			t.Errorf("%s: %d cache-eligible prompt tokens; want some: %v", tt.model, u.CacheEligiblePromptTokens, tt.wantEligible)
		}
	}
	var sum tree.Usage
	for _, u := range run.ByModel {
		sum = sum.Add(u)
	}
	if sum.PromptTokens != run.Usage.PromptTokens || sum.Calls != run.Usage.Calls || sum.CacheEligiblePromptTokens != run.Usage.CacheEligiblePromptTokens {
		t.Errorf("byModel adds up to %+v, the run's usage is %+v", sum, run.Usage)
	}
}

// TestMotionCacheControl checks that with api.cacheControl a role's request
// marks where its stable parts end: the system message, the motion's
// documents and the motion, and leaves the arguments and the task unmarked.
func TestMotionCacheControl(t *testing.T) {
	t.Parallel()
	cfg := motionConfig(12, false)
	r := newMotionRig(t, cfg)
	on := true
	cfg.API.CacheControl = &on
	r.srv.Enqueue(modelO, scripted.Text("**C1**: retries can duplicate deliveries."), scripted.Text("C1 resolved."))
	r.srv.Enqueue(modelP,
		propose("claim", "C1 fixed: idempotency keys."),
		propose("resolution", "All issues are settled."))
	if _, err := r.play(context.Background(), "run1"); err != nil {
		t.Fatal(err)
	}
	type part struct {
		Text         string `json:"text"`
		CacheControl *struct {
			Type string `json:"type"`
		} `json:"cache_control"`
	}
	calls := callsOf(r.srv, modelO)
	if len(calls) != 2 {
		t.Fatalf("%d opponent calls, want 2", len(calls))
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []part `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(calls[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	var marked, ends []string
	for _, m := range body.Messages {
		for _, p := range m.Content {
			if p.CacheControl != nil && p.CacheControl.Type == "ephemeral" {
				marked = append(marked, m.Role)
				ends = append(ends, p.Text[max(0, len(p.Text)-24):])
			}
		}
	}
	if !slices.Equal(marked, []string{"system", "user", "user"}) {
		t.Fatalf("marked parts in %q (ending %q), want the system message and two parts of the user message", marked, ends)
	}
	if !strings.HasSuffix(ends[1], "Retry with backoff.\n```") || !strings.Contains(ends[2], "plan.md") {
		t.Errorf("the user message's marks end %q, want the documents and then the motion", ends[1:])
	}
	user := body.Messages[1].Content
	if last := user[len(user)-1]; last.CacheControl != nil || !strings.Contains(last.Text, "C1 fixed") {
		t.Errorf("the last part, the arguments and the task, is %+v; want it unmarked", last)
	}
}
