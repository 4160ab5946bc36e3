// Package client is the typed Go client of the protocol server (`debate
// serve`), used by the agent commands. Every route has a method; answers and
// requests are the api package's types.
//
// Failures are *Error: the server's code, message, suggestion, current state
// and allowed roles with the HTTP status, or CodeUnreachable / CodeTimeout
// when no answer came. Writes carry a client_request_id (generated when the
// request has none) and are retried with the same id after transient
// failures for up to WriteRetry (30 s), which the server's idempotency makes
// safe; reads are retried for up to ReadRetry; Poll is not retried, while
// Wait rides out a server that does not answer until its deadline, by the
// same policy.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// Codes of failures that have no answer from the server.
const (
	CodeUnreachable = "UNREACHABLE" // no connection, or it broke before an answer
	CodeTimeout     = "TIMEOUT"     // the context's deadline or the HTTP client's timeout passed
)

// maxResponse bounds a response body (a document is at most a few MiB).
const maxResponse = 32 << 20

// Error is a failed call.
type Error struct {
	// Status is the HTTP status, 0 when no answer came.
	Status       int
	Code         string
	Message      string
	Suggestion   string
	CurrentState string
	AllowedRoles []string
	RequestID    string
	// Err is the network cause for CodeUnreachable and CodeTimeout.
	Err error
}

