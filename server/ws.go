package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// wsWriteTimeout bounds one frame write (and one ping's pong) so that a
// stalled client ends its own connection and nothing else.
const wsWriteTimeout = 10 * time.Second

// websocket serves GET /ws?debate_id=: an initial_state frame, then a
// new_argument frame for every argument committed afterwards (by this
// process or another one on the same database), in seq order without gaps.
// It accepts submit_intervention and submit_ruling messages and answers each
// with a submitted frame or an error frame carrying the message's id.
//
// Each connection has two goroutines: this handler, the only writer, and a
// reader. Store notifications are one-slot signals, so a slow socket holds up
// nobody but itself; a write or ping that takes longer than wsWriteTimeout
// ends the connection.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("debate_id")
	if id == "" {
		s.writeError(w, r, protocol.Errorf(protocol.CodeInvalidInput, "debate_id is required").
			WithSuggestion("connect to /ws?debate_id=<id>"))
		return
	}
	// Subscribe before the first read so that no commit falls in between.
	signal, unsubscribe := s.st.Subscribe(id)
	defer unsubscribe()
	debate, args, err := s.st.Since(r.Context(), id, 0)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Refuse here, in the JSON envelope, what websocket.Accept would refuse
	// in plain text.
	if err := s.checkUpgrade(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	reqID := requestID(w)
	s.sockets.Add(1)
	defer s.sockets.Done()
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opt.OriginPatterns})
	if err != nil {
		return // Accept has answered the request
	}
	conn.SetReadLimit(s.opt.MaxBody)

	ctx, cancel := context.WithCancel(s.stopCtx)
	defer cancel()
	replies := make(chan api.Frame, 8)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer cancel()
		s.wsRead(ctx, conn, id, reqID, replies)
	}()

	lastSeq := 0
	if n := len(args); n > 0 {
		lastSeq = args[n-1].Seq
	}
	err = s.wsWrite(ctx, conn, api.Frame{Type: api.FrameInitialState,
		Data: api.InitialState{Debate: api.FromDebate(debate), Arguments: api.FromArguments(args)}})
	status, reason := s.wsLoop(ctx, conn, id, reqID, signal, replies, lastSeq, err)
	if s.stopCtx.Err() != nil {
		status, reason = websocket.StatusGoingAway, "server shutting down"
	}
	if status == 0 {
		conn.CloseNow()
	} else {
		conn.Close(status, reason)
	}
	cancel()
	<-readerDone
}

