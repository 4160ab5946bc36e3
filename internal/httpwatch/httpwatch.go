// Package httpwatch tells the code that makes a model call when its HTTP
// request leaves and when the exchange is over, through the request's
// context: a caller that cannot see where its request waits (for a call
// slot, a rate limit) learns when it stopped waiting.
package httpwatch

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// Watch receives the two moments of every HTTP exchange made with a context
// that carries it; both funcs must be set. Sent is called as the request leaves; Done once its
// response body is read to its end or closed, or at once when no response
// came. Both are called from the goroutine of the exchange, Done before the
// caller can see the end of the exchange.
type Watch struct {
	Sent, Done func()
}

type watchKey struct{}

// With returns a context whose HTTP exchanges are reported to w.
func With(ctx context.Context, w Watch) context.Context {
	return context.WithValue(ctx, watchKey{}, w)
}

// Client returns a client that sends through base (nil: a client with a
// clone of http.DefaultTransport keeping 64 idle connections per host, for
// a run's parallel calls) and reports each exchange to the Watch of its
// request's context.
func Client(base *http.Client) *http.Client {
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		base = &http.Client{Transport: t}
	}
	c := *base
	c.Transport = transport{base: orDefault(base.Transport)}
	return &c
}

func orDefault(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		return http.DefaultTransport
	}
	return rt
}

// transport reports the exchanges of requests whose context has a Watch.
type transport struct{ base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	w, ok := req.Context().Value(watchKey{}).(Watch)
	if !ok {
		return t.base.RoundTrip(req)
	}
	w.Sent()
	res, err := t.base.RoundTrip(req)
	if err != nil || res.Body == nil {
		w.Done()
		return res, err
	}
	res.Body = &body{ReadCloser: res.Body, done: w.Done}
	return res, nil
}

// body calls done once, when it is read to an error (io.EOF included) or
// closed, whichever comes first.
type body struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *body) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}
