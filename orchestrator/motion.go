package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/conc/panics"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// MotionStore is the part of the debate database a motion is played
// through: the same write pipeline and state machine the server uses.
// *store.Store is one.
type MotionStore interface {
	Create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error)
	Submit(ctx context.Context, w protocol.Write) (protocol.Result, error)
	Since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error)
	Wait(ctx context.Context, debateID string, role protocol.Role, afterArgumentID string, timeout time.Duration) (protocol.WaitResult, error)
	CreateDocument(ctx context.Context, nd protocol.NewDocument) (protocol.Document, bool, error)
}

// RolePrompts builds the messages of the protocol roles. *prompts.Roles is
// one.
type RolePrompts interface {
	Motion(prompts.MotionText) (string, error)
	Proposer(prompts.Turn) ([]prompts.Message, error)
	Opponent(prompts.Turn) ([]prompts.Message, error)
	Arbitrator(prompts.Turn) ([]prompts.Message, error)
	Repair(prompts.Repair) ([]prompts.Message, error)
}

// DefaultHumanWait is how long one wait for a human ruling lasts before the
// run says again that it is waiting.
const DefaultHumanWait = time.Minute

// MotionOptions configure RunMotions.
type MotionOptions struct {
	// Store keeps the debates; Roles builds the role prompts. Both required.
	Store MotionStore
	Roles RolePrompts
	// RunID names this run's debates and writes: a motion's debate id is
	// "<motion id>-<RunID>" and every write's client_request_id is
	// "<RunID>:<motion id>:<seq>:<role>". A resumed run passes the RunID of
	// the run it resumes, so that writes it repeats are replays, not
	// duplicates. Required.
	RunID string
	// Motions are the ids of the motions to play, in the order they are
	// returned; empty plays them all. They are played at once.
	Motions []string
	// HumanWait is how long one wait for a human ruling lasts before the
	// waiting is logged again; 0 means DefaultHumanWait.
	HumanWait time.Duration
	// Journal, when set, keeps the reasoning of every argument a model
	// wrote, so that a resumed run reports the reasoning of the arguments
	// an earlier run wrote. The database keeps the arguments alone.
	Journal Notebook
}

// Notebook keeps the notes of a run beside its journal of calls: what a
// resumed run needs that is not the answer of a call. *journal.Journal is one.
type Notebook interface {
	Note(ctx context.Context, name string) ([]byte, bool, error)
	SetNote(ctx context.Context, name string, value []byte) error
}

// maxContentRunes is how much of an argument stays inline when the whole
// text is too large for the store and goes to a document instead.
const maxContentRunes = 3000

// RunMotions plays the selected motions of the config's protocol section,
// all at once, each in its own debate of opt.Store: the MOTION (with the
// motion's documents stored and referenced by id), the opponent's CLAIMs,
// the proposer's replies (CLAIM, APPEAL or RESOLUTION, from a JSON answer
// repaired once when invalid) and the arbitrator's RULINGs (a model's JSON
// answer, or a person's ruling made through the server on the same
// database). The proposer's reply at protocol.maxTurns must be an APPEAL or a
// RESOLUTION, and a model arbitrator's ruling on that APPEAL closes the
// debate.
//
// Every motion comes back, in config order, with its arguments as the
// database holds them. When ctx ends first, the unfinished motions are marked
// interrupted and RunMotions returns them with ctx's error; a later run with
// the same RunID continues them.
func (e *Engine) RunMotions(ctx context.Context, opt MotionOptions) ([]tree.Motion, error) {
	if opt.Store == nil || opt.Roles == nil {
		return nil, errors.New("run motions: a store and role prompts are required")
	}
	if opt.RunID == "" {
		return nil, errors.New("run motions: a run id is required")
	}
	if e.cfg.Protocol == nil {
		return nil, errors.New("run motions: the config has no protocol section")
	}
	if opt.HumanWait <= 0 {
		opt.HumanWait = DefaultHumanWait
	}
	motions, err := e.selectedMotions(opt.Motions)
	if err != nil {
		return nil, err
	}
	out := make([]tree.Motion, len(motions))
	runs := make([]*motionRun, len(motions))
	for i, m := range motions {
		runs[i] = e.newMotionRun(m, opt)
	}
	for i, p := range each(len(runs), true, func(i int) { out[i] = runs[i].play(ctx) }) {
		if p != nil {
			out[i] = runs[i].broken(ctx, p)
		}
	}
	if err := ctx.Err(); err != nil {
		return out, fmt.Errorf("motions interrupted: %w", context.Cause(ctx))
	}
	return out, nil
}

