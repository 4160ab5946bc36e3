package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/debatehq/debate/ops"
	"github.com/debatehq/debate/server/client"
)

// defaultWait is how long protocol_wait waits when not told.
const defaultWait = 45 * time.Second

// requestSlack bounds one request to the protocol server beyond the time
// it holds it.
const requestSlack = 10 * time.Second

// claimIn is the input of protocol_submit.
type claimIn struct {
	DebateID        string `json:"debate_id" jsonschema:"id of the debate"`
	Role            string `json:"role" jsonschema:"your role: proposer or opponent"`
	TargetID        string `json:"target_id" jsonschema:"id of the argument you answer: the argument_id of your last wait or write"`
	Content         string `json:"content" jsonschema:"the CLAIM; keep it short"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// targetedIn is the input of protocol_appeal and
// protocol_request_completion.
type targetedIn struct {
	DebateID        string `json:"debate_id" jsonschema:"id of the debate"`
	TargetID        string `json:"target_id" jsonschema:"id of the argument it answers: the argument_id of your last wait"`
	Content         string `json:"content" jsonschema:"what you ask for: an appeal's context and options (the last being that the arbitrator proposes another way), or the resolution's summary"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// rulingIn is the input of protocol_ruling.
type rulingIn struct {
	DebateID        string `json:"debate_id" jsonschema:"id of the debate"`
	Content         string `json:"content" jsonschema:"the RULING"`
	Close           bool   `json:"close,omitempty" jsonschema:"close the debate with this ruling"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// interventionIn is the input of protocol_intervention.
type interventionIn struct {
	DebateID        string `json:"debate_id" jsonschema:"id of the debate"`
	Content         string `json:"content,omitempty" jsonschema:"why you stop the floor (optional)"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// waitIn is the input of protocol_wait.
type waitIn struct {
	ops.Wait
	WaitSeconds float64 `json:"waitSeconds,omitempty" jsonschema:"wait up to this many seconds (at most 50, default 45); on status timeout call again"`
}

// contextIn is the input of protocol_get_context.
type contextIn struct {
	DebateID string `json:"debate_id" jsonschema:"id of the debate"`
	Limit    int    `json:"limit,omitempty" jsonschema:"show only the last n arguments after the MOTION (default: all)"`
}

// docIn is the input of protocol_doc_get.
type docIn struct {
	DocID   string `json:"doc_id" jsonschema:"id of the document"`
	Version int    `json:"version,omitempty" jsonschema:"version to read (default: the latest)"`
}

// listIn is the input of protocol_list.
type listIn struct {
	State                string `json:"state,omitempty" jsonschema:"only debates in this state: AWAITING_OPPONENT, AWAITING_PROPOSER, AWAITING_ARBITRATOR, INTERVENTION_PENDING or CLOSED"`
	PendingFirstOpponent bool   `json:"pending_first_opponent,omitempty" jsonschema:"only debates whose MOTION no opponent has answered yet"`
	Limit                int    `json:"limit,omitempty" jsonschema:"at most n debates"`
	Offset               int    `json:"offset,omitempty" jsonschema:"skip the first n debates"`
}

// The checks of each tool's input, before any server is asked.
func (in claimIn) Check() error        { return in.write().Check() }
func (in targetedIn) Check() error     { return targeted(ops.Appeal, in).Check() } // as a resolution's
func (in rulingIn) Check() error       { return in.write().Check() }
func (in interventionIn) Check() error { return in.write().Check() }
func (in contextIn) Check() error      { return ops.CheckRead(in.DebateID) }
func (in docIn) Check() error          { return ops.CheckDoc(in.DocID, in.Version) }
func (in listIn) Check() error         { return ops.CheckList(in.options()) }

func (in claimIn) write() ops.Write {
	return ops.Write{Kind: ops.Claim, DebateID: in.DebateID, Role: in.Role, TargetID: in.TargetID,
		Content: in.Content, ClientRequestID: in.ClientRequestID}
}

func (in rulingIn) write() ops.Write {
	return ops.Write{Kind: ops.Ruling, DebateID: in.DebateID, Content: in.Content, Close: in.Close,
		ClientRequestID: in.ClientRequestID}
}

func (in interventionIn) write() ops.Write {
	return ops.Write{Kind: ops.Intervention, DebateID: in.DebateID, Content: in.Content,
		ClientRequestID: in.ClientRequestID}
}

func (in listIn) options() client.ListOptions {
	return client.ListOptions{State: in.State, PendingFirstOpponent: in.PendingFirstOpponent, Limit: in.Limit, Offset: in.Offset}
}

func targeted(k ops.Kind, in targetedIn) ops.Write {
	return ops.Write{Kind: k, DebateID: in.DebateID, TargetID: in.TargetID, Content: in.Content, ClientRequestID: in.ClientRequestID}
}

// checked is a tool's input that can be refused before any server is
// asked.
type checked interface{ Check() error }

// addTool adds a protocol tool to s that checks its input, then makes the
// server ready (ready may start it; nil when it runs already), and only
// then does its work: an input refused starts no server.
func addTool[In checked, Out any](s *sdk.Server, ready func(context.Context) error, t *sdk.Tool,
	do func(context.Context, In) (Out, error)) {
	sdk.AddTool(s, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
		var zero Out
		if err := in.Check(); err != nil {
			return answer(zero, err)
		}
		if ready != nil {
			if err := ready(ctx); err != nil {
				return answer(zero, err)
			}
		}
		return answer(do(ctx, in))
	})
}

// addProtocolTools adds the protocol tools to s.
func addProtocolTools(s *sdk.Server, d ops.Debates, ready func(context.Context) error) {
	addTool(s, ready, &sdk.Tool{Name: "protocol_create", Title: "Open a debate (proposer)",
		Description: `Open a debate with its MOTION, as the proposer. The debate then awaits the opponent: call protocol_wait with next_wait. Resending the same client_request_id returns the debate already created.`},
		func(ctx context.Context, in ops.Create) (ops.Written, error) { return ops.Open(ctx, d, in) })
	addTool(s, ready, &sdk.Tool{Name: "protocol_submit", Title: "Submit a CLAIM (proposer or opponent)",
		Description: `Submit a CLAIM: the opponent answers the MOTION or the proposer's last CLAIM; the proposer answers the opponent's CLAIM or aligns to a RULING. Then wait for the other side with protocol_wait (next_wait).`},
		func(ctx context.Context, in claimIn) (ops.Written, error) { return ops.Send(ctx, d, in.write()) })
	addTool(s, ready, &sdk.Tool{Name: "protocol_appeal", Title: "Ask the arbitrator for a ruling (proposer)",
		Description: `Ask the arbitrator for a RULING, as the proposer, on the argument target_id: give the context and the options, the last being that the arbitrator proposes another way. Both sides then wait for the ruling.`},
		func(ctx context.Context, in targetedIn) (ops.Written, error) {
			return ops.Send(ctx, d, targeted(ops.Appeal, in))
		})
	addTool(s, ready, &sdk.Tool{Name: "protocol_request_completion", Title: "Ask to finish (proposer)",
		Description: `Ask to finish the debate, as the proposer (a RESOLUTION). The server approves it at once with an automatic closing RULING (auto_ruling), and the debate is CLOSED.`},
		func(ctx context.Context, in targetedIn) (ops.Written, error) {
			return ops.Send(ctx, d, targeted(ops.Resolution, in))
		})
	addTool(s, ready, &sdk.Tool{Name: "protocol_ruling", Title: "Rule (arbitrator)",
		Description: `Rule, as the arbitrator, on an APPEAL, a RESOLUTION or your INTERVENTION. Without close the floor returns to the proposer; with close the debate is CLOSED.`},
		func(ctx context.Context, in rulingIn) (ops.Written, error) { return ops.Send(ctx, d, in.write()) })
	addTool(s, ready, &sdk.Tool{Name: "protocol_intervention", Title: "Stop the floor (arbitrator)",
		Description: `Stop the floor, as the arbitrator, while the proposer or the opponent is awaited. Both sides then wait for your RULING.`},
		func(ctx context.Context, in interventionIn) (ops.Written, error) { return ops.Send(ctx, d, in.write()) })
	addTool(s, ready, &sdk.Tool{Name: "protocol_doc_write", Title: "Share a document",
		Description: `Store long material (a plan, a review, a log) as a document and cite its doc_id in a short argument: without doc_id it creates version 1 of a new document, with doc_id it stores the next version of that one.`},
		func(ctx context.Context, in ops.DocWrite) (ops.Doc, error) { return ops.WriteDoc(ctx, d, in) })
	addReadTools(s, d, ready)
}

// addReadTools adds the protocol tools that write nothing to s.
func addReadTools(s *sdk.Server, d ops.Debates, ready func(context.Context) error) {
	addTool(s, ready, &sdk.Tool{Name: "protocol_wait", Title: "Wait for one's turn",
		Description: `Wait for the next argument after argument_id (usually the one you just wrote) and say what your role should do: action respond (answer it with target_id argument_id), wait_for_ruling, align_to_ruling, wait_for_proposer, wait_for_opponent or debate_closed (stop). arguments lists every argument after argument_id. On status timeout nothing came yet: call again with the same input.`,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, in waitIn) (ops.Waited, error) {
			return ops.Await(ctx, d, in.Wait, wait(in.WaitSeconds, defaultWait), requestSlack)
		})
	addTool(s, ready, &sdk.Tool{Name: "protocol_get_context", Title: "Read a debate",
		Description: `A debate: its state, its MOTION, its arguments oldest first (each with seq, role, type and parent_id), last_argument_id, and available_actions: what each role may write now.`,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, in contextIn) (ops.Context, error) {
			limit := in.Limit
			if limit <= 0 {
				limit = -1
			}
			return ops.Read(ctx, d, in.DebateID, limit)
		})
	addTool(s, ready, &sdk.Tool{Name: "protocol_doc_get", Title: "Read a document",
		Description: `A version of a document (the latest by default): its content, version and latest_version.`,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, in docIn) (ops.Doc, error) { return ops.ReadDoc(ctx, d, in.DocID, in.Version) })
	addTool(s, ready, &sdk.Tool{Name: "protocol_list", Title: "List debates",
		Description: `Debates, last updated first, with the total that match.`,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, in listIn) (ops.Listing, error) { return ops.List(ctx, d, in.options()) })
}
