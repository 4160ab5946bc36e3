// Package providertest serves the scripted model (package scripted) to
// tests: everything scripted offers, plus a socket server (URL) that is
// closed when the test ends.
package providertest

import (
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/debatehq/debate/providers/scripted"
)

// MemoryURL is a base URL to use with the in-memory transport.
const MemoryURL = scripted.MemoryURL

// The types of the scripted model, under the names the tests use.
type (
	Call    = scripted.Call
	Message = scripted.Message
	Reply   = scripted.Reply
	Option  = scripted.Option
	Refusal = scripted.Refusal
)

// StatusGatewayTimeout is Cloudflare's 524.
const StatusGatewayTimeout = scripted.StatusGatewayTimeout

// The replies and options of the scripted model.
var (
	Text                  = scripted.Text
	JSON                  = scripted.JSON
	Fenced                = scripted.Fenced
	Think                 = scripted.Think
	Reasoned              = scripted.Reasoned
	Drafted               = scripted.Drafted
	CutOff                = scripted.CutOff
	ContentFilter         = scripted.ContentFilter
	Status                = scripted.Status
	RateLimited           = scripted.RateLimited
	ContextLengthExceeded = scripted.ContextLengthExceeded
	Raw                   = scripted.Raw
	Cut                   = scripted.Cut
	WithLatency           = scripted.WithLatency
	WithDefault           = scripted.WithDefault
	WithScript            = scripted.WithScript
	WithoutLog            = scripted.WithoutLog
	WithGateway           = scripted.WithGateway
	RefuseMaxTokens       = scripted.RefuseMaxTokens
	RefuseTemperature     = scripted.RefuseTemperature
	RefuseJSONObject      = scripted.RefuseJSONObject
	RefuseStream          = scripted.RefuseStream
	RefuseKey             = scripted.RefuseKey
	UnknownModel          = scripted.UnknownModel
)

// Server is the scripted model with a socket server for one test.
type Server struct {
	*scripted.Server
	t    testing.TB
	once sync.Once
	http *httptest.Server
}

// New returns a fake for the test t. The socket server starts on the first
// URL call and is closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	return &Server{Server: scripted.New(opts...), t: t}
}

// URL returns the base URL of the socket server ("http://127.0.0.1:port/v1").
// Any prefix before /chat/completions is accepted, so distinct endpoints can
// share one fake: URL()+"/a" and URL()+"/b" are told apart by Call.Path.
func (s *Server) URL() string {
	s.once.Do(func() {
		s.http = httptest.NewServer(s.Server)
		s.t.Cleanup(s.http.Close)
	})
	return s.http.URL + "/v1"
}