// selectedMotions returns the motions ids names, in that order, or every
// motion when ids is empty.
func (e *Engine) selectedMotions(ids []string) ([]configs.Motion, error) {
	if len(ids) == 0 {
		return e.cfg.Motions, nil
	}
	out := make([]configs.Motion, 0, len(ids))
	for _, id := range ids {
		m, ok := e.cfg.MotionByID(id)
		if !ok {
			return nil, fmt.Errorf("unknown motion %q (known: %v)", id, e.cfg.MotionIDs())
		}
		out = append(out, m)
	}
	return out, nil
}

// DebateID returns the database id of a motion's debate in a run.
func DebateID(runID, motionID string) string { return motionID + "-" + runID }

// motionRun is one motion while it is played. Its roster holds the roles'
// models, failure counters and fallbacks for this motion.
type motionRun struct {
	e                              *Engine
	r                              *roster
	opt                            MotionOptions
	proto                          configs.Protocol
	m                              configs.Motion
	debateID                       string
	proposer, opponent, arbitrator *member // arbitrator nil for a person
	docs                           []prompts.StoredDocument
	out                            tree.Motion
	// reasoning is the reasoning of the arguments this run wrote, by the
	// write's client_request_id.
	reasoning map[string]string
}

func (e *Engine) newMotionRun(m configs.Motion, opt MotionOptions) *motionRun {
	p := *e.cfg.Protocol
	mr := &motionRun{
		e: e, r: e.newMotionRoster(m.ID),
		opt: opt, proto: p, m: m, debateID: DebateID(opt.RunID, m.ID),
		reasoning: map[string]string{},
	}
	add := mr.r.add
	mr.out = tree.Motion{
		ID: m.ID, Title: m.Title, Motion: m.Motion, DebateType: p.DebateType, DebateID: mr.debateID,
		MaxTurns: p.MaxTurns, Documents: []tree.MotionDocument{}, Arguments: []tree.MotionArgument{},
		Status: tree.Pending,
	}
	if p.Proposer != nil {
		mr.proposer = add(*p.Proposer)
		mr.out.Proposer = participant(*p.Proposer)
	}
	if p.Opponent != nil {
		mr.opponent = add(*p.Opponent)
		mr.out.Opponent = participant(*p.Opponent)
	}
	switch a := p.Arbitrator; {
	case a == nil:
	case a.Human:
		mr.out.Arbitrator = tree.Participant{ID: configs.ArbitratorID, Label: "Arbitrator", Model: tree.HumanModel}
	default:
		mr.arbitrator = add(a.Participant())
		mr.out.Arbitrator = participant(a.Participant())
	}
	return mr
}

// reqID is the client_request_id of the write that is to get seq.
func (mr *motionRun) reqID(seq int, role protocol.Role) string {
	return fmt.Sprintf("%s:%s:%d:%s", mr.opt.RunID, mr.m.ID, seq, role)
}

// play runs the motion to its end and returns its record.
func (mr *motionRun) play(ctx context.Context) tree.Motion {
	mr.e.emit(tree.Event{Kind: tree.MotionStarted, Motion: mr.m.ID})
	status, why := mr.run(ctx)
	if ctx.Err() != nil && status != tree.Converged && status != tree.Forced {
		status, why = tree.Interrupted, []tree.Reason{interruption(ctx)}
	}
	return mr.finish(ctx, status, why...)
}

// broken is what remains of a motion whose play panicked: failed with the
// panic's message, with what the database holds.
func (mr *motionRun) broken(ctx context.Context, p *panics.Recovered) tree.Motion {
	why := panicReason(p)
	mr.e.log.Error("motion panicked", "motion", mr.m.ID, "panic", p.String())
	msg, because := mr.e.opt.Say.said(why)
	mr.out.Errors = append(mr.out.Errors, tree.MotionError{Message: msg, Because: because})
	return mr.finish(ctx, tree.Failed, why)
}