// Error returns the code and the message.
func (e *Error) Error() string {
	msg := e.Code + ": " + e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the network cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Retry budgets: how long after its first attempt a call may still be
// retried after a transient failure.
const (
	// WriteRetry is a write's: long enough to ride out a server restart.
	// Every attempt carries the same client_request_id, so a write the
	// server committed before the connection broke is answered as a replay.
	WriteRetry = 30 * time.Second
	// ReadRetry is a read's.
	ReadRetry = 2 * time.Second
	// maxBackoff caps the pause between attempts.
	maxBackoff = 2 * time.Second
)

// Client talks to one server. It is safe for concurrent use.
type Client struct {
	base    string
	token   string
	hc      *http.Client
	backoff time.Duration // first pause between attempts; doubles each time
}

// New returns a client for the server at baseURL (such as
// "http://127.0.0.1:3456"). token, when not empty, is sent as a bearer
// token. httpClient nil means http.DefaultClient; give it no Timeout shorter
// than the longest Poll wait.
func New(baseURL, token string, httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	return &Client{base: strings.TrimRight(baseURL, "/"), token: token, hc: httpClient, backoff: 100 * time.Millisecond}
}

// Health checks that the server answers (and that the token is accepted).
func (c *Client) Health(ctx context.Context) error {
	var h api.Health
	return c.do(ctx, http.MethodGet, "/health", nil, nil, &h, 0)
}

// CreateDebate creates a debate with its MOTION.
func (c *Client) CreateDebate(ctx context.Context, req api.CreateDebateRequest) (api.WriteResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	var out api.WriteResult
	return out, c.post(ctx, "/debates", req.ClientRequestID, req, &out)
}

// ListOptions filter ListDebates; zero values are the server's defaults.
type ListOptions struct {
	State                string
	PendingFirstOpponent bool
	Limit, Offset        int
}

// ListDebates lists debates, last updated first.
func (c *Client) ListDebates(ctx context.Context, o ListOptions) (api.DebateList, error) {
	q := url.Values{}
	if o.State != "" {
		q.Set("state", o.State)
	}
	if o.PendingFirstOpponent {
		q.Set("pending_first_opponent", "true")
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Offset > 0 {
		q.Set("offset", strconv.Itoa(o.Offset))
	}
	var out api.DebateList
	return out, c.do(ctx, http.MethodGet, "/debates", q, nil, &out, ReadRetry)
}

// GetDebate returns a debate with its MOTION and its last limit other
// arguments (all of them when limit is negative).
func (c *Client) GetDebate(ctx context.Context, id string, limit int) (api.DebateContext, error) {
	q := url.Values{}
	if limit >= 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out api.DebateContext
	return out, c.do(ctx, http.MethodGet, debatePath(id, ""), q, nil, &out, ReadRetry)
}

// DeleteDebate deletes a debate and its arguments.
func (c *Client) DeleteDebate(ctx context.Context, id string) error {
	var out api.Deleted
	return c.do(ctx, http.MethodDelete, debatePath(id, ""), nil, nil, &out, ReadRetry)
}

// Submit submits a CLAIM (req.Role is the proposer or the opponent).
func (c *Client) Submit(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	return c.write(ctx, debatePath(debateID, "arguments"), req.ClientRequestID, req)
}

// Appeal submits the proposer's APPEAL.
func (c *Client) Appeal(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error) {
	req.Role = ""
	req.ClientRequestID = requestID(req.ClientRequestID)
	return c.write(ctx, debatePath(debateID, "appeal"), req.ClientRequestID, req)
}

// Resolution submits the proposer's RESOLUTION; the server closes the debate
// with an automatic RULING (in the result's AutoRuling).
func (c *Client) Resolution(ctx context.Context, debateID string, req api.ArgumentRequest) (api.WriteResult, error) {
	req.Role = ""
	req.ClientRequestID = requestID(req.ClientRequestID)
	return c.write(ctx, debatePath(debateID, "resolution"), req.ClientRequestID, req)
}

// Intervention submits the arbitrator's INTERVENTION.
func (c *Client) Intervention(ctx context.Context, debateID string, req api.InterventionRequest) (api.WriteResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	return c.write(ctx, debatePath(debateID, "intervention"), req.ClientRequestID, req)
}

// Ruling submits the arbitrator's RULING; req.Close closes the debate.
func (c *Client) Ruling(ctx context.Context, debateID string, req api.RulingRequest) (api.WriteResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	return c.write(ctx, debatePath(debateID, "ruling"), req.ClientRequestID, req)
}

// write posts an argument whose client_request_id is key.
func (c *Client) write(ctx context.Context, path, key string, body any) (api.WriteResult, error) {
	var out api.WriteResult
	return out, c.post(ctx, path, key, body, &out)
}

// post sends a write whose client_request_id is key, so that every retry
// carries the same one, and retries it for up to WriteRetry. The key also
// goes in the Idempotency-Key header, which lets net/http send the write
// again at once when a kept-alive connection turns out closed before its
// answer.
func (c *Client) post(ctx context.Context, path, key string, body, out any) error {
	return c.doEach(ctx, http.MethodPost, path, nil, key, body, out, WriteRetry, 0)
}

// Poll asks for the newest argument after afterArgumentID (any argument when
// empty) with the action for role. With wait > 0 the server holds the request
// up to wait (at most 60 s) until something new is committed or the debate
// is closed; with 0 it answers at once. A poll is not retried: the caller's
// loop decides how long to wait for a server that does not answer.
func (c *Client) Poll(ctx context.Context, debateID, role, afterArgumentID string, wait time.Duration) (api.PollResult, error) {
	return c.poll(ctx, debateID, role, afterArgumentID, wait, 0, 0)
}

// poll is Poll retrying transient failures for retryFor, each attempt
// bounded by attempt (0: only by ctx).
func (c *Client) poll(ctx context.Context, debateID, role, afterArgumentID string, wait, retryFor, attempt time.Duration) (api.PollResult, error) {
	q := url.Values{"role": {role}}
	if afterArgumentID != "" {
		q.Set("argument_id", afterArgumentID)
	}
	if wait > 0 {
		q.Set("wait", strconv.FormatFloat(wait.Seconds(), 'f', -1, 64))
	}
	var out api.PollResult
	return out, c.doEach(ctx, http.MethodGet, debatePath(debateID, "poll"), q, "", nil, &out, retryFor, attempt)
}

// CreateDocument stores version 1 of a new document.
func (c *Client) CreateDocument(ctx context.Context, req api.CreateDocumentRequest) (api.DocumentResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	var out api.DocumentResult
	return out, c.post(ctx, "/documents", req.ClientRequestID, req, &out)
}

// SubmitDocument stores the next version of document id.
func (c *Client) SubmitDocument(ctx context.Context, id string, req api.SubmitDocumentRequest) (api.DocumentResult, error) {
	req.ClientRequestID = requestID(req.ClientRequestID)
	var out api.DocumentResult
	return out, c.post(ctx, "/documents/"+url.PathEscape(id)+"/versions", req.ClientRequestID, req, &out)
}

// GetDocument returns a version of document id (the latest when version is
// 0).
func (c *Client) GetDocument(ctx context.Context, id string, version int) (api.DocumentResult, error) {
	q := url.Values{}
	if version > 0 {
		q.Set("version", strconv.Itoa(version))
	}
	var out api.DocumentResult
	return out, c.do(ctx, http.MethodGet, "/documents/"+url.PathEscape(id), q, nil, &out, ReadRetry)
}

func debatePath(id, sub string) string {
	p := "/debates/" + url.PathEscape(id)
	if sub != "" {
		p += "/" + sub
	}
	return p
}

func requestID(id string) string {
	if id != "" {
		return id
	}
	return uuid.NewString()
}

// do sends one call, retrying transient failures until retryFor has passed
// since the first attempt (or ctx ends), and decodes the data of a successful
// answer into out.
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body, out any, retryFor time.Duration) error {
	return c.doEach(ctx, method, path, q, "", body, out, retryFor, 0)
}

// doEach is do with each attempt bounded by attempt (0: only by ctx), and
// key, when not empty, in the Idempotency-Key header.
func (c *Client) doEach(ctx context.Context, method, path string, q url.Values, key string, body, out any, retryFor, attempt time.Duration) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
	}
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	giveUp := time.Now().Add(retryFor)
	pause := c.backoff
	var last error
	for {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if attempt > 0 {
			actx, cancel = context.WithTimeout(ctx, attempt)
		}
		err := c.once(actx, method, u, key, payload, out)
		cancel()
		if err != nil && ctx.Err() != nil && last != nil {
			// The deadline cut a retry: what made the retries needed
			// says more than the cut.
			return last
		}
		if err == nil || !Transient(err) || ctx.Err() != nil {
			return err
		}
		last = err
		// Half the pause plus jitter, never past the budget or ctx.
		d := min(pause/2+rand.N(pause/2+1), time.Until(giveUp))
		if d <= 0 {
			return err
		}
		pause = min(2*pause, maxBackoff)
		if ctxwait.Sleep(ctx, d) != nil {
			return err
		}
	}
}

