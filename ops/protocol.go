package ops

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// Debates is what the protocol operations need of a protocol server;
// *client.Client is one.
type Debates interface {
	CreateDebate(ctx context.Context, req api.CreateDebateRequest) (api.WriteResult, error)
	Submit(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error)
	Appeal(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error)
	Resolution(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error)
	Intervention(ctx context.Context, debateID string, req api.InterventionRequest) (api.WriteResult, error)
	Ruling(ctx context.Context, debateID string, req api.RulingRequest) (api.WriteResult, error)
	GetDebate(ctx context.Context, id string, limit int) (api.DebateContext, error)
	ListDebates(ctx context.Context, o client.ListOptions) (api.DebateList, error)
	Wait(ctx context.Context, debateID, role, afterArgumentID string, o client.WaitOptions) (api.PollResult, error)
	CreateDocument(ctx context.Context, req api.CreateDocumentRequest) (api.DocumentResult, error)
	SubmitDocument(ctx context.Context, id string, req api.SubmitDocumentRequest) (api.DocumentResult, error)
	GetDocument(ctx context.Context, id string, version int) (api.DocumentResult, error)
}

// Statuses of a wait.
const (
	WaitNew     = "new_argument"  // an argument after the one given arrived
	WaitClosed  = "debate_closed" // the debate is closed
	WaitTimeout = "timeout"       // nothing new before the deadline
)

// Kind names an argument write besides the MOTION of Create.
type Kind string

// The argument writes.
const (
	Claim        Kind = "claim"        // proposer or opponent
	Appeal       Kind = "appeal"       // proposer asks for a ruling
	Resolution   Kind = "resolution"   // proposer asks to finish
	Ruling       Kind = "ruling"       // arbitrator
	Intervention Kind = "intervention" // arbitrator stops the floor
)