// finish completes the motion's record with what the database holds, even
// when the run is being stopped, and with its status, fallbacks and usage,
// and announces its end.
func (mr *motionRun) finish(ctx context.Context, status tree.Status, why ...tree.Reason) tree.Motion {
	e := mr.e
	mr.record(context.WithoutCancel(ctx))
	mr.out.Status = status
	mr.out.StopReason, mr.out.Because = e.opt.Say.said(why...)
	mr.out.Fallbacks = mr.r.sortedFallbacks()
	mr.out.Usage = mr.r.book.total(e.cfg.Pricing)
	mr.out.ByModel = mr.r.book.priced(e.cfg.Pricing)
	msg := "motion stopped"
	if status == tree.Converged || status == tree.Forced {
		msg = "motion closed"
	}
	e.log.Info(msg, tree.EventKey, tree.MotionFinished, "motion", mr.m.ID, "debate", mr.debateID, "status", status, "state", mr.out.State,
		"arguments", len(mr.out.Arguments), "tokens", mr.out.Usage.Total())
	e.emit(tree.Event{Kind: tree.MotionFinished, Motion: mr.m.ID, Status: status, Usage: mr.out.Usage, Err: errIf(status == tree.Failed, mr.out.StopReason)})
	return mr.out
}

func errIf(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

// run opens the debate and plays turns until it is closed, and returns the
// motion's status and why it stopped.
func (mr *motionRun) run(ctx context.Context) (tree.Status, []tree.Reason) {
	if err := mr.open(ctx); err != nil {
		if ctx.Err() != nil {
			return tree.Interrupted, []tree.Reason{interruption(ctx)}
		}
		return mr.fail(0, protocol.Proposer, err, "")
	}
	// Every pass either writes an argument, waits for a person, or fails; a
	// refused write is retried only after the state changed.
	limit := 4*mr.proto.MaxTurns + 16
	var refusedIn protocol.State
	for range limit {
		if err := ctx.Err(); err != nil {
			return tree.Interrupted, []tree.Reason{interruption(ctx)}
		}
		d, args, err := mr.opt.Store.Since(ctx, mr.debateID, 0)
		if err != nil {
			if ctx.Err() != nil {
				return tree.Interrupted, []tree.Reason{interruption(ctx)}
			}
			return mr.fail(0, "", fmt.Errorf("read the debate: %w", err), "")
		}
		if len(args) == 0 {
			return mr.fail(0, "", errors.New("the debate has no MOTION"), "")
		}
		newest := args[len(args)-1]
		replies := proposerReplies(args)
		var role protocol.Role
		var turn int
		switch d.State {
		case protocol.Closed:
			return closedStatus(args, mr.proto.MaxTurns)
		case protocol.AwaitingOpponent:
			role, turn = protocol.Opponent, replies+1
			err = mr.opponentTurn(ctx, args, turn)
		case protocol.AwaitingProposer:
			role, turn = protocol.Proposer, replies+1
			err = mr.proposerTurn(ctx, args, turn)
		case protocol.AwaitingArbitrator, protocol.InterventionPending:
			role, turn = protocol.Arbitrator, max(replies, 1)
			if mr.arbitrator == nil {
				err = mr.waitHuman(ctx, d, newest, turn)
			} else {
				err = mr.arbitratorTurn(ctx, args, turn, replies)
			}
		default:
			return mr.fail(0, "", fmt.Errorf("the debate is in unknown state %q", d.State), "")
		}
		var refused *protocol.Error
		switch {
		case err == nil:
			refusedIn = ""
		case ctx.Err() != nil:
			return tree.Interrupted, []tree.Reason{interruption(ctx)}
		case errors.As(err, &refused) && refused.Code == protocol.CodeActionNotAllowed && refusedIn != d.State:
			// Someone else (a person through the server) wrote first; play
			// on from the new state.
			refusedIn = d.State
			mr.e.log.Info("write refused; the debate moved on", "motion", mr.m.ID, "debate", mr.debateID, "role", role, "err", err)
		default:
			var ae *answerError
			raw := ""
			if errors.As(err, &ae) {
				raw = ae.raw
			}
			return mr.fail(turn, role, err, raw)
		}
	}
	return mr.fail(0, "", fmt.Errorf("the debate did not close after %d arguments", limit), "")
}

// fail records a failure and returns the failed status with its reason.
func (mr *motionRun) fail(turn int, role protocol.Role, err error, raw string) (tree.Status, []tree.Reason) {
	why := reasonOf(err)
	if role != "" {
		why = append([]tree.Reason{tree.Because(tree.TurnFailure, role, turn)}, why...)
	}
	reason := mr.e.opt.Say(why...)
	mr.out.Errors = append(mr.out.Errors, tree.MotionError{Role: string(role), Turn: turn, Message: err.Error(), Because: reasonOf(err), Raw: raw})
	mr.e.log.Warn("motion failed", "motion", mr.m.ID, "debate", mr.debateID, "reason", reason)
	if turn > 0 {
		mr.e.emit(tree.Event{Kind: tree.TurnFailed, Motion: mr.m.ID, Turn: turn, Status: tree.Failed, Err: reason})
	}
	return tree.Failed, why
}

// open stores the motion's documents and creates the debate with its MOTION.
// Both are idempotent: a resumed run gets the same documents and debate.
func (mr *motionRun) open(ctx context.Context) error {
	st := mr.opt.Store
	for i, d := range mr.m.Docs {
		doc, _, err := st.CreateDocument(ctx, protocol.NewDocument{
			Title: d.Path, Content: d.Content,
			ClientRequestID: fmt.Sprintf("%s:%s:doc:%d", mr.opt.RunID, mr.m.ID, i+1),
		})
		if err != nil {
			return fmt.Errorf("store document %s: %w", d.Path, err)
		}
		mr.docs = append(mr.docs, prompts.StoredDocument{ID: doc.ID, Version: doc.Version, Path: d.Path, Content: d.Content})
		mr.out.Documents = append(mr.out.Documents, tree.MotionDocument{Path: d.Path, DocID: doc.ID, Version: doc.Version})
	}
	text, err := mr.opt.Roles.Motion(prompts.MotionText{Title: mr.m.Title, Text: mr.m.Motion, Documents: mr.docs})
	if err != nil {
		return fmt.Errorf("build the motion: %w", err)
	}
	nd := protocol.NewDebate{
		ID: mr.debateID, Title: mr.m.Title, Type: protocol.DebateType(mr.proto.DebateType),
		Content: text, ClientRequestID: mr.reqID(1, protocol.Proposer),
	}
	res, err := st.Create(ctx, nd)
	if protocol.CodeOf(err) == protocol.CodeContentTooLarge {
		nd.Content, err = mr.toDocument(ctx, nd.ClientRequestID, text)
		if err == nil {
			res, err = st.Create(ctx, nd)
		}
	}
	if err != nil {
		return fmt.Errorf("create debate %s: %w", mr.debateID, err)
	}
	if res.Replay {
		mr.e.log.Info("motion resumed", "motion", mr.m.ID, "debate", mr.debateID, "state", res.Debate.State)
	} else {
		mr.e.log.Info("motion opened", "motion", mr.m.ID, "debate", mr.debateID)
	}
	return nil
}

// toDocument stores a text too large for an argument as a document and
// returns its beginning with a reference to the document.
func (mr *motionRun) toDocument(ctx context.Context, reqID, text string) (string, error) {
	doc, _, err := mr.opt.Store.CreateDocument(ctx, protocol.NewDocument{Title: "full text of " + reqID, Content: text, ClientRequestID: reqID + ":doc"})
	if err != nil {
		return "", fmt.Errorf("store the full text as a document: %w", err)
	}
	return fmt.Sprintf("%s\n\n[…] The full text is document `%s` (version %d).", cut(text, maxContentRunes), doc.ID, doc.Version), nil
}

// cut returns the first n runes of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimSpace(s[:j])
		}
		i++
	}
	return s
}

