package wire

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ErrorDetail is the error a provider reports, in an error response's body
// or in a 200 (an error chunk).
type ErrorDetail struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Param   string `json:"param,omitempty"`
	// Code is the error's code as text: OpenAI's "model_not_found",
	// OpenRouter's 429.
	Code string `json:"code,omitempty"`
	// Status is Google's name of the error ("RESOURCE_EXHAUSTED",
	// "INVALID_ARGUMENT").
	Status string `json:"status,omitempty"`
	// Provider and Raw are a gateway's nested detail: the upstream
	// provider and what it said (OpenRouter's error.metadata).
	Provider string `json:"-"`
	Raw      string `json:"-"`
}

// UnmarshalJSON reads an error object, or an error given as a string.
func (e *ErrorDetail) UnmarshalJSON(b []byte) error {
	*e = ErrorDetail{}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Message)
	}
	var m, meta map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	e.Message, e.Type, e.Param = text(m["message"]), text(m["type"]), text(m["param"])
	e.Code, e.Status = text(m["code"]), text(m["status"])
	if json.Unmarshal(m["metadata"], &meta) == nil {
		e.Provider, e.Raw = text(meta["provider_name"]), rawReason(text(meta["raw"]))
	}
	return nil
}

// text returns a JSON value as text: a string unquoted, null as "", any
// other value as written.
func text(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return ""
	case raw[0] == '"' && json.Unmarshal(raw, &s) == nil:
		return s
	}
	return string(raw)
}

// rawReason is the reason in an upstream's raw answer: the message of an
// error body, or the text itself.
func rawReason(raw string) string {
	if e, ok := DecodeError([]byte(raw)); ok && e.Message != "" {
		return e.Message
	}
	return raw
}

// Reason says the error in one line, in the provider's words: its message,
// the upstream's reason and name when a gateway passed them on, and its
// code.
func (e *ErrorDetail) Reason() string {
	msg := strings.Join(strings.Fields(e.Message), " ")
	if raw := strings.Join(strings.Fields(e.Raw), " "); raw != "" && !strings.Contains(msg, raw) {
		up := "upstream"
		if e.Provider != "" {
			up = "upstream " + e.Provider
		}
		if msg != "" {
			msg += ": "
		}
		msg += up + " says: " + raw
	}
	if msg == "" {
		msg = "no message"
	}
	if c := strings.TrimSpace(e.Code); c != "" && !strings.Contains(msg, c) {
		msg += " (code " + c + ")"
	}
	return msg
}

// DecodeError reads an error body in the shapes providers send: OpenAI's
// {"error": {...}}, {"error": "text"}, a list of those (Gemini),
// Cloudflare's {"errors": [{...}]}, or {"message": ...} and {"detail": ...}
// alone.
func DecodeError(body []byte) (*ErrorDetail, bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(body, &list) != nil || len(list) == 0 {
			return nil, false
		}
		return DecodeError(list[0])
	}
	var m map[string]json.RawMessage
	if len(body) == 0 || body[0] != '{' || json.Unmarshal(body, &m) != nil {
		return nil, false
	}
	var d ErrorDetail
	if text(m["error"]) != "" && json.Unmarshal(m["error"], &d) == nil {
		return &d, true
	}
	var list []ErrorDetail // Cloudflare's envelope: "errors": [{"code", "message"}]
	if json.Unmarshal(m["errors"], &list) == nil && len(list) > 0 {
		return &list[0], true
	}
	for _, k := range []string{"message", "detail"} {
		if t := text(m[k]); t != "" {
			return &ErrorDetail{Message: t}, true
		}
	}
	return nil, false
}
