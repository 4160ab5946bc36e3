package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// Server-level codes for requests that match no route.
const (
	codeRouteNotFound    = api.CodeRouteNotFound
	codeMethodNotAllowed = api.CodeMethodNotAllowed
)

// statuses is the one table from error codes to HTTP statuses. A code that
// is not listed is served as 500.
var statuses = map[string]int{
	string(protocol.CodeInvalidInput):     http.StatusBadRequest,
	string(protocol.CodeAuthFailed):       http.StatusUnauthorized,
	string(protocol.CodeActionNotAllowed): http.StatusForbidden,
	string(protocol.CodeDebateNotFound):   http.StatusNotFound,
	string(protocol.CodeArgumentNotFound): http.StatusNotFound,
	string(protocol.CodeDocumentNotFound): http.StatusNotFound,
	string(protocol.CodeContentTooLarge):  http.StatusRequestEntityTooLarge,
	string(protocol.CodeInternal):         http.StatusInternalServerError,
	codeRouteNotFound:                     http.StatusNotFound,
	codeMethodNotAllowed:                  http.StatusMethodNotAllowed,
}

func statusOf(code string) int {
	if st, ok := statuses[code]; ok {
		return st
	}
	return http.StatusInternalServerError
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
	body := s.errorBody(err, requestID(r), r.Method+" "+r.URL.Path)
	s.writeErrorBody(w, r, statusOf(body.Code), body)
}

// errorBody is the wire form of err, logging it when it is internal.
func (s *Server) errorBody(err error, reqID, where string) *api.ErrorBody {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Code != protocol.CodeInternal {
		if _, known := statuses[string(pe.Code)]; known {
			return api.FromError(pe)
		}
	}
	s.log.Error("internal error", "request_id", reqID, "where", where, "err", err)
	return &api.ErrorBody{Code: string(protocol.CodeInternal), Message: "internal error (request " + reqID + ")", RequestID: reqID}
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