// submit writes w; a content too large for the store goes to a document and
// the argument carries its beginning and the reference.
func (mr *motionRun) submit(ctx context.Context, w protocol.Write) (protocol.Result, error) {
	res, err := mr.opt.Store.Submit(ctx, w)
	if protocol.CodeOf(err) == protocol.CodeContentTooLarge {
		w.Content, err = mr.toDocument(ctx, w.ClientRequestID, w.Content)
		if err == nil {
			res, err = mr.opt.Store.Submit(ctx, w)
		}
	}
	if err != nil {
		return res, fmt.Errorf("submit %s: %w", w.Type, err)
	}
	return res, nil
}

// proposerReplies counts the proposer's arguments after the MOTION.
func proposerReplies(args []protocol.Argument) int {
	n := 0
	for _, a := range args {
		if a.Role == protocol.Proposer && a.Type != protocol.Motion {
			n++
		}
	}
	return n
}

// closedStatus says how a closed debate ended: by the proposer's RESOLUTION
// (converged) or by an arbitrator's RULING (forced).
func closedStatus(args []protocol.Argument, maxTurns int) (tree.Status, []tree.Reason) {
	last := args[len(args)-1]
	if len(args) >= 2 && args[len(args)-2].Type == protocol.Resolution && last.Type == protocol.Ruling {
		return tree.Converged, []tree.Reason{tree.Because(tree.ProposerResolved, args[len(args)-2].Seq), tree.Because(tree.RulingClosed, last.Seq)}
	}
	if proposerReplies(args) >= maxTurns {
		return tree.Forced, []tree.Reason{tree.Because(tree.ClosedAtTurnLimit, last.Seq, maxTurns)}
	}
	return tree.Forced, []tree.Reason{tree.Because(tree.ArbitratorClosed, last.Seq)}
}

