package providers

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
)

// BenchmarkComplete measures one call against the fake with no latency.
// "direct" is go-openai alone on the same in-memory fake, "client" is
// Complete, "overhead" alternates the two and reports Complete's extra cost
// per call, and "socket" is Complete over loopback HTTP.
func BenchmarkComplete(b *testing.B) {
	req := ask("a", "gpt-4o", "State your position on the topic in one paragraph.")
	direct := func(b *testing.B, srv *providertest.Server) func() {
		oc := openai.DefaultConfig(testKey)
		oc.BaseURL = scripted.MemoryURL
		oc.HTTPClient = srv.HTTPClient()
		client := openai.NewClientWithConfig(oc)
		creq := openai.ChatCompletionRequest{
			Model:               req.Model,
			Messages:            []openai.ChatCompletionMessage{{Role: "user", Content: req.Messages[0].Content}},
			MaxCompletionTokens: 500,
		}
		return func() {
			if _, err := client.CreateChatCompletion(context.Background(), creq); err != nil {
				b.Fatal(err)
			}
		}
	}

	b.Run("direct", func(b *testing.B) {
		call := direct(b, providertest.New(b))
		b.ReportAllocs()
		for b.Loop() {
			call()
		}
	})

	b.Run("client", func(b *testing.B) {
		srv := providertest.New(b)
		c := newTestClient(b, srv, testConfig(nil), Options{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Complete(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})

	// Interleaving the two kinds of call exposes both to the same machine
	// load, which makes their difference meaningful on a busy host.
	b.Run("overhead", func(b *testing.B) {
		srv := providertest.New(b)
		c := newTestClient(b, srv, testConfig(nil), Options{})
		call := direct(b, srv)
		var ours, theirs time.Duration
		n := 0
		for b.Loop() {
			t0 := time.Now()
			if _, err := c.Complete(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			call()
			ours += t1.Sub(t0)
			theirs += time.Since(t1)
			n++
		}
		b.ReportMetric(float64(ours)/float64(n), "client-ns/call")
		b.ReportMetric(float64(theirs)/float64(n), "direct-ns/call")
		b.ReportMetric(float64(ours-theirs)/float64(n), "overhead-ns/call")
	})

	b.Run("socket", func(b *testing.B) {
		srv := providertest.New(b)
		cfg := testConfig(nil)
		cfg.API.BaseURL = srv.URL()
		c := newTestClient(b, srv, cfg, Options{HTTPClient: &http.Client{}})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Complete(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStreamDecode measures the client's side of one streamed answer
// the size of a debater's (about 900 bytes in the fake's 16-byte chunks):
// "decode" replays the fake's recorded event stream from memory, so only
// reading and folding the events counts; "call" streams it from the
// in-memory fake, whose writing counts too.
func BenchmarkStreamDecode(b *testing.B) {
	text := "Position at the root. " + strings.Repeat("An argument with its reasons. ", 30)
	req := ask("a", "m", "State your position on the topic in one paragraph.")
	run := func(b *testing.B, hc func(*providertest.Server) *http.Client) {
		srv := providertest.New(b)
		srv.Script(func(scripted.Call) scripted.Reply { return scripted.Text(text) })
		c := newTestClient(b, srv, streamConfig(true, nil), Options{HTTPClient: hc(srv)})
		b.ReportAllocs()
		for b.Loop() {
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				b.Fatal(err)
			}
			if resp.Text != text {
				b.Fatalf("text %q, want %q", resp.Text, text)
			}
		}
	}
	b.Run("decode", func(b *testing.B) {
		run(b, func(srv *providertest.Server) *http.Client {
			return &http.Client{Transport: &replay{next: srv.Transport()}}
		})
	})
	b.Run("call", func(b *testing.B) {
		run(b, func(srv *providertest.Server) *http.Client { return srv.HTTPClient() })
	})
}

// replay answers every request with the response next gave to the first.
type replay struct {
	next   http.RoundTripper
	once   sync.Once
	header http.Header
	body   []byte
	err    error
}

func (r *replay) RoundTrip(req *http.Request) (*http.Response, error) {
	r.once.Do(func() {
		res, err := r.next.RoundTrip(req)
		if err != nil {
			r.err = err
			return
		}
		defer res.Body.Close()
		r.header = res.Header
		r.body, r.err = io.ReadAll(res.Body)
	})
	if r.err != nil {
		return nil, r.err
	}
	return &http.Response{
		StatusCode: http.StatusOK, Header: r.header.Clone(), Request: req,
		Body: io.NopCloser(bytes.NewReader(r.body)), ContentLength: -1,
	}, nil
}
