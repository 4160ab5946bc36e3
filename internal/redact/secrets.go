package redact

import (
	"bytes"
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/debatehq/debate/internal/fold"
)

// SecretMask replaces a secret value or a bearer token in text (Secrets),
// as Mask replaces a credential in a URL.
const SecretMask = "[REDACTED]"

// longKey is the length from which a key value is removed wherever it
// occurs. A shorter one ("none", "ollama", "x", as local servers are keyed)
// could be part of any word, so it is removed only where it stands alone.
const longKey = 16

var bearerToken = regexp.MustCompile(`(?i)\bbearer\s+[^\s"',;)\]}]+`)

// Secrets removes known secret values (API keys, credential headers and
// URL credentials as configured) and bearer tokens from text where a key
// can appear: headers, URLs, error messages, log lines and the parts of raw
// request dumps that are not model text. Model text is never rewritten,
// with one exception that cannot touch a word: a long key, which only a
// server echoing the request could have put there (see ModelText).
type Secrets struct {
	keys []string // longest first
}

// NewSecrets returns the redaction of the given secret values; empty ones
// are ignored.
func NewSecrets(keys []string) *Secrets {
	keys = slices.Clone(keys)
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.TrimSpace(k) == "" })
	// Longest first, so a key that contains another is removed whole.
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return &Secrets{keys: slices.Compact(keys)}
}

// Text returns s without secret values or bearer tokens.
func (r *Secrets) Text(s string) string {
	if fold.Contains(s, "bearer") {
		s = bearerToken.ReplaceAllString(s, "Bearer "+SecretMask)
	}
	for _, k := range r.keys {
		s = replaceKey(s, k)
	}
	return s
}

// ModelText returns model text without the long keys in it. Short keys and
// bearer-like words stay: the text may discuss them, and a short key such
// as "none" is a word.
func (r *Secrets) ModelText(s string) string {
	for _, k := range r.keys {
		if len(k) >= longKey {
			s = replaceKey(s, k)
		}
	}
	return s
}

// replaceKey replaces key in s: every occurrence of a long key, and the
// occurrences of a short one that no letter, digit, '-' or '_' touches.
func replaceKey(s, key string) string {
	if !strings.Contains(s, key) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, key)
		if i < 0 {
			break
		}
		end := i + len(key)
		if len(key) >= longKey || (i == 0 || !wordByte(s[i-1])) && (end == len(s) || !wordByte(s[end])) {
			b.WriteString(s[:i])
			b.WriteString(SecretMask)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// wordByte reports the bytes that continue a key-like token.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80
}

// modelTextFields are the JSON fields that hold what a model or a prompt
// says, inside "messages" (a request) or "choices" (a response).
var modelTextFields = map[string]bool{
	"content": true, "reasoning_content": true, "reasoning": true, "refusal": true, "text": true, "summary": true,
}

// Body redacts a raw request or response body. A JSON body keeps its
// model text (messages and choices) as ModelText keeps it and is returned
// unchanged when nothing in it holds a key; so does each event of a stream
// ("data: {...}" lines); any other body is redacted whole.
func (r *Secrets) Body(body []byte) []byte {
	if len(body) == 0 {
		return body
	}
	if bytes.HasPrefix(body, []byte("data:")) {
		return r.redactEvents(body)
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return []byte(r.Text(string(body)))
	}
	changed := false
	v = r.redactJSON(v, false, "", &changed)
	if !changed {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(r.Text(string(body)))
	}
	return out
}

// redactEvents redacts a stream line by line, each event's JSON as Body
// does.
func (r *Secrets) redactEvents(body []byte) []byte {
	lines := bytes.SplitAfter(body, []byte("\n"))
	for i, line := range lines {
		payload, ok := bytes.CutPrefix(line, []byte("data:"))
		trimmed := bytes.TrimSpace(payload)
		switch {
		case ok && len(trimmed) > 0 && trimmed[0] == '{':
			end := line[len(bytes.TrimRight(line, "\r\n")):]
			lines[i] = slices.Concat([]byte("data: "), r.Body(trimmed), end)
		case ok:
		default:
			lines[i] = []byte(r.Text(string(line)))
		}
	}
	return bytes.Join(lines, nil)
}

// redactJSON redacts the strings of v outside model text; inModel is true
// below "messages" or "choices", key is the field that holds v.
func (r *Secrets) redactJSON(v any, inModel bool, key string, changed *bool) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			t[k] = r.redactJSON(c, inModel || k == "messages" || k == "choices", k, changed)
		}
	case []any:
		for i, c := range t {
			t[i] = r.redactJSON(c, inModel, key, changed)
		}
	case string:
		redact := r.Text
		if inModel && modelTextFields[key] {
			redact = r.ModelText
		}
		if s := redact(t); s != t {
			*changed = true
			return s
		}
	}
	return v
}
