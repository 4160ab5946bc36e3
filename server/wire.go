package server

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// net/http answers some requests itself, before any handler runs: a request
// line or header it cannot parse (400), headers past MaxHeaderBytes (431), a
// transfer encoding it does not know (501), a protocol version it does not
// speak (505), an Expect it cannot meet (417). It writes those answers
// straight to the connection as text/plain and offers no hook to change
// them, so limitedConn.Write recognises them on the wire (they are the only
// answers written while no handler runs) and rewrites them into the JSON
// envelope every other answer carries.

// rawAnswers are the messages of net/http's own answers, by status; a 400
// names net/http's reason when it gives one.
var rawAnswers = map[int]*api.ErrorBody{
	400: codeBody(string(protocol.CodeInvalidInput), "malformed request: the request line or a header could not be parsed",
		"send a well-formed HTTP/1.1 request"),
	417: codeBody(string(protocol.CodeInvalidInput), "unsupported Expect header",
		"send no Expect header, or Expect: 100-continue"),
	431: codeBody(string(protocol.CodeInvalidInput), "request header fields too large",
		"keep the request's header under "+strconv.Itoa(MaxHeaderBytes>>10)+" KiB"),
	501: codeBody(string(protocol.CodeInvalidInput), "unsupported transfer encoding",
		"send the body with a Content-Length or Transfer-Encoding: chunked"),
	505: codeBody(string(protocol.CodeInvalidInput), "unsupported protocol version",
		"speak HTTP/1.1"),
}

// envelopeOf returns the JSON form of p when p is one whole error answer
// (status 4xx or 5xx) written by net/http itself.
func envelopeOf(p []byte) ([]byte, bool) {
	status, body, ok := parseRawAnswer(p)
	if !ok || status < 400 || status > 599 {
		return nil, false
	}
	eb, known := rawAnswers[status]
	if !known {
		msg := strings.ToLower(http.StatusText(status))
		if msg == "" {
			msg = "request refused"
		}
		eb = codeBody(string(protocol.CodeInvalidInput), msg, "")
	}
	if status == 400 {
		if reason := rawReason(body); reason != "" {
			eb = codeBody(eb.Code, "malformed request: "+reason, eb.Suggestion)
		}
	}
	js := eb.AppendJSON([]byte(`{"success":false,"error":`))
	js = append(js, "}\n"...)
	b := make([]byte, 0, 200+len(js))
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	b = append(b, http.StatusText(status)...)
	b = append(b, "\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"+
		"Connection: close\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(len(js)), 10)
	b = append(b, "\r\n\r\n"...)
	return append(b, js...), true
}

// parseRawAnswer splits p, a whole HTTP/1.x answer, into its status and
// body.
func parseRawAnswer(p []byte) (status int, body []byte, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1."))
	if !found || len(rest) < 5 || rest[1] != ' ' {
		return 0, nil, false
	}
	status, err := strconv.Atoi(string(rest[2:5]))
	if err != nil || len(rest) > 5 && rest[5] != ' ' && rest[5] != '\r' {
		return 0, nil, false
	}
	_, body, found = bytes.Cut(rest, []byte("\r\n\r\n"))
	return status, body, found
}

// rawReason is the reason net/http gives in the body of its 400 ("400 Bad
// Request: missing required Host header"), or "". It is one of net/http's
// fixed texts, never the client's bytes; anything else is dropped.
func rawReason(body []byte) string {
	_, reason, ok := bytes.Cut(body, []byte("Bad Request: "))
	if !ok || len(reason) > 80 {
		return ""
	}
	for _, c := range reason {
		if c < ' ' || c > '~' {
			return ""
		}
	}
	return string(reason)
}
