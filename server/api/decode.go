package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/debatehq/debate/protocol"
)

// The request bodies. Their decoders accept a JSON object only, check every
// known field by its JSON type (a number where a string belongs is refused,
// naming the field), require the fields the route needs, and ignore unknown
// fields, as vjcspy/aweave's server does. Errors are *protocol.Error with
// CodeInvalidInput. Deeper checks (lengths, states, ids) are the store's.

// CreateDebateRequest is the body of POST /debates.
type CreateDebateRequest struct {
	DebateID        string `json:"debate_id"`
	Title           string `json:"title"`
	DebateType      string `json:"debate_type"`
	MotionContent   string `json:"motion_content"`
	ClientRequestID string `json:"client_request_id"`
}

// ArgumentRequest is the body of POST /debates/{id}/arguments (a CLAIM, with
// Role), /appeal and /resolution (without Role).
type ArgumentRequest struct {
	Role            string `json:"role,omitempty"`
	TargetID        string `json:"target_id"`
	Content         string `json:"content"`
	ClientRequestID string `json:"client_request_id"`
}

// InterventionRequest is the body of POST /debates/{id}/intervention; every
// field is optional and an empty body is accepted. Without a
// client_request_id the write is not idempotent.
type InterventionRequest struct {
	Content         string `json:"content,omitempty"`
	ClientRequestID string `json:"client_request_id,omitempty"`
}

// RulingRequest is the body of POST /debates/{id}/ruling. Close must be a
// JSON boolean when present: "close":"true" is refused, never taken as true.
type RulingRequest struct {
	Content         string `json:"content"`
	Close           bool   `json:"close"`
	ClientRequestID string `json:"client_request_id,omitempty"`
}

// CreateDocumentRequest is the body of POST /documents.
type CreateDocumentRequest struct {
	Title           string `json:"title,omitempty"`
	Content         string `json:"content"`
	ClientRequestID string `json:"client_request_id,omitempty"`
}

// SubmitDocumentRequest is the body of POST /documents/{id}/versions.
type SubmitDocumentRequest struct {
	Content         string `json:"content"`
	ClientRequestID string `json:"client_request_id,omitempty"`
}

// DecodeCreateDebate decodes and checks the body of POST /debates.
func DecodeCreateDebate(body []byte) (CreateDebateRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return CreateDebateRequest{}, err
	}
	var r CreateDebateRequest
	err = o.strings(
		field{"debate_id", &r.DebateID, true},
		field{"title", &r.Title, true},
		field{"debate_type", &r.DebateType, true},
		field{"motion_content", &r.MotionContent, true},
		field{"client_request_id", &r.ClientRequestID, true},
	)
	if err != nil {
		return CreateDebateRequest{}, err
	}
	if _, err := protocol.ParseDebateType(r.DebateType); err != nil {
		return CreateDebateRequest{}, err
	}
	return r, nil
}

// DecodeClaim decodes and checks the body of POST /debates/{id}/arguments.
func DecodeClaim(body []byte) (ArgumentRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return ArgumentRequest{}, err
	}
	var r ArgumentRequest
	if err := o.strings(field{"role", &r.Role, true}); err != nil {
		return ArgumentRequest{}, err
	}
	if _, err := protocol.ParseRole(r.Role); err != nil {
		return ArgumentRequest{}, err
	}
	if err := o.targeted(&r); err != nil {
		return ArgumentRequest{}, err
	}
	return r, nil
}

// DecodeTargeted decodes and checks the body of POST /debates/{id}/appeal and
// /resolution. A role field, if sent, is ignored: these are the proposer's.
func DecodeTargeted(body []byte) (ArgumentRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return ArgumentRequest{}, err
	}
	var r ArgumentRequest
	if err := o.targeted(&r); err != nil {
		return ArgumentRequest{}, err
	}
	return r, nil
}

func (o object) targeted(r *ArgumentRequest) error {
	return o.strings(
		field{"target_id", &r.TargetID, true},
		field{"content", &r.Content, true},
		field{"client_request_id", &r.ClientRequestID, true},
	)
}

// DecodeIntervention decodes and checks the body of POST
// /debates/{id}/intervention; an empty body is an intervention without
// content.
func DecodeIntervention(body []byte) (InterventionRequest, error) {
	o, err := parseObject(body, true)
	if err != nil {
		return InterventionRequest{}, err
	}
	var r InterventionRequest
	err = o.strings(
		field{"content", &r.Content, false},
		field{"client_request_id", &r.ClientRequestID, false},
	)
	if err != nil {
		return InterventionRequest{}, err
	}
	return r, nil
}

// DecodeRuling decodes and checks the body of POST /debates/{id}/ruling.
func DecodeRuling(body []byte) (RulingRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return RulingRequest{}, err
	}
	var r RulingRequest
	err = o.strings(
		field{"content", &r.Content, true},
		field{"client_request_id", &r.ClientRequestID, false},
	)
	if err != nil {
		return RulingRequest{}, err
	}
	if r.Close, err = o.boolean("close"); err != nil {
		return RulingRequest{}, err
	}
	return r, nil
}

// DecodeCreateDocument decodes and checks the body of POST /documents.
func DecodeCreateDocument(body []byte) (CreateDocumentRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return CreateDocumentRequest{}, err
	}
	var r CreateDocumentRequest
	err = o.strings(
		field{"title", &r.Title, false},
		field{"content", &r.Content, true},
		field{"client_request_id", &r.ClientRequestID, false},
	)
	if err != nil {
		return CreateDocumentRequest{}, err
	}
	return r, nil
}