// wsLoop writes frames until the connection should end and returns the close
// status to send (0: close without a handshake).
func (s *Server) wsLoop(ctx context.Context, conn *websocket.Conn, id, reqID string, signal <-chan struct{},
	replies <-chan api.Frame, lastSeq int, err error) (websocket.StatusCode, string) {
	ping := time.NewTicker(s.opt.PingInterval)
	defer ping.Stop()
	for err == nil {
		select {
		case <-ctx.Done():
			return websocket.StatusNormalClosure, ""
		case f := <-replies:
			err = s.wsWrite(ctx, conn, f)
		case <-signal:
			var debate protocol.Debate
			var args []protocol.Argument
			debate, args, err = s.st.Since(ctx, id, lastSeq)
			if protocol.CodeOf(err) == protocol.CodeDebateNotFound {
				_ = s.wsWrite(ctx, conn, api.Frame{Type: api.FrameError, Error: api.FromError(asProtocol(err))})
				return websocket.StatusNormalClosure, "debate deleted"
			}
			if err != nil {
				if ctx.Err() != nil {
					return websocket.StatusNormalClosure, ""
				}
				_ = s.wsWrite(ctx, conn, api.Frame{Type: api.FrameError, Error: s.errorBody(err, reqID, "websocket feed")})
				return websocket.StatusInternalError, "internal error"
			}
			for _, a := range args {
				d := api.FromDebate(debate)
				// The debate as it was right after this argument.
				d.State, d.UpdatedAt = string(a.StateAfter), api.FormatTime(a.CreatedAt)
				if err = s.wsWrite(ctx, conn, api.Frame{Type: api.FrameNewArgument,
					Data: api.NewArgument{Debate: d, Argument: api.FromArgument(a)}}); err != nil {
					break
				}
				lastSeq = a.Seq
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
			err = conn.Ping(pctx)
			cancel()
		}
	}
	return 0, ""
}

func (s *Server) wsWrite(ctx context.Context, conn *websocket.Conn, f api.Frame) error {
	f.Event = f.Type
	wctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return wsjson.Write(wctx, conn, f)
}

// wsMessage is a message from a WebSocket client. vjcspy/aweave's clients name
// the type "event"; either field is accepted. ID, when given, is echoed in
// the answer.
type wsMessage struct {
	Type  string          `json:"type"`
	Event string          `json:"event"`
	ID    string          `json:"id"`
	Data  json.RawMessage `json:"data"`
}

// wsRead reads client messages until the connection fails or closes, and
// queues one answer per message for the writer.
func (s *Server) wsRead(ctx context.Context, conn *websocket.Conn, debateID, reqID string, replies chan<- api.Frame) {
	for {
		// Reading with a context that shutdown does not cancel: a cancelled
		// read would drop the connection before the close handshake.
		typ, data, err := conn.Read(context.WithoutCancel(ctx))
		if err != nil {
			return
		}
		f := s.wsHandle(ctx, typ, data, debateID, reqID)
		select {
		case replies <- f:
		case <-ctx.Done():
			return
		}
	}
}

func (s *Server) wsHandle(ctx context.Context, typ websocket.MessageType, data []byte, debateID, reqID string) api.Frame {
	fail := func(id string, err error) api.Frame {
		return api.Frame{Type: api.FrameError, ID: id, Error: s.errorBody(err, reqID, "websocket message")}
	}
	var m wsMessage
	if typ != websocket.MessageText {
		return fail("", protocol.Errorf(protocol.CodeInvalidInput, "messages must be JSON text"))
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fail("", protocol.Errorf(protocol.CodeInvalidInput, "message is not a JSON object with string type, id and an object data").
			WithSuggestion(`send {"type":"submit_ruling","id":"1","data":{"content":"…","close":false}}`))
	}
	kind := m.Type
	if kind == "" {
		kind = m.Event
	}
	var decode func([]byte) (protocol.Write, error)
	switch kind {
	case api.FrameSubmitIntervention:
		decode = decodeIntervention
	case api.FrameSubmitRuling:
		decode = decodeRuling
	default:
		return fail(m.ID, protocol.Errorf(protocol.CodeInvalidInput, "unknown message type %q", kind).
			WithSuggestion("send submit_intervention or submit_ruling"))
	}
	body := []byte(m.Data)
	if string(body) == "null" {
		body = nil
	}
	wr, err := decode(body)
	if err != nil {
		return fail(m.ID, err)
	}
	if other, err := api.DecodeString(body, "debate_id"); err != nil {
		return fail(m.ID, err)
	} else if other != "" && other != debateID {
		return fail(m.ID, protocol.Errorf(protocol.CodeInvalidInput, "debate_id %s is not the debate of this connection (%s)", other, debateID).
			WithSuggestion("open one WebSocket per debate"))
	}
	wr.DebateID = debateID
	res, err := s.st.Submit(ctx, wr)
	if err != nil {
		return fail(m.ID, err)
	}
	return api.Frame{Type: api.FrameSubmitted, ID: m.ID, Data: writeResult(res)}
}

func asProtocol(err error) *protocol.Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe
	}
	return &protocol.Error{Code: protocol.CodeInternal, Message: "internal error"}
}

// checkUpgrade refuses a request to /ws that is not a WebSocket handshake,
// or whose Origin is neither the server's own nor one of OriginPatterns (a
// page of another site must not drive the arbitrator's socket).
func (s *Server) checkUpgrade(r *http.Request) error {
	if !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket") {
		return protocol.Errorf(protocol.CodeInvalidInput, "/ws is a WebSocket: the request is not a WebSocket handshake").
			WithSuggestion("connect with a WebSocket client to ws://<server>/ws?debate_id=<id>")
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err == nil && strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	if err == nil {
		for _, p := range s.opt.OriginPatterns {
			if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
				return nil
			}
		}
	}
	return &bodyError{status: http.StatusForbidden, body: codeBody(api.CodeCrossSite,
		fmt.Sprintf("a WebSocket from origin %q is refused", origin),
		"open the debate's page on this server itself")}
}

// headerHas reports whether a comma-separated header lists token
// (case-insensitively).
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}