func turnNode(turn int) string { return fmt.Sprintf("turn %d", turn) }

// turnData is what a role sees of the debate.
func (mr *motionRun) turnData(args []protocol.Argument, turn int) prompts.Turn {
	seqOf := make(map[string]int, len(args))
	for _, a := range args {
		seqOf[a.ID] = a.Seq
	}
	view := func(a protocol.Argument) prompts.Argument {
		return prompts.Argument{Seq: a.Seq, Type: string(a.Type), Role: string(a.Role), Reply: seqOf[a.ParentID], Content: a.Content}
	}
	d := prompts.Turn{
		DebateType: mr.proto.DebateType, Title: mr.m.Title, Motion: args[0].Content,
		Documents: mr.docs, Turn: turn, MaxTurns: mr.proto.MaxTurns,
		Newest: view(args[len(args)-1]),
	}
	for _, a := range args[1:] {
		d.History = append(d.History, view(a))
	}
	return d
}

// ask makes a role's call through the roster's attempt loop.
func (mr *motionRun) ask(ctx context.Context, c call) (providers.Response, string, error) {
	resp, model, err := mr.r.call(ctx, c)
	if err != nil {
		return resp, model, fmt.Errorf("%s call failed: %w", c.who.p.ID, err)
	}
	return resp, model, nil
}

// answerError is a role's answer that could not be used, even after repair.
type answerError struct {
	err error
	raw string
}

func (e *answerError) Error() string { return e.err.Error() }
func (e *answerError) Unwrap() error { return e.err }

// started announces the part of a turn that role plays.
func (mr *motionRun) started(turn int, role protocol.Role) {
	mr.e.emit(tree.Event{Kind: tree.TurnStarted, Motion: mr.m.ID, Turn: turn, Role: string(role)})
}

// wrote announces the arguments a write of turn added to the debate: the
// argument written, and the automatic ruling that may follow it.
func (mr *motionRun) wrote(turn int, res protocol.Result) {
	for _, a := range []*protocol.Argument{&res.Argument, res.AutoRuling} {
		if a == nil {
			continue
		}
		ev := tree.Event{Kind: tree.Argued, Motion: mr.m.ID, Turn: turn, Role: string(a.Role), Argument: string(a.Type), Seq: a.Seq}
		if a.Type == protocol.Ruling {
			ev.Kind, ev.Closes = tree.Ruled, res.Debate.State == protocol.Closed
		}
		mr.e.emit(ev)
	}
}

