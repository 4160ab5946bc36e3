package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/debatehq/debate/protocol"
)

// maxIDLen bounds client-chosen ids (debate ids, client request ids).
const maxIDLen = 200

// maxTitleLen bounds debate and document titles, in characters.
const maxTitleLen = 500

const argCols = "id, debate_id, parent_id, type, role, content, client_request_id, seq, state_after, created_at"

// Create creates a debate and its MOTION (seq 1) in one transaction. Sending
// the same ID and ClientRequestID again is a replay: the original MOTION and
// the current debate come back with Replay set, even after the debate moved on
// or closed. The same ID with another ClientRequestID is refused with
// INVALID_INPUT, as vjcspy/aweave's server answers. Creates are committed
// together with concurrent writes, as Submit describes.
func (s *Store) Create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error) {
	if err := s.validateCreate(nd); err != nil {
		return protocol.Result{}, err
	}
	return s.db.create(ctx, nd)
}

func (s *Store) validateCreate(nd protocol.NewDebate) error {
	if err := checkID("debate_id", nd.ID); err != nil {
		return err
	}
	if strings.TrimSpace(nd.Title) == "" {
		return invalid("title is required", "give the debate a short title")
	}
	if utf8.RuneCountInString(nd.Title) > maxTitleLen {
		return invalid(fmt.Sprintf("title is longer than %d characters", maxTitleLen), "shorten the title")
	}
	if !nd.Type.Valid() {
		_, err := protocol.ParseDebateType(string(nd.Type))
		return err
	}
	if err := checkID("client_request_id", nd.ClientRequestID); err != nil {
		return err
	}
	return s.checkContent(protocol.Motion, nd.Content)
}

// Submit runs the write pipeline (docs/PROTOCOL.md) for one argument in a
// BEGIN IMMEDIATE transaction — size, debate exists, idempotency, target
// belongs to the debate, transition, the arbitrator's word not bypassed
// (protocol.CheckTarget), seq = max+1, insert, state and updated_at — then
// notifies subscribers. A target that is not an argument of the debate is
// INVALID_INPUT, as vjcspy/aweave's server answers. A replay (same debate and
// ClientRequestID) returns the original argument and the current debate,
// writes nothing and notifies no one. After a new RESOLUTION the store adds the
// closing RULING as arbitrator; if that fails the RESOLUTION stands and
// AutoRuling is nil.
//
// Concurrent Create and Submit calls are committed together: one caller runs
// the writes queued (at most 64, at most 4 of one debate) in queue order, each
// in a savepoint of one transaction, so a refused or failed write changes
// nothing while the others commit, and a write sees those before it in the
// batch (a replay of a write earlier in the same batch returns that write).
// Each caller gets its own outcome after the commit. When more writes of one
// debate are queued than a batch takes, the oldest and others spread evenly
// over that debate's queue go first (see writer.take).
//
// If ctx ends while the write is still queued, Submit returns ctx's error and
// nothing is written. Once the writer has taken the write into a batch, Submit
// waits for that batch (a few milliseconds) and returns the write's outcome,
// which may be a committed argument. After Close, Submit fails.
func (s *Store) Submit(ctx context.Context, w protocol.Write) (protocol.Result, error) {
	if err := s.validateWrite(w); err != nil {
		return protocol.Result{}, err
	}
	if w.ClientRequestID == "" {
		w.ClientRequestID = newID()
	}
	res, err := s.db.submit(ctx, w)
	if err != nil {
		return res, s.advise(ctx, w, err)
	}
	return res, nil
}

// advise completes a refusal of w with the next step for w's role
// (protocol.Advise), computed from the debate as it is now: the refusal comes
// from the write's transaction, the newest argument is read after it.
func (s *Store) advise(ctx context.Context, w protocol.Write, err error) error {
	switch protocol.CodeOf(err) {
	case protocol.CodeActionNotAllowed, protocol.CodeInvalidInput:
	default:
		return err
	}
	d, newest, rerr := s.db.newest(ctx, w.DebateID)
	if rerr != nil {
		return err
	}
	return protocol.Advise(err, w, d, newest)
}

func (s *Store) validateWrite(w protocol.Write) error {
	if w.DebateID == "" {
		return invalid("debate_id is required", "")
	}
	if w.Type == protocol.Motion {
		return invalid("a MOTION is only written when the debate is created", "create a new debate")
	}
	if !w.Type.Valid() {
		_, err := protocol.ParseArgType(string(w.Type))
		return err
	}
	if !w.Role.Valid() {
		_, err := protocol.ParseRole(string(w.Role))
		return err
	}
	if w.ClientRequestID != "" || w.Type.NeedsRequestID() {
		if err := checkID("client_request_id", w.ClientRequestID); err != nil {
			return err
		}
	}
	if w.Type.NeedsTarget() && w.TargetID == "" {
		return invalid("target_id is required for "+string(w.Type), "pass the id of the argument you answer")
	}
	return s.checkContent(w.Type, w.Content)
}

func (s *Store) checkContent(t protocol.ArgType, content string) error {
	if n := utf8.RuneCountInString(content); n > s.opts.ContentLimit {
		return &protocol.Error{
			Code:       protocol.CodeContentTooLarge,
			Message:    fmt.Sprintf("content has %d characters, the limit is %d", n, s.opts.ContentLimit),
			Suggestion: "put the full text in a document (debate docs create) and send a short summary with its doc_id",
		}
	}
	if t.NeedsContent() && strings.TrimSpace(content) == "" {
		return invalid("content is required for "+string(t), "")
	}
	return nil
}

const debateCols = "id, title, debate_type, state, created_at, updated_at"

type scanner interface{ Scan(dest ...any) error }

func prefixed(p, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = p + parts[i]
	}
	return strings.Join(parts, ", ")
}

func newID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

func notFound(debateID string) error {
	return protocol.Errorf(protocol.CodeDebateNotFound, "debate %s not found", debateID).
		WithSuggestion("check the id (debate list shows existing debates)")
}

func invalid(msg, suggestion string) error {
	return &protocol.Error{Code: protocol.CodeInvalidInput, Message: msg, Suggestion: suggestion}
}

func checkID(field, v string) error {
	if v == "" {
		return invalid(field+" is required", "")
	}
	if len(v) > maxIDLen {
		return invalid(fmt.Sprintf("%s is longer than %d bytes", field, maxIDLen), "use a shorter id, e.g. a UUID")
	}
	// Debate ids travel in URL paths and command lines: no spaces there.
	noSpace := field == "debate_id"
	for _, r := range v {
		if unicode.IsControl(r) {
			return invalid(field+" must not contain control characters", "use a UUID (debate generate-id)")
		}
		if noSpace && unicode.IsSpace(r) {
			return invalid(field+" must not contain spaces", "use a UUID (debate generate-id)")
		}
	}
	return nil
}