// Create is a new debate with its MOTION.
type Create struct {
	DebateID        string `json:"debate_id,omitempty" jsonschema:"id of the new debate; a fresh one when empty"`
	Title           string `json:"title" jsonschema:"title of the debate"`
	Type            string `json:"type" jsonschema:"general_debate or coding_plan_debate"`
	Content         string `json:"content" jsonschema:"the MOTION: what the proposer proposes"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// Check returns an *InputError naming the first field that is missing or
// wrong.
func (c Create) Check() error {
	if c.Title == "" {
		return missing("title", "")
	}
	if c.Type == "" {
		return missing("type", "general_debate or coding_plan_debate")
	}
	if _, err := protocol.ParseDebateType(c.Type); err != nil {
		return &InputError{Field: "type", Problem: fmt.Sprintf("%q: want general_debate or coding_plan_debate", c.Type)}
	}
	return nil
}

// Write is an argument for a debate that exists.
type Write struct {
	Kind            Kind   `json:"-"`
	DebateID        string `json:"debate_id" jsonschema:"id of the debate"`
	Role            string `json:"role,omitempty" jsonschema:"your role, proposer or opponent (claims only)"`
	TargetID        string `json:"target_id,omitempty" jsonschema:"id of the argument you answer: the argument_id of the last wait or write"`
	Content         string `json:"content,omitempty" jsonschema:"the text of the argument; keep it short and share long material as a document"`
	Close           bool   `json:"close,omitempty" jsonschema:"rulings only: close the debate with this ruling"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// Check returns an *InputError naming the first field that is missing or
// wrong for the write's kind.
func (w Write) Check() error {
	if w.DebateID == "" {
		return missing("debate_id", "")
	}
	if w.Kind == Claim {
		if w.Role == "" {
			return missing("role", "proposer or opponent")
		}
		if w.Role != string(protocol.Proposer) && w.Role != string(protocol.Opponent) {
			return &InputError{Field: "role", Problem: fmt.Sprintf("%q: want proposer or opponent (the arbitrator uses ruling and intervention)", w.Role)}
		}
	}
	if (w.Kind == Claim || w.Kind == Appeal || w.Kind == Resolution) && w.TargetID == "" {
		return missing("target_id", "the argument_id you answer")
	}
	return nil
}

// Written is the answer of every write: the ids and the state an agent
// needs first, what it may do next, and the server's data as it sent it.
type Written struct {
	DebateID         string              `json:"debate_id"`
	ArgumentID       string              `json:"argument_id"`
	Seq              int                 `json:"seq"`
	Type             string              `json:"type"`
	Role             string              `json:"role"`
	State            string              `json:"state"`
	Replay           bool                `json:"replay"`
	ClientRequestID  string              `json:"client_request_id"`
	AvailableActions map[string][]string `json:"available_actions"`
	// Next is the wait for the answer to this argument, as its role;
	// absent once the debate is closed.
	Next       *Wait         `json:"next_wait,omitempty"`
	Debate     api.Debate    `json:"debate"`
	Argument   api.Argument  `json:"argument"`
	AutoRuling *api.Argument `json:"auto_ruling,omitempty"`
}

// Open creates a debate with its MOTION, with a fresh id when none is
// given.
func Open(ctx context.Context, d Debates, c Create) (Written, error) {
	if err := c.Check(); err != nil {
		return Written{}, err
	}
	if c.DebateID == "" {
		c.DebateID = uuid.NewString()
	}
	r, err := d.CreateDebate(ctx, api.CreateDebateRequest{DebateID: c.DebateID, Title: c.Title, DebateType: c.Type,
		MotionContent: c.Content, ClientRequestID: c.ClientRequestID})
	if err != nil {
		return Written{}, err
	}
	return written(r), nil
}

// Send writes w to its debate.
func Send(ctx context.Context, d Debates, w Write) (Written, error) {
	if err := w.Check(); err != nil {
		return Written{}, err
	}
	arg := api.ArgumentRequest{Role: w.Role, TargetID: w.TargetID, Content: w.Content, ClientRequestID: w.ClientRequestID}
	var r api.WriteResult
	var err error
	switch w.Kind {
	case Claim:
		r, err = d.Submit(ctx, w.DebateID, arg)
	case Appeal:
		r, err = d.Appeal(ctx, w.DebateID, arg)
	case Resolution:
		r, err = d.Resolution(ctx, w.DebateID, arg)
	case Ruling:
		r, err = d.Ruling(ctx, w.DebateID, api.RulingRequest{Content: w.Content, Close: w.Close, ClientRequestID: w.ClientRequestID})
	case Intervention:
		r, err = d.Intervention(ctx, w.DebateID, api.InterventionRequest{Content: w.Content, ClientRequestID: w.ClientRequestID})
	default:
		return Written{}, fmt.Errorf("unknown kind of write %q", w.Kind)
	}
	if err != nil {
		return Written{}, err
	}
	return written(r), nil
}

func written(r api.WriteResult) Written {
	out := Written{DebateID: r.Debate.ID, ArgumentID: r.Argument.ID, Seq: r.Argument.Seq,
		Type: r.Argument.Type, Role: r.Argument.Role, State: r.Debate.State, Replay: r.Replay,
		ClientRequestID: r.Argument.ClientRequestID, AvailableActions: api.AllActions(protocol.State(r.Debate.State)),
		Debate: r.Debate, Argument: r.Argument, AutoRuling: r.AutoRuling}
	if r.Debate.State != string(protocol.Closed) {
		out.Next = &Wait{DebateID: r.Debate.ID, Role: r.Argument.Role, After: r.Argument.ID}
	}
	return out
}

// Context is a debate as get-context shows it.
type Context struct {
	DebateID string `json:"debate_id"`
	State    string `json:"state"`
	// LastArgumentID is the newest argument shown: what to answer or to
	// wait after.
	LastArgumentID   string              `json:"last_argument_id"`
	AvailableActions map[string][]string `json:"available_actions"`
	Debate           api.Debate          `json:"debate"`
	Motion           *api.Argument       `json:"motion"`
	Arguments        []api.Argument      `json:"arguments"`
}

// Read returns the debate id with its last limit arguments after the
// MOTION; a negative limit shows every one.
func Read(ctx context.Context, d Debates, id string, limit int) (Context, error) {
	if err := CheckRead(id); err != nil {
		return Context{}, err
	}
	r, err := d.GetDebate(ctx, id, limit)
	if err != nil {
		return Context{}, err
	}
	out := Context{DebateID: r.Debate.ID, State: r.Debate.State, AvailableActions: r.AvailableActions,
		Debate: r.Debate, Motion: r.Motion, Arguments: r.Arguments}
	if out.Arguments == nil {
		out.Arguments = []api.Argument{}
	}
	if out.AvailableActions == nil {
		out.AvailableActions = api.AllActions(protocol.State(r.Debate.State))
	}
	switch {
	case len(r.Arguments) > 0:
		out.LastArgumentID = r.Arguments[len(r.Arguments)-1].ID
	case r.Motion != nil:
		out.LastArgumentID = r.Motion.ID
	}
	return out, nil
}

// CheckRead returns an *InputError when Read of debate id would be refused.
func CheckRead(id string) error {
	if id == "" {
		return missing("debate_id", "")
	}
	return nil
}

// Listing is a page of debates with the total that match.
type Listing struct {
	Debates []api.Debate `json:"debates"`
	Total   int          `json:"total"`
}

// List lists debates, last updated first.
func List(ctx context.Context, d Debates, o client.ListOptions) (Listing, error) {
	if err := CheckList(o); err != nil {
		return Listing{}, err
	}
	r, err := d.ListDebates(ctx, o)
	if err != nil {
		return Listing{}, err
	}
	if r.Debates == nil {
		r.Debates = []api.Debate{}
	}
	return Listing{r.Debates, r.Total}, nil
}

// CheckList returns an *InputError naming the first filter of o that is
// wrong.
func CheckList(o client.ListOptions) error {
	if o.State != "" {
		if _, err := protocol.ParseState(o.State); err != nil {
			return &InputError{Field: "state", Problem: fmt.Sprintf("%q: want one of AWAITING_OPPONENT, AWAITING_PROPOSER, AWAITING_ARBITRATOR, INTERVENTION_PENDING, CLOSED", o.State)}
		}
	}
	if o.Limit < 0 || o.Offset < 0 {
		return &InputError{Field: "limit", Problem: fmt.Sprintf("and offset must be 0 or more (got %d and %d)", o.Limit, o.Offset)}
	}
	return nil
}

// Wait is a wait for the next argument of a debate, as a role.
type Wait struct {
	DebateID string `json:"debate_id" jsonschema:"id of the debate"`
	Role     string `json:"role" jsonschema:"your role: proposer, opponent or arbitrator"`
	After    string `json:"argument_id,omitempty" jsonschema:"wait for an argument after this one (usually the one you just wrote); empty answers with the newest"`
}

// Check returns an *InputError naming the first field that is missing or
// wrong.
func (w Wait) Check() error {
	if w.DebateID == "" {
		return missing("debate_id", "")
	}
	if w.Role == "" {
		return missing("role", "proposer, opponent or arbitrator")
	}
	if _, err := protocol.ParseRole(w.Role); err != nil {
		return &InputError{Field: "role", Problem: fmt.Sprintf("%q: want proposer, opponent or arbitrator", w.Role)}
	}
	return nil
}

// Waited is what a wait found.
type Waited struct {
	// Status is new_argument, debate_closed or timeout.
	Status         string `json:"status"`
	HasNewArgument bool   `json:"has_new_argument"`
	// Action is what the waiting role should do: respond, wait_for_ruling,
	// align_to_ruling, wait_for_proposer, wait_for_opponent or
	// debate_closed.
	Action      string `json:"action,omitempty"`
	DebateID    string `json:"debate_id"`
	Role        string `json:"role"`
	DebateState string `json:"debate_state"`
	LastSeenSeq int    `json:"last_seen_seq"`
	// ArgumentID is the id of Argument: the target of an answer and where
	// the next wait starts.
	ArgumentID string        `json:"argument_id,omitempty"`
	Argument   *api.Argument `json:"argument,omitempty"`
	// Arguments are every argument after the one waited after, oldest
	// first, so that a CLAIM followed by an INTERVENTION and a RULING is
	// not missed.
	Arguments        []api.Argument `json:"arguments"`
	AvailableActions []string       `json:"available_actions"`
	Message          string         `json:"message,omitempty"`
}

// Await waits up to deadline for an argument after w.After, riding out a
// server that restarts meanwhile; slack bounds one request beyond the time
// the server holds it. At the deadline it answers with status timeout.
func Await(ctx context.Context, d Debates, w Wait, deadline, slack time.Duration) (Waited, error) {
	if err := w.Check(); err != nil {
		return Waited{}, err
	}
	if deadline <= 0 {
		return Waited{}, &InputError{Field: "deadline", Problem: fmt.Sprintf("must be positive (got %s)", deadline)}
	}
	res, err := d.Wait(ctx, w.DebateID, w.Role, w.After, client.WaitOptions{
		Deadline: time.Now().Add(deadline), MaxHold: api.MaxWait, Slack: slack})
	if err != nil {
		return Waited{}, err
	}
	out := Waited{HasNewArgument: res.HasNewArgument, Action: res.Action, DebateID: w.DebateID,
		Role: w.Role, DebateState: res.DebateState, LastSeenSeq: res.LastSeenSeq, Argument: res.Argument,
		Arguments: res.Arguments, AvailableActions: res.AvailableActions}
	if out.Arguments == nil {
		out.Arguments = []api.Argument{}
	}
	if out.AvailableActions == nil {
		out.AvailableActions = api.Actions(protocol.State(res.DebateState), protocol.Role(w.Role))
	}
	if res.Argument != nil {
		out.ArgumentID = res.Argument.ID
	}
	switch {
	case res.Action == string(protocol.DebateClosed):
		out.Status = WaitClosed
	case res.HasNewArgument:
		out.Status = WaitNew
	default:
		out.Status = WaitTimeout
		out.Message = fmt.Sprintf("nothing new within %s; this is normal, wait again", deadline)
	}
	return out, nil
}
