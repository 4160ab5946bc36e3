package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"

	"github.com/debatehq/debate/protocol"
)

// Pages is the browser face of the server (package web): pages for people,
// served behind the same safety checks, authentication, request ids and
// panic recovery as the API. One URL (such as /debates/{id}) can be a page for
// a browser and JSON for an agent: Pages decides which requests it takes.
type Pages interface {
	// Page returns the handler of the page r asks for, or nil when r is
	// not a request for a page (it then goes to the API's routes).
	Page(r *http.Request) http.Handler
	// AskToken answers a request for a page that came without a valid
	// token with a page asking for it, and reports whether it did; when it
	// did not (r is not a person's browser), the JSON 401 is sent.
	AskToken(w http.ResponseWriter, r *http.Request) bool
}

// SessionPath is where a browser sends the token a person typed
// (POST {"token": "…"}): when it is the server's, the answer sets a cookie
// that carries it for the rest of the browser session.
const SessionPath = "/session"

// sessionCookie holds the token in a browser: HttpOnly, sent only to this
// origin's own pages (SameSite=Strict), gone when the browser session ends.
const sessionCookie = "debate_token"

type sessionRequest struct {
	Token string `json:"token"`
}

// session serves POST /session: it checks the token and, when it is right,
// keeps it in a session cookie.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	req, err := decodeBody(s, w, r, decodeSession)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.opt.Token == "" {
		s.writeData(w, r, http.StatusCreated, map[string]bool{"session": false})
		return
	}
	if !s.tokenMatches(req.Token) {
		if s.failed(r, clientNet(remoteIP(r))) {
			s.throttled(w, r)
			return
		}
		s.writeError(w, r, protocol.Errorf(protocol.CodeAuthFailed, "this is not the server's token").
			WithSuggestion("use the token the server was started with (--token or DEBATE_AUTH_TOKEN)"))
		return
	}
	s.setSession(w, r, req.Token)
	s.writeData(w, r, http.StatusCreated, map[string]bool{"session": true})
}

func decodeSession(body []byte) (sessionRequest, error) {
	var req sessionRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Token == "" {
		return req, protocol.Errorf(protocol.CodeInvalidInput, "token: want a JSON object with a non-empty string token").
			WithSuggestion(`send {"token": "<the server's token>"}`)
	}
	return req, nil
}

// setSession keeps token in the browser's session cookie.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
}

// tokenMatches compares a presented token with the server's in constant time
// (over SHA-256 digests, so the length does not leak either).
func (s *Server) tokenMatches(got string) bool {
	if got == "" {
		return false
	}
	sum := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(sum[:], s.token[:]) == 1
}

// sessionToken is the token a browser's session cookie carries, if any.
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}
