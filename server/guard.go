package server

import (
	"io"
	"net/http"
	"time"
)

// withBodyGuard keeps a request body the handler did not read to its end
// from holding the connection. Left alone, net/http reads up to 256 KiB of
// such a body before it writes the answer and again when the handler returns,
// so a route that reads no body (/health, a 404, GET, DELETE), a 401 decided
// before the body, or the 408 of a body that came too slowly would wait for a
// client that dribbles it. When the answer begins before the body's end, it
// carries Connection: close and the connection's read deadline is moved to
// now: net/http then stops reading at once and closes the connection after
// the answer.
func withBodyGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		g := &guardedWriter{ResponseWriter: w, body: guardedBody{rc: r.Body, conn: connOf(r)}}
		g.body.conn.waitBody(true)
		r.Body = &g.body
		next.ServeHTTP(g, r)
		g.cut()
	})
}

// guardedBody records whether a request body was read to its end.
type guardedBody struct {
	rc   io.ReadCloser
	conn *limitedConn // nil when the listener is not a limitListener
	eof  bool
}

func (b *guardedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err == io.EOF && !b.eof {
		b.eof = true
		b.conn.waitBody(false)
	}
	return n, err
}

func (b *guardedBody) Close() error { return b.rc.Close() }

// guardedWriter is a ResponseWriter that cuts an unread body short when the
// answer begins (see withBodyGuard).
type guardedWriter struct {
	http.ResponseWriter
	body    guardedBody
	cutDone bool
}

func (g *guardedWriter) WriteHeader(code int) {
	g.cut()
	g.ResponseWriter.WriteHeader(code)
}

func (g *guardedWriter) Write(b []byte) (int, error) {
	g.cut()
	return g.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and the WebSocket's hijack reach the
// connection.
func (g *guardedWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// cut, once, before the answer's header is written: when the body was not
// read to its end, asks net/http to close the connection after the answer
// and to stop reading the body now.
func (g *guardedWriter) cut() {
	if g.cutDone {
		return
	}
	g.cutDone = true
	g.body.conn.waitBody(false)
	if g.body.eof {
		return
	}
	g.Header().Set("Connection", "close")
	_ = http.NewResponseController(g.ResponseWriter).SetReadDeadline(time.Unix(1, 0))
}
