package providers

import (
	"context"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/debatehq/debate/providers/providertest"
)

// BenchmarkComplete measures one call against the fake with no latency.
// "direct" is go-openai alone on the same in-memory fake, "client" is
// Complete, "overhead" alternates the two and reports Complete's extra cost
// per call, and "socket" is Complete over loopback HTTP.
func BenchmarkComplete(b *testing.B) {
	req := ask("a", "gpt-4o", "State your position on the topic in one paragraph.")
	direct := func(b *testing.B, srv *providertest.Server) func() {
		oc := openai.DefaultConfig(testKey)
		oc.BaseURL = providertest.MemoryURL
		oc.HTTPClient = srv.HTTPClient()
		client := openai.NewClientWithConfig(oc)
		creq := openai.ChatCompletionRequest{
			Model:     req.Model,
			Messages:  []openai.ChatCompletionMessage{{Role: "user", Content: req.Messages[0].Content}},
			MaxTokens: 500,
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
