package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// wire is one agent's kept-alive HTTP/1.1 connection, spoken directly: a
// request is one write of bytes built in advance but for its body, an answer
// is read into a buffer reused from one request to the next. The load
// generator shares two cores with the server it measures; net/http's client
// spends about twice the CPU per request (a goroutine each for reading and
// writing, headers in maps), which the server under test would lose.
//
// A wire is used by one goroutine at a time. It speaks just what the
// protocol server answers: Content-Length or chunked bodies, and
// "Connection: close", after which the next request dials again.
type wire struct {
	addr string // host:port, also the Host header
	conn net.Conn
	r    *bufio.Reader
	req  []byte // the request being sent
	body []byte // the last answer's body
}

// wireAddr returns the host:port of base (http://host:port), the address a
// wire dials on its first request.
func wireAddr(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return "", fmt.Errorf("bench serve: %q is not an http://host:port address", base)
	}
	return u.Host, nil
}

// close closes the connection, if any.
func (c *wire) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn, c.r = nil, nil
	}
}

// do sends one request and returns the answer's body, valid until the next
// call; a status other than want is an error quoting the body. When ctx
// ends during the request, the connection is closed and do returns.
func (c *wire) do(ctx context.Context, method, path string, body []byte, want int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.conn == nil {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", c.addr)
		if err != nil {
			return nil, err
		}
		c.conn, c.r = conn, bufio.NewReaderSize(conn, 16<<10)
	}
	conn := c.conn
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	status, again, err := c.roundTrip(method, path, body)
	if !stop() || err != nil || !again {
		// Cut by ctx, broken, or closed by the server: dial anew next time.
		c.close()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if status != want {
		return nil, fmt.Errorf("%s %s: HTTP %d: %s", method, path, status, strings.TrimSpace(string(c.body)))
	}
	return c.body, nil
}

// roundTrip writes the request and reads the answer into c.body; again
// tells whether the connection may carry another request.
func (c *wire) roundTrip(method, path string, body []byte) (status int, again bool, err error) {
	b := append(c.req[:0], method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, c.addr...)
	b = append(b, "\r\nUser-Agent: debate-bench\r\n"...)
	if body != nil {
		b = append(b, "Content-Type: application/json\r\nContent-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, body...)
	c.req = b
	if _, err := c.conn.Write(b); err != nil {
		return 0, false, err
	}
	return c.readAnswer()
}

// errAnswer is an answer this client cannot read.
var errAnswer = errors.New("malformed HTTP answer")

// readAnswer reads a status line, headers and body.
func (c *wire) readAnswer() (status int, again bool, err error) {
	line, err := c.line()
	if err != nil {
		return 0, false, err
	}
	// HTTP/1.1 201 Created
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, fmt.Errorf("%w: status line %q", errAnswer, line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("%w: status line %q", errAnswer, line)
	}
	again = line[7] == '1'
	length, chunked := -1, false
	for {
		h, err := c.line()
		if err != nil {
			return 0, false, err
		}
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return 0, false, fmt.Errorf("%w: header %q", errAnswer, h)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, fmt.Errorf("%w: Content-Length %q", errAnswer, value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			again = again && !bytes.EqualFold(value, []byte("close"))
		}
	}
	c.body = c.body[:0]
	switch {
	case status == 204 || status == 304 || status < 200: // no body
	case chunked:
		err = c.readChunks()
	case length >= 0:
		c.body = slices.Grow(c.body, length)[:length]
		_, err = io.ReadFull(c.r, c.body)
	default: // the body runs to the end of the connection
		again = false
		var buf bytes.Buffer
		_, err = buf.ReadFrom(c.r)
		c.body = append(c.body, buf.Bytes()...)
	}
	return status, again, err
}

// readChunks reads a chunked body into c.body.
func (c *wire) readChunks() error {
	for {
		line, err := c.line()
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(line, []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: chunk size %q", errAnswer, line)
		}
		if n == 0 {
			for { // trailers, up to the empty line
				if t, err := c.line(); err != nil || len(t) == 0 {
					return err
				}
			}
		}
		start := len(c.body)
		c.body = slices.Grow(c.body, int(n))[:start+int(n)]
		if _, err := io.ReadFull(c.r, c.body[start:]); err != nil {
			return err
		}
		if crlf, err := c.line(); err != nil || len(crlf) != 0 {
			return orElse(err, fmt.Errorf("%w: no CRLF after a chunk", errAnswer))
		}
	}
}

// line reads one header line without its CRLF; the slice is valid until
// the next read.
func (c *wire) line() ([]byte, error) {
	l, err := c.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%w: a header line longer than %d bytes", errAnswer, c.r.Size())
		}
		return nil, err
	}
	return bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r")), nil
}

// orElse returns err when it is not nil, else alt.
func orElse(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}
