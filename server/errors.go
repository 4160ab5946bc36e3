package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
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

// writeData writes a success envelope. A value with its own encoding (the
// answers of polls and writes) is encoded without reflection.
func (s *Server) writeData(w http.ResponseWriter, r *http.Request, status int, data any) {
	if a, ok := data.(appender); ok {
		writeEnvelope(w, status, `{"success":true,"data":`, a)
		return
	}
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
	body := s.errorBody(err, requestID(w), r.Method+" "+r.URL.Path)
	if body.Code == api.CodeUnavailable {
		w.Header().Set("Retry-After", api.RetryAfter)
	}
	s.writeErrorBody(w, r, statusOf(body.Code), body)
}

// errorBody is the wire form of err, logging it when it is internal. A
// database that could not be reached is DATABASE_UNAVAILABLE, not internal.
func (s *Server) errorBody(err error, reqID, where string) *api.ErrorBody {
	if store.Unavailable(err) {
		s.log.Warn("database unavailable", "request_id", reqID, "where", where, "err", err)
		err = api.Unavailable()
	}
	_, body, internal := api.Problem(err, reqID)
	if internal {
		s.log.Error("internal error", "request_id", reqID, "where", where, "err", err)
	}
	return body
}

func (s *Server) writeErrorBody(w http.ResponseWriter, r *http.Request, status int, body *api.ErrorBody) {
	writeEnvelope(w, status, `{"success":false,"error":`, body)
}

// appender is a wire value that appends its own JSON, byte for byte what
// encoding/json writes for it (see package api).
type appender interface {
	AppendJSON(b []byte) []byte
}

// buffers holds the buffers answers are encoded into; one larger than
// maxPooled (a long document) is left to the garbage collector.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

const maxPooled = 64 << 10

// writeEnvelope writes the envelope that begins with head and holds v.
func writeEnvelope(w http.ResponseWriter, status int, head string, v appender) {
	bp := buffers.Get().(*[]byte)
	b := append((*bp)[:0], head...)
	b = v.AppendJSON(b)
	b = append(b, "}\n"...)
	writeBody(w, status, b)
	if cap(b) <= maxPooled {
		*bp = b
		buffers.Put(bp)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Every value written is built from plain strings and numbers.
		b = []byte(`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"internal error"}}`)
		status = http.StatusInternalServerError
	}
	writeBody(w, status, append(b, '\n'))
}

// The values of the headers of every answer, shared by all answers:
// a header's value slice is only ever replaced or appended to (which copies
// a full slice), never written in place.
var (
	contentTypeJSON = []string{"application/json; charset=utf-8"}
	noSniff         = []string{"nosniff"}
	varyAccept      = []string{"Accept"}
)

// writeBody writes a JSON answer.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeJSON
	h["X-Content-Type-Options"] = noSniff
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
