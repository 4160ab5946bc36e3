package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

func statusOf(code string) int {
	st, _ := api.Status(code)
	return st
}

func codeBody(code, msg, suggestion string) *api.ErrorBody {
	return &api.ErrorBody{Code: code, Message: msg, Suggestion: suggestion}
}

func authFailed() error {
	return protocol.Errorf(protocol.CodeAuthFailed, "authentication required").
		WithSuggestion("send Authorization: Bearer <token> (the server's --token or DEBATE_AUTH_TOKEN)")
}

// writeData writes a success envelope.
func (s *Server) writeData(w http.ResponseWriter, r *http.Request, status int, data any) {
	writeJSON(w, status, api.Envelope[any]{Success: true, Data: data})
}

// writeError writes the error envelope for err. A *protocol.Error with a
// known, non-internal code is shown as it is; anything else is logged with
// the request id and shown as "internal error".
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var be *bodyError
	if errors.As(err, &be) {
		s.writeErrorBody(w, r, be.status, be.body)
		return
	}
	body := s.errorBody(err, requestID(r), r.Method+" "+r.URL.Path)
	s.writeErrorBody(w, r, statusOf(body.Code), body)
}

// errorBody is the wire form of err, logging it when it is internal.
func (s *Server) errorBody(err error, reqID, where string) *api.ErrorBody {
	_, body, internal := api.Problem(err, reqID)
	if internal {
		s.log.Error("internal error", "request_id", reqID, "where", where, "err", err)
	}
	return body
}

func (s *Server) writeErrorBody(w http.ResponseWriter, r *http.Request, status int, body *api.ErrorBody) {
	writeJSON(w, status, api.Envelope[any]{Error: body})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Every value written is built from plain strings and numbers.
		b = []byte(`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"internal error"}}`)
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
