package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// decodeChunk decodes one event of a stream into c, which it resets, and
// returns where the event's content string starts when the fast path read
// it, else 0. Most events are a delta of text and nothing else: those are
// read here in one pass without reflection, which makes a stream cost about
// what one body costs. Any other event (usage, an error, content parts, a
// filter's results, numbers that are not integers, or anything this reader
// is not sure of) is left to encoding/json, with the same result but for
// ID, Object and Created, which nothing reads and the fast path leaves out.
func decodeChunk(b []byte, c *Chunk) (int, error) {
	// The choices keep their memory, cleared: encoding/json leaves fields
	// absent from the event as they were.
	choices := c.Choices[:0]
	clear(choices[:cap(choices)])
	*c = Chunk{Choices: choices}
	if s := (&scan{b: b}); s.chunk(c) {
		return s.content, nil
	}
	*c = Chunk{Choices: choices}
	return 0, json.Unmarshal(b, c)
}

// A Decoder decodes the events of one stream into Chunk. An event that is
// the one before but for the text of its content, as most events of a
// stream are, is told by comparing its bytes, and only that text is read.
type Decoder struct {
	Chunk   Chunk  // the event last decoded
	prev    []byte // that event, when its content can be swapped
	at, end int    // where its content string starts and ends in prev
}

// Decode decodes one event into d.Chunk, resetting it.
func (d *Decoder) Decode(b []byte) error {
	if len(d.prev) > 0 && len(b) > d.at && bytes.Equal(b[:d.at], d.prev[:d.at]) {
		s := &scan{b: b, i: d.at}
		if s.skipStr() && bytes.Equal(b[s.i:], d.prev[d.end:]) {
			d.prev, d.end = append(d.prev[:0], b...), s.i
			return unquote(b[d.at:s.i], &d.Chunk.Choices[0].Delta.Content.Text)
		}
	}
	at, err := decodeChunk(b, &d.Chunk)
	d.prev = d.prev[:0]
	if err == nil && at > 0 && len(d.Chunk.Choices) == 1 {
		s := &scan{b: b, i: at}
		s.skipStr()
		d.prev, d.at, d.end = append(d.prev, b...), at, s.i
	}
	return err
}

// scan reads the JSON of one event; each method reports false where it
// leaves the event to encoding/json.
type scan struct {
	b []byte
	i int
	// content is where the string of the last content read starts; 0 when
	// it was no string.
	content int
}

// next skips blanks and returns the byte at the cursor, 0 at the end.
func (s *scan) next() byte {
	for ; s.i < len(s.b); s.i++ {
		if c := s.b[s.i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

func (s *scan) eat(c byte) bool {
	ok := s.next() == c && s.i < len(s.b)
	if ok {
		s.i++
	}
	return ok
}

func (s *scan) literal(lit string) bool {
	ok := s.next() == lit[0] && bytes.HasPrefix(s.b[s.i:], []byte(lit))
	if ok {
		s.i += len(lit)
	}
	return ok
}

// object reads an object, calling field for each key with the cursor on
// its value. Only keys of lower-case ASCII without escapes are read here:
// encoding/json matches keys to fields ignoring case.
func (s *scan) object(field func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		s.next()
		start := s.i + 1
		if !s.skipStr() {
			return false
		}
		key := s.b[start : s.i-1]
		for _, c := range key {
			if c >= 'A' && c <= 'Z' || c >= 0x80 || c == '\\' {
				return false
			}
		}
		if !s.eat(':') || !field(key) {
			return false
		}
		if !s.eat(',') {
			return s.eat('}')
		}
	}
}

// skipStr reads a string with JSON's escapes only (Go's others would pass
// strconv), leaving the cursor after its closing quote.
func (s *scan) skipStr() bool {
	if !s.eat('"') {
		return false
	}
	for ; s.i < len(s.b) && s.b[s.i] != '"'; s.i++ {
		switch {
		case s.b[s.i] < 0x20:
			return false
		case s.b[s.i] != '\\':
		case s.i+1 == len(s.b) || bytes.IndexByte([]byte(`"\/bfnrtu`), s.b[s.i+1]) < 0:
			return false
		case s.b[s.i+1] == 'u':
			if s.i+6 > len(s.b) {
				return false
			}
			if _, err := strconv.ParseUint(string(s.b[s.i+2:s.i+6]), 16, 16); err != nil {
				return false
			}
			s.i += 5
		default:
			s.i++
		}
	}
	s.i++
	return s.i <= len(s.b)
}

// str reads a string into v; null leaves v as it is.
func (s *scan) str(v *string) bool {
	if s.literal("null") {
		return true
	}
	s.next()
	from := s.i
	return s.skipStr() && unquote(s.b[from:s.i], v) == nil
}

// integer reads an integer, by JSON's grammar.
func (s *scan) integer() (int, bool) {
	s.next()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	n, err := strconv.Atoi(string(s.b[start:s.i]))
	digits := bytes.TrimPrefix(s.b[start:s.i], []byte("-"))
	if err != nil || len(digits) > 1 && digits[0] == '0' || bytes.IndexByte([]byte(".eE"), s.next()) >= 0 {
		return 0, false
	}
	return n, true
}

// skip reads a value nothing keeps: a string, an integer, true, false or
// null.
func (s *scan) skip() bool {
	if s.next() == '"' {
		return s.skipStr()
	}
	if s.literal("true") || s.literal("false") || s.literal("null") {
		return true
	}
	_, ok := s.integer()
	return ok
}

// chunk reads an event of text deltas. Of the fields it does not keep, it
// checks that encoding/json would take them: id and object strings, a
// created time, and null for the rest.
func (s *scan) chunk(c *Chunk) bool {
	choices := false
	ok := s.object(func(k []byte) bool {
		switch string(k) {
		case "model":
			return s.str(&c.Model)
		case "choices":
			if choices {
				return false
			}
			choices = true
			return s.choices(c)
		case "id", "object":
			return s.literal("null") || s.skipStr()
		case "created":
			_, ok := s.integer()
			return ok
		case "usage", "x_groq", "error":
			return s.literal("null")
		}
		return s.skip()
	})
	s.next()
	return ok && s.i == len(s.b)
}

func (s *scan) choices(c *Chunk) bool {
	if !s.eat('[') {
		return false
	}
	for !s.eat(']') {
		if len(c.Choices) > 0 && !s.eat(',') {
			return false
		}
		c.Choices = append(c.Choices, Choice{})
		ch := &c.Choices[len(c.Choices)-1]
		ok := s.object(func(k []byte) bool {
			var ok bool
			switch string(k) {
			case "index":
				ch.Index, ok = s.integer()
			case "delta":
				if ch.Delta == nil {
					ch.Delta = &Delta{}
				}
				ok = s.delta(ch.Delta)
			case "finish_reason":
				ch.FinishReason = FinishReason{Set: s.next() == '"'}
				ok = (ch.FinishReason.Set || s.next() == 'n') && s.str(&ch.FinishReason.Reason)
			case "message", "content_filter_results":
				ok = s.literal("null")
			default:
				ok = s.skip()
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

func (s *scan) delta(d *Delta) bool {
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "content":
			d.Content, s.content = Content{}, 0
			if s.next() == '"' {
				s.content = s.i
			}
			return s.str(&d.Content.Text)
		case "role":
			return s.str(&d.Role)
		case "reasoning_content":
			return s.str(&d.ReasoningContent)
		case "reasoning":
			return s.str(&d.Reasoning)
		case "refusal":
			return s.str(&d.Refusal)
		case "tool_calls":
			return s.literal("null")
		}
		return s.skip()
	})
}
