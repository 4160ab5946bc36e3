package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxJunk bounds the lines of a stream that are not events kept to be read
// as an error body.
const maxJunk = 64 << 10

// Events reads the server-sent events of a streamed answer: the data of
// each "data:" line, in place. Comments (": OPENROUTER PROCESSING"), blank
// lines and other fields are skipped; other lines are kept, up to a bound,
// since a server that fails mid-stream may write a plain error body.
type Events struct {
	r    *bufio.Reader
	junk []byte // lines that were not events, run together
	long []byte // a line longer than r's buffer
	done bool   // [DONE] arrived
}

// NewEvents reads events from r.
func NewEvents(r *bufio.Reader) *Events { return &Events{r: r} }

var dataField = []byte("data:")

// Next returns the data of the next event, valid until the next call. It
// returns io.EOF after "data: [DONE]" or at the end of the body, and any
// other error of the body as is.
func (e *Events) Next() ([]byte, error) {
	for !e.done {
		line, err := e.line()
		if err != nil && (len(line) == 0 || !errors.Is(err, io.EOF)) {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		data, ok := bytes.CutPrefix(line, dataField)
		switch {
		case ok:
			data = bytes.TrimSpace(data)
			if string(data) == "[DONE]" {
				e.done = true
				break
			}
			if len(data) > 0 {
				return data, nil
			}
		case len(line) == 0, line[0] == ':', bytes.HasPrefix(line, []byte("event:")),
			bytes.HasPrefix(line, []byte("id:")), bytes.HasPrefix(line, []byte("retry:")):
		case len(e.junk) < maxJunk:
			e.junk = append(e.junk, line...)
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, io.EOF
}

// Done reports whether the stream said "data: [DONE]".
func (e *Events) Done() bool { return e.done }

// Junk returns the lines that were not events, run together: an error
// body, when a server wrote one into the stream.
func (e *Events) Junk() []byte { return e.junk }

// line reads one line, whatever its length.
func (e *Events) line() ([]byte, error) {
	line, err := e.r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	e.long = append(e.long[:0], line...)
	for err == bufio.ErrBufferFull {
		line, err = e.r.ReadSlice('\n')
		e.long = append(e.long, line...)
	}
	return e.long, err
}
