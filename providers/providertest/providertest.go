// Package providertest serves the scripted model (package scripted) to
// tests on a socket server (URL) that is closed when the test ends; the
// replies and options are scripted's own.
package providertest

import (
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/debatehq/debate/providers/scripted"
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
func New(t testing.TB, opts ...scripted.Option) *Server {
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
