package providers

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/internal/redact"
)

// Sent is what a request sends that can change its answer: the address it
// goes to, the headers the server may read for it and the body, as the
// client sends it with nothing adapted yet — the participant's and the
// config's token limit and temperature, the response format, extraBody
// and every other field included. A credential (in the address or a
// header), the caller's name (HTTP-Referer, X-Title, User-Agent), the
// stream flag and Anthropic cache breakpoints, which change what a
// provider bills and not what it answers, are left out.
type Sent struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the request body as encoded; a digest takes it as it is,
	// apart from the fields above.
	Body []byte `json:"-"`
}

// Sent returns what r sends that can change its answer; a call cache keys
// answers by it.
func (c *Client) Sent(r Request) (Sent, error) {
	rt := c.route(r.Participant)
	norm := *rt
	norm.stream, norm.cacheControl = false, false
	body, err := c.chatRequest(r, &norm, shape{}).Encode()
	if err != nil {
		return Sent{}, fmt.Errorf("participant %q, model %q: encode the request: %w", r.Participant, r.Model, err)
	}
	s := Sent{URL: redact.URL(rt.ep.chatURL), Body: body}
	for name, v := range rt.headers {
		if answerHeader(name) {
			if s.Headers == nil {
				s.Headers = map[string]string{}
			}
			s.Headers[strings.ToLower(name)] = v
		}
	}
	return s, nil
}

// answerHeader reports whether a configured header may change the answer:
// every header but credentials and the caller's name (OpenRouter's
// HTTP-Referer and X-Title, User-Agent).
func answerHeader(name string) bool {
	switch strings.ToLower(name) {
	case "http-referer", "referer", "x-title", "user-agent":
		return false
	}
	return !redact.SecretName(name)
}