func (mr *motionRun) opponentTurn(ctx context.Context, args []protocol.Argument, turn int) error {
	mr.started(turn, protocol.Opponent)
	data := mr.turnData(args, turn)
	pm, err := mr.opt.Roles.Opponent(data)
	if err != nil {
		return fmt.Errorf("build the opponent's prompt: %w", err)
	}
	c := call{node: turnNode(turn), turn: turn, step: tree.StepOpponent, who: mr.opponent, msgs: messages(pm)}
	resp, _, err := mr.ask(ctx, c)
	if err != nil {
		return err
	}
	// An empty answer never gets here: the attempt loop retries it as a
	// transient failure.
	text := strings.TrimSpace(resp.Text)
	newest := args[len(args)-1]
	reqID := mr.reqID(newest.Seq+1, protocol.Opponent)
	mr.keepReasoning(ctx, reqID, resp.Reasoning)
	res, err := mr.submit(ctx, protocol.Write{
		DebateID: mr.debateID, Type: protocol.Claim, Role: protocol.Opponent, TargetID: newest.ID,
		Content: text, ClientRequestID: reqID,
	})
	if err != nil {
		return err
	}
	mr.wrote(turn, res)
	return nil
}

// reply is the proposer's structured answer.
type reply struct {
	Action  string `json:"action"`
	Content string `json:"content"`
}

// parseReply reads and checks the proposer's JSON answer, objects of what
// it was sent (sent) left out. On its last
// allowed reply only an appeal or a resolution is accepted.
func parseReply(answer string, sent quotes, final bool) (protocol.ArgType, string, error) {
	obj, err := extractJSON(answer, sent)
	if err != nil {
		return "", "", fmt.Errorf(`%w; answer with {"action": "claim" | "appeal" | "resolution", "content": "…"}`, err)
	}
	var r reply
	if err := json.Unmarshal([]byte(obj), &r); err != nil {
		return "", "", fmt.Errorf("decode the answer: %w", err)
	}
	var typ protocol.ArgType
	switch strings.ToLower(strings.TrimSpace(r.Action)) {
	case "claim":
		typ = protocol.Claim
	case "appeal":
		typ = protocol.Appeal
	case "resolution":
		typ = protocol.Resolution
	default:
		return "", "", fmt.Errorf(`action %q: want "claim", "appeal" or "resolution"`, r.Action)
	}
	if final && typ == protocol.Claim {
		return "", "", errors.New(`this is the last allowed reply: action must be "appeal" or "resolution", not "claim"`)
	}
	if strings.TrimSpace(r.Content) == "" {
		return "", "", errors.New("content: must not be empty")
	}
	return typ, strings.TrimSpace(r.Content), nil
}

func (mr *motionRun) proposerTurn(ctx context.Context, args []protocol.Argument, turn int) error {
	mr.started(turn, protocol.Proposer)
	data := mr.turnData(args, turn)
	data.Final = turn >= mr.proto.MaxTurns
	pm, err := mr.opt.Roles.Proposer(data)
	if err != nil {
		return fmt.Errorf("build the proposer's prompt: %w", err)
	}
	c := call{node: turnNode(turn), turn: turn, step: tree.StepProposer, who: mr.proposer, msgs: messages(pm), json: true, schema: replySchema()}
	resp, _, err := mr.ask(ctx, c)
	if err != nil {
		return err
	}
	var typ protocol.ArgType
	var content string
	sent := quotesOf(c.msgs)
	parse := func(s string) (err error) {
		typ, content, err = parseReply(s, sent, data.Final)
		return err
	}
	reasoning := resp.Reasoning
	if problem := parse(resp.Text); problem != nil {
		last, _, err := mr.r.repair(ctx, c, mr.opt.Roles.Repair, resp, problem, parse)
		raw := last.Text
		reasoning = last.Reasoning
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return ctx.Err()
		case data.Final:
			// The turn limit needs an APPEAL whatever the model said.
			mr.out.Errors = append(mr.out.Errors, tree.MotionError{Role: string(protocol.Proposer), Turn: turn, Message: err.Error(), Because: reasonOf(err), Raw: raw})
			mr.e.log.Warn("the proposer's last reply was unusable; appealing on its behalf", "motion", mr.m.ID, "err", err)
			typ, content = protocol.Appeal, fmt.Sprintf("The turn limit (%d) is reached. Please rule on every point still open between the proposer and the opponent, and close the debate.", mr.proto.MaxTurns)
			reasoning = "" // the engine wrote this appeal, not the model
		default:
			return &answerError{err: err, raw: raw}
		}
	}
	newest := args[len(args)-1]
	reqID := mr.reqID(newest.Seq+1, protocol.Proposer)
	mr.keepReasoning(ctx, reqID, reasoning)
	res, err := mr.submit(ctx, protocol.Write{
		DebateID: mr.debateID, Type: typ, Role: protocol.Proposer, TargetID: newest.ID,
		Content: content, ClientRequestID: reqID,
	})
	if err != nil {
		return err
	}
	if typ == protocol.Resolution && res.AutoRuling == nil && !res.Replay {
		mr.e.log.Warn("the automatic ruling after the resolution failed; the arbitrator will rule", "motion", mr.m.ID)
	}
	mr.wrote(turn, res)
	return nil
}

