package providers

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"
)

// attempt is what one HTTP exchange left behind that go-openai does not
// return: the status and Retry-After of an error response, the body of a
// successful one (for the reasoning fields go-openai does not decode), and,
// when recording, both bodies. It travels in the request context.
type attempt struct {
	zeroTemperature bool // send "temperature": 0, which go-openai omits
	record          bool

	status     int
	retryAfter time.Duration
	request    []byte
	response   []byte
}

type attemptKey struct{}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

// doer is the HTTP client given to go-openai. It fixes the body where
// go-openai's encoding falls short and captures what go-openai drops.
type doer struct {
	base *http.Client
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	a, _ := req.Context().Value(attemptKey{}).(*attempt)
	if a == nil {
		return d.base.Do(req)
	}
	if (a.zeroTemperature || a.record) && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if a.zeroTemperature {
			body = withZeroTemperature(body)
		}
		if a.record {
			a.request = body
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.ContentLength = int64(len(body))
	}
	res, err := d.base.Do(req)
	if err != nil {
		return nil, err
	}
	a.status = res.StatusCode
	a.retryAfter = retryAfter(res.Header, time.Now())
	if a.record || res.StatusCode >= 200 && res.StatusCode < 300 {
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		a.response = body
		if err != nil {
			return nil, err
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
	}
	return res, nil
}

// withZeroTemperature adds "temperature":0 to a JSON object that lacks the
// field: go-openai's request type drops a zero temperature (omitempty), and
// an explicit 0 differs from the server's default.
func withZeroTemperature(body []byte) []byte {
	if len(body) < 2 || body[0] != '{' || bytes.Contains(body, []byte(`"temperature":`)) {
		return body
	}
	out := make([]byte, 0, len(body)+len(`"temperature":0,`))
	out = append(out, '{')
	out = append(out, `"temperature":0`...)
	if bytes.TrimSpace(body[1:])[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body[1:]...)
}

// defaultHTTPClient keeps enough idle connections per host for a run's
// parallel calls; per-call timeouts come from contexts.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}