// DecodeSubmitDocument decodes and checks the body of POST
// /documents/{id}/versions.
func DecodeSubmitDocument(body []byte) (SubmitDocumentRequest, error) {
	o, err := parseObject(body, false)
	if err != nil {
		return SubmitDocumentRequest{}, err
	}
	var r SubmitDocumentRequest
	err = o.strings(
		field{"content", &r.Content, true},
		field{"client_request_id", &r.ClientRequestID, false},
	)
	if err != nil {
		return SubmitDocumentRequest{}, err
	}
	return r, nil
}

// DecodeString reads an optional string field of a JSON object, as the
// request decoders do (absent or null is ""). It serves messages whose other
// fields have their own decoder, such as a WebSocket frame's debate_id.
func DecodeString(body []byte, name string) (string, error) {
	o, err := parseObject(body, true)
	if err != nil {
		return "", err
	}
	var s string
	err = o.strings(field{name, &s, false})
	return s, err
}

// object is a JSON object with its members' values left raw. Of members
// with the same name the last counts, as in encoding/json. Values may point
// into the body they were read from.
type object []member

type member struct {
	name, raw []byte
}

// get returns the raw value of the member name.
func (o object) get(name string) ([]byte, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if string(o[i].name) == name {
			return o[i].raw, true
		}
	}
	return nil, false
}

type field struct {
	name     string
	dst      *string
	required bool
}

func parseObject(body []byte, allowEmpty bool) (object, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		if allowEmpty {
			return object{}, nil
		}
		return nil, invalid("request body is empty", "send a JSON object")
	}
	if k := kind(body); k != "object" {
		if !json.Valid(body) {
			return nil, invalid("request body is not valid JSON", "send a JSON object")
		}
		return nil, invalid("request body: want a JSON object, got "+k, "send a JSON object")
	}
	if o, ok := scanObject(body); ok {
		return o, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, invalid("request body is not valid JSON: "+syntaxMessage(err), "send a JSON object")
	}
	o := make(object, 0, len(m))
	for name, raw := range m {
		o = append(o, member{[]byte(name), raw})
	}
	return o, nil
}

func syntaxMessage(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	return err.Error()
}

func (o object) strings(fields ...field) error {
	for _, f := range fields {
		raw, ok := o.get(f.name)
		if !ok || kind(raw) == "null" {
			if f.required {
				return invalid(f.name+" is required", "")
			}
			continue
		}
		if k := kind(raw); k != "string" {
			return invalid(fmt.Sprintf("%s: want a string, got %s", f.name, k), "")
		}
		if !utf8.Valid(raw) {
			return invalid(f.name+": "+errNotUTF8, suggestText)
		}
		if err := unquote(raw, f.dst); err != nil {
			return invalid(f.name+": "+err.Error(), "")
		}
		if strings.IndexByte(*f.dst, 0) >= 0 {
			return invalid(f.name+": "+errNUL, suggestText)
		}
		if f.required && *f.dst == "" {
			return invalid(f.name+" is required (got an empty string)", "")
		}
	}
	return nil
}

// unquote decodes the JSON string raw into dst as json.Unmarshal does, at
// once when it holds no escape and is valid UTF-8.
func unquote(raw []byte, dst *string) error {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		s := raw[1 : n-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			*dst = string(s)
			return nil
		}
	}
	return json.Unmarshal(raw, dst)
}

// scanObject splits a JSON object whose members' names hold no escape and
// whose values are strings, numbers, booleans or null, the shape of every
// request body, into its members; ok is false for anything else (nested
// values, names escaped or not UTF-8, invalid JSON), which json.Unmarshal
// then reads.
func scanObject(b []byte) (o object, ok bool) {
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return object{}, skipSpace(b, i+1) == len(b)
	}
	o = make(object, 0, 6)
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end, escaped := scanString(b, i)
		if end < 0 || escaped {
			return nil, false
		}
		name := b[i+1 : end-1]
		if !utf8.Valid(name) {
			return nil, false // json.Unmarshal would name it with U+FFFD
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		start := i
		if i = scanValue(b, i); i < 0 {
			return nil, false
		}
		o = append(o, member{name, b[start:i]})
		i = skipSpace(b, i)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return o, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// skipSpace returns the index of the first byte from i on that is not JSON
// whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index just past the JSON string that begins at
// b[i] (a quote), or -1 when it is not valid, and whether it holds escapes.
func scanString(b []byte, i int) (end int, escaped bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped
		case c < 0x20:
			return -1, false
		case c == '\\':
			escaped = true
			i++
			if i >= len(b) {
				return -1, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1, false
				}
				i += 4
			default:
				return -1, false
			}
		}
	}
	return -1, false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// scanValue returns the index just past the string, number, boolean or null
// that begins at b[i], or -1.
func scanValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := scanString(b, i)
		return end
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return scanNumber(b, i)
	}
	return -1
}

func literal(b []byte, i int, lit string) int {
	if string(b[i:min(len(b), i+len(lit))]) != lit {
		return -1
	}
	return i + len(lit)
}

// scanNumber returns the index just past the JSON number that begins at
// b[i], or -1.
func scanNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if j := digits(b, i); j > i {
			i = j
		} else {
			return -1
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// boolean reads an optional boolean: absent or null is false; anything but
// true or false is refused.
func (o object) boolean(name string) (bool, error) {
	raw, ok := o.get(name)
	if !ok || kind(raw) == "null" {
		return false, nil
	}
	if k := kind(raw); k != "boolean" {
		return false, invalid(fmt.Sprintf("%s: want a boolean (true or false), got %s", name, k), "send "+name+": true to close the debate")
	}
	return protocol.CloseFlag(raw), nil
}

// kind names the JSON type of a value by its first byte.
func kind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func invalid(msg, suggestion string) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeInvalidInput, Message: msg, Suggestion: strings.TrimSpace(suggestion)}
}