// ruling is the arbitrator's structured answer.
type ruling struct {
	Close   json.RawMessage `json:"close"`
	Content string          `json:"content"`
}

// parseRuling reads and checks the arbitrator's JSON answer, objects of
// what it was sent (sent) left out.
func parseRuling(answer string, sent quotes) (closeFlag bool, content string, err error) {
	obj, err := extractJSON(answer, sent)
	if err != nil {
		return false, "", fmt.Errorf(`%w; answer with {"close": true | false, "content": "…"}`, err)
	}
	var r ruling
	if err := json.Unmarshal([]byte(obj), &r); err != nil {
		return false, "", fmt.Errorf("decode the answer: %w", err)
	}
	switch v := strings.TrimSpace(string(r.Close)); v {
	case "true", "false":
	case "":
		return false, "", errors.New("close: required (true or false)")
	default:
		return false, "", fmt.Errorf("close: want the JSON boolean true or false, got %s", v)
	}
	if strings.TrimSpace(r.Content) == "" {
		return false, "", errors.New("content: must not be empty")
	}
	return protocol.CloseFlag(r.Close), strings.TrimSpace(r.Content), nil
}

func (mr *motionRun) arbitratorTurn(ctx context.Context, args []protocol.Argument, turn, replies int) error {
	newest := args[len(args)-1]
	data := mr.turnData(args, turn)
	data.Final = newest.Type == protocol.Appeal && replies >= mr.proto.MaxTurns
	pm, err := mr.opt.Roles.Arbitrator(data)
	if err != nil {
		return fmt.Errorf("build the arbitrator's prompt: %w", err)
	}
	c := call{node: turnNode(turn), turn: turn, step: tree.StepArbitrator, who: mr.arbitrator, msgs: messages(pm), json: true, schema: rulingSchema()}
	resp, _, err := mr.ask(ctx, c)
	if err != nil {
		return err
	}
	var closeFlag bool
	var content string
	sent := quotesOf(c.msgs)
	parse := func(s string) (err error) {
		closeFlag, content, err = parseRuling(s, sent)
		return err
	}
	reasoning := resp.Reasoning
	if problem := parse(resp.Text); problem != nil {
		last, _, err := mr.r.repair(ctx, c, mr.opt.Roles.Repair, resp, problem, parse)
		raw := last.Text
		reasoning = last.Reasoning
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &answerError{err: err, raw: raw}
		}
	}
	if data.Final && !closeFlag {
		mr.e.log.Info("the ruling at the turn limit closes the debate", "motion", mr.m.ID)
		closeFlag = true
	}
	reqID := mr.reqID(newest.Seq+1, protocol.Arbitrator)
	mr.keepReasoning(ctx, reqID, reasoning)
	res, err := mr.submit(ctx, protocol.Write{
		DebateID: mr.debateID, Type: protocol.Ruling, Role: protocol.Arbitrator, TargetID: newest.ID,
		Content: content, Close: closeFlag, ClientRequestID: reqID,
	})
	if err != nil {
		return err
	}
	mr.wrote(turn, res)
	return nil
}

