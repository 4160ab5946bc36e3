package server

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
)

// frameLimitWriter is a ResponseWriter whose hijacked connection refuses a
// client WebSocket frame that claims more than limit bytes as soon as the
// frame's header arrives. The WebSocket library checks its read limit only
// against the bytes that arrive, so a header claiming 2^62 bytes followed
// by nothing would hold the connection until the next ping failed.
type frameLimitWriter struct {
	http.ResponseWriter
	limit int64
}

// Hijack hands the WebSocket library the connection behind a frameReader,
// with the bytes net/http had read ahead of the handshake first.
func (w frameLimitWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, fmt.Errorf("hijack: %w", err)
	}
	ahead, _ := brw.Reader.Peek(brw.Reader.Buffered())
	fc := &frameConn{Conn: c, r: io.MultiReader(bytes.NewReader(bytes.Clone(ahead)), c), limit: w.limit}
	brw.Reader.Reset(fc)
	return fc, brw, nil
}

// errFrameTooLarge is the read error of a frame over the limit.
var errFrameTooLarge = errors.New("websocket frame larger than the read limit")

// frameConn reads a client's WebSocket frames through, following their
// headers (RFC 6455 section 5.2) to check each claimed length.
type frameConn struct {
	net.Conn
	r     io.Reader
	limit int64

	head []byte // the header read so far
	left int64  // payload bytes of the current frame still to come
	err  error  // once a frame was refused
}

func (c *frameConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	if ferr := c.follow(p[:n]); ferr != nil {
		c.err = ferr
		return 0, ferr
	}
	return n, err
}

// follow walks b, the next bytes of the stream.
func (c *frameConn) follow(b []byte) error {
	for len(b) > 0 {
		if c.left > 0 {
			skip := min(c.left, int64(len(b)))
			c.left -= skip
			b = b[skip:]
			continue
		}
		c.head = append(c.head, b[0])
		b = b[1:]
		need, length := headerLength(c.head)
		if need > len(c.head) {
			continue
		}
		if length < 0 || length > c.limit {
			return fmt.Errorf("%w: %d bytes claimed, %d allowed", errFrameTooLarge, uint64(length), c.limit)
		}
		c.left, c.head = length, c.head[:0]
	}
	return nil
}

// headerLength returns the size of the frame header that h begins and,
// once h holds all of it, the payload length it claims (negative when the
// 64-bit length has its top bit set, which the RFC forbids).
func headerLength(h []byte) (need int, length int64) {
	if len(h) < 2 {
		return 2, 0
	}
	need = 2
	if h[1]&0x80 != 0 {
		need += 4 // the masking key
	}
	switch l := h[1] & 0x7f; l {
	case 126:
		need += 2
		if len(h) >= 4 {
			length = int64(binary.BigEndian.Uint16(h[2:4]))
		}
	case 127:
		need += 8
		if len(h) >= 10 {
			length = int64(binary.BigEndian.Uint64(h[2:10]))
		}
	default:
		length = int64(l)
	}
	return need, length
}
