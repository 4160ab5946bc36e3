package api

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// The AppendJSON methods write the hot answers of the server (polls, writes,
// errors) without reflection. Each writes exactly the bytes encoding/json's
// Marshal writes for the same value — field order, omitempty and omitzero,
// null for nil pointers and slices, and Marshal's string escaping (HTML
// characters, U+2028 and U+2029, invalid UTF-8 as U+FFFD) — which the tests
// check on varied and fuzzed values.

// AppendJSON appends the JSON of d to b.
func (d *Debate) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, d.ID)
	b = append(b, `,"title":`...)
	b = appendString(b, d.Title)
	b = append(b, `,"debate_type":`...)
	b = appendString(b, d.DebateType)
	b = append(b, `,"state":`...)
	b = appendString(b, d.State)
	b = append(b, `,"created_at":`...)
	b = appendString(b, d.CreatedAt)
	b = append(b, `,"updated_at":`...)
	b = appendString(b, d.UpdatedAt)
	return append(b, '}')
}

// AppendJSON appends the JSON of a to b.
func (a *Argument) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, a.ID)
	b = append(b, `,"debate_id":`...)
	b = appendString(b, a.DebateID)
	b = append(b, `,"parent_id":`...)
	if a.ParentID == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *a.ParentID)
	}
	b = append(b, `,"type":`...)
	b = appendString(b, a.Type)
	b = append(b, `,"role":`...)
	b = appendString(b, a.Role)
	b = append(b, `,"content":`...)
	b = appendString(b, a.Content)
	b = append(b, `,"client_request_id":`...)
	b = appendString(b, a.ClientRequestID)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(a.Seq), 10)
	if a.StateAfter != "" {
		b = append(b, `,"state_after":`...)
		b = appendString(b, a.StateAfter)
	}
	b = append(b, `,"created_at":`...)
	b = appendString(b, a.CreatedAt)
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b.
func (r *WriteResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"debate":`...)
	b = r.Debate.AppendJSON(b)
	b = append(b, `,"argument":`...)
	b = r.Argument.AppendJSON(b)
	b = append(b, `,"replay":`...)
	b = strconv.AppendBool(b, r.Replay)
	if r.AutoRuling != nil {
		b = append(b, `,"auto_ruling":`...)
		b = r.AutoRuling.AppendJSON(b)
	}
	return append(b, '}')
}

// AppendJSON appends the JSON of p to b. An element of Arguments equal to
// Argument (the newest, which ends the list) is copied from Argument's
// encoding rather than encoded again.
func (p *PollResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"has_new_argument":`...)
	b = strconv.AppendBool(b, p.HasNewArgument)
	if p.Action != "" {
		b = append(b, `,"action":`...)
		b = appendString(b, p.Action)
	}
	b = append(b, `,"debate_id":`...)
	b = appendString(b, p.DebateID)
	b = append(b, `,"debate_state":`...)
	b = appendString(b, p.DebateState)
	b = append(b, `,"last_seen_seq":`...)
	b = strconv.AppendInt(b, int64(p.LastSeenSeq), 10)
	var newest []byte // Argument's encoding, within b
	if p.Argument != nil {
		b = append(b, `,"argument":`...)
		start := len(b)
		b = p.Argument.AppendJSON(b)
		newest = b[start:len(b):len(b)]
	}
	b = append(b, `,"arguments":`...)
	if p.Arguments == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Arguments {
			if i > 0 {
				b = append(b, ',')
			}
			if a := &p.Arguments[i]; newest != nil && a.equal(p.Argument) {
				// newest may point into the array b is about to grow
				// from; append copies it before b's array is replaced.
				b = append(b, newest...)
			} else {
				b = a.AppendJSON(b)
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"available_actions":`...)
	b = appendStrings(b, p.AvailableActions)
	return append(b, '}')
}

// equal reports whether a and o have the same fields.
func (a *Argument) equal(o *Argument) bool {
	if (a.ParentID == nil) != (o.ParentID == nil) || (a.ParentID != nil && *a.ParentID != *o.ParentID) {
		return false
	}
	pa, po := *a, *o
	pa.ParentID, po.ParentID = nil, nil
	return pa == po
}

// AppendJSON appends the JSON of e to b.
func (e *ErrorBody) AppendJSON(b []byte) []byte {
	b = append(b, `{"code":`...)
	b = appendString(b, e.Code)
	b = append(b, `,"message":`...)
	b = appendString(b, e.Message)
	if e.Suggestion != "" {
		b = append(b, `,"suggestion":`...)
		b = appendString(b, e.Suggestion)
	}
	if e.CurrentState != "" {
		b = append(b, `,"current_state":`...)
		b = appendString(b, e.CurrentState)
	}
	if e.AllowedRoles != nil {
		b = append(b, `,"allowed_roles":`...)
		b = appendStrings(b, e.AllowedRoles)
	}
	if e.RequestID != "" {
		b = append(b, `,"request_id":`...)
		b = appendString(b, e.RequestID)
	}
	return append(b, '}')
}

// appendStrings appends a JSON array of strings, or null for a nil slice.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// safe marks the ASCII bytes encoding/json's Marshal writes as they are in a
// string: printable, and neither a quote, a backslash nor an HTML character.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as a JSON string escaped as Marshal escapes it.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendTime appends t formatted for the wire (as FormatTime) to b.
func AppendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	hour, minute, sec := t.Clock()
	micro := t.Nanosecond() / 1000
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, minute, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, micro, 6)
	return append(b, 'Z')
}

// appendDigits appends the n lowest decimal digits of v (v ≥ 0), with
// leading zeros.
func appendDigits(b []byte, v, n int) []byte {
	var d [6]byte
	for i := n - 1; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, d[:n]...)
}