// waitHuman waits until someone else writes to the debate — a person's
// RULING through the server on the same database — or ctx ends.
func (mr *motionRun) waitHuman(ctx context.Context, d protocol.Debate, newest protocol.Argument, turn int) error {
	log := mr.e.log.With("motion", mr.m.ID, "debate", mr.debateID, "state", d.State)
	log.Info(fmt.Sprintf("waiting for a human ruling on #%d (%s): rule in the web UI of \"debate serve\" or with \"debate ruling --debate-id %s\"",
		newest.Seq, newest.Type, mr.debateID))
	for {
		res, err := mr.opt.Store.Wait(ctx, mr.debateID, protocol.Arbitrator, newest.ID, mr.opt.HumanWait)
		if err != nil {
			return fmt.Errorf("wait for a human ruling: %w", err)
		}
		if res.HasNew || res.Debate.State == protocol.Closed {
			for i, a := range res.Arguments {
				if a.Type == protocol.Ruling {
					closes := res.Debate.State == protocol.Closed && i == len(res.Arguments)-1
					mr.e.emit(tree.Event{Kind: tree.Ruled, Motion: mr.m.ID, Turn: turn, Role: string(a.Role), Argument: string(a.Type), Seq: a.Seq, Closes: closes})
				}
			}
			return nil
		}
		log.Info("still waiting for a human ruling")
	}
}

// record copies the debate's final state and arguments into the motion.
func (mr *motionRun) record(ctx context.Context) {
	d, args, err := mr.opt.Store.Since(ctx, mr.debateID, 0)
	if err != nil {
		if protocol.CodeOf(err) != protocol.CodeDebateNotFound {
			mr.e.log.Warn("read the debate for the report", "motion", mr.m.ID, "err", err)
		}
		return
	}
	mr.out.State = string(d.State)
	mr.out.CreatedAt, mr.out.UpdatedAt = d.CreatedAt, d.UpdatedAt
	mr.out.Turns = proposerReplies(args)
	mr.out.Arguments = make([]tree.MotionArgument, len(args))
	for i, a := range args {
		mr.out.Arguments[i] = tree.MotionArgument{
			ID: a.ID, Seq: a.Seq, Type: string(a.Type), Role: string(a.Role), ParentID: a.ParentID,
			Content: a.Content, Reasoning: mr.reasoningOf(ctx, a.ClientRequestID),
			StateAfter: string(a.StateAfter), Time: a.CreatedAt,
		}
	}
}

// reasoningNote names the note of the reasoning of the write with the given
// client_request_id.
func reasoningNote(reqID string) string { return "motion reasoning " + reqID }

// keepReasoning keeps the reasoning of the model answer about to be written
// with reqID, before the write, so that no written argument loses it: in
// memory, and in the journal for a resumed run.
func (mr *motionRun) keepReasoning(ctx context.Context, reqID, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	mr.reasoning[reqID] = text
	if mr.opt.Journal == nil {
		return
	}
	// The answer is in hand: keep its reasoning even if the run is being stopped.
	if err := mr.opt.Journal.SetNote(context.WithoutCancel(ctx), reasoningNote(reqID), []byte(text)); err != nil {
		mr.e.log.Warn("journal record failed: a resumed run would not report this argument's reasoning", "motion", mr.m.ID, "err", err)
	}
}

// reasoningOf returns the reasoning kept for the write with reqID, from this
// run or, through the journal, from the run it resumes; "" if none (a
// person's ruling, the closing ruling after a resolution, the MOTION).
func (mr *motionRun) reasoningOf(ctx context.Context, reqID string) string {
	if text, ok := mr.reasoning[reqID]; ok || reqID == "" || mr.opt.Journal == nil {
		return text
	}
	v, ok, err := mr.opt.Journal.Note(ctx, reasoningNote(reqID))
	if err != nil {
		mr.e.log.Warn("journal lookup failed: the report lacks an argument's reasoning", "motion", mr.m.ID, "err", err)
	}
	if !ok {
		return ""
	}
	return string(v)
}
