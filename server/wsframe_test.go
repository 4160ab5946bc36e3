package server

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestWebSocketFrameClaimsTooMuch: a client frame whose header claims more
// than the read limit ends the connection as soon as the header arrives,
// not at the next ping; frames within the limit before it are read as ever.
func TestWebSocketFrameClaimsTooMuch(t *testing.T) {
	t.Parallel()
	const limit = 1024
	tests := []struct {
		name   string
		header []byte // a masked binary frame's header, masking key included
	}{
		{"2^62 bytes", append([]byte{0x82, 0x80 | 127, 0x40, 0, 0, 0, 0, 0, 0, 0}, 1, 2, 3, 4)},
		{"top bit set", append([]byte{0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1}, 1, 2, 3, 4)},
		{"one byte past the limit", append([]byte{0x82, 0x80 | 126, byte((limit + 1) >> 8), byte((limit + 1) & 0xff)}, 1, 2, 3, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Options{MaxBody: limit, PingInterval: time.Hour})
			f.create("d1")
			c, err := net.Dial("tcp", f.ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// A guard against a hang only: the ping is an hour away.
			_ = c.SetDeadline(time.Now().Add(20 * time.Second))
			br := bufio.NewReader(c)
			_, _ = io.WriteString(c, "GET /ws?debate_id=d1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
				"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
			res, err := http.ReadResponse(br, nil)
			if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
				t.Fatalf("handshake: %v %v", res, err)
			}
			if op, data := readFrame(t, br); op != 1 || !strings.Contains(string(data), "initial_state") {
				t.Fatalf("first frame: %d %s", op, data)
			}
			// A frame within the limit is read and answered.
			_, _ = c.Write(maskedText(`{"type":"no_such_type"}`))
			if op, data := readFrame(t, br); op != 1 || !strings.Contains(string(data), `"error"`) {
				t.Fatalf("answer to a frame within the limit: %d %s", op, data)
			}
			_, _ = c.Write(tt.header)
			for {
				op, _, err := readFrameErr(br)
				if op == 8 || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isReset(err) {
					return // closed
				}
				if err != nil {
					t.Fatalf("the connection is still open after the header: %v", err)
				}
			}
		})
	}
}

// maskedText is a client's text frame of s.
func maskedText(s string) []byte {
	key := []byte{9, 8, 7, 6}
	b := append([]byte{0x81, 0x80 | byte(len(s))}, key...)
	for i := range len(s) {
		b = append(b, s[i]^key[i%4])
	}
	return b
}

func readFrame(t *testing.T, br *bufio.Reader) (byte, []byte) {
	t.Helper()
	op, data, err := readFrameErr(br)
	if err != nil {
		t.Fatal(err)
	}
	return op, data
}

// readFrameErr reads one server frame (unmasked) and returns its opcode
// and payload.
func readFrameErr(br *bufio.Reader) (byte, []byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var e [2]byte
		if _, err := io.ReadFull(br, e[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(e[:]))
	case 127:
		var e [8]byte
		if _, err := io.ReadFull(br, e[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(e[:])
	}
	data := make([]byte, n)
	_, err := io.ReadFull(br, data)
	return h[0] & 0x0f, data, err
}

// isReset reports whether err is a connection reset by the peer.
func isReset(err error) bool {
	var se *os.SyscallError
	return errors.As(err, &se) && strings.Contains(se.Error(), "reset")
}