// Transient reports failures worth another attempt: no answer, or a gateway
// in front of the server that could not reach it (502, 503, 504).
func Transient(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch {
	case e.Code == CodeUnreachable, e.Code == CodeTimeout:
		return true
	case e.Status == http.StatusBadGateway, e.Status == http.StatusServiceUnavailable, e.Status == http.StatusGatewayTimeout:
		return true
	}
	return false
}

func (c *Client) once(ctx context.Context, method, u, key string, payload []byte, out any) error {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return netError(ctx, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxResponse))
	if err != nil {
		return netError(ctx, err)
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *api.ErrorBody  `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return &Error{Status: res.StatusCode, Code: string(protocol.CodeInternal),
			Message:    fmt.Sprintf("the server answered HTTP %d without a JSON envelope", res.StatusCode),
			Suggestion: "check --server: it must point at debate serve"}
	}
	if !env.Success || res.StatusCode >= 300 {
		if env.Error == nil {
			return &Error{Status: res.StatusCode, Code: string(protocol.CodeInternal),
				Message: fmt.Sprintf("the server answered HTTP %d without an error", res.StatusCode)}
		}
		b := env.Error
		return &Error{Status: res.StatusCode, Code: b.Code, Message: b.Message, Suggestion: b.Suggestion,
			CurrentState: b.CurrentState, AllowedRoles: b.AllowedRoles, RequestID: b.RequestID}
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return &Error{Status: res.StatusCode, Code: string(protocol.CodeInternal),
			Message: "the server's answer does not have the expected shape: " + err.Error()}
	}
	return nil
}

// netError classifies a failure without an answer.
func netError(ctx context.Context, err error) error {
	var ne net.Error
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Code: CodeTimeout, Message: "no answer from the server in time", Err: err,
			Suggestion: "run the command again; the server may be busy"}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return &Error{Code: CodeUnreachable, Message: "the request was cancelled", Err: ctx.Err()}
	}
	return &Error{Code: CodeUnreachable, Message: "cannot reach the server", Err: err,
		Suggestion: "start it with debate serve, or check --server / DEBATE_SERVER_URL"}
}
