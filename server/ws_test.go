package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

type wsFrame struct {
	Type  string          `json:"type"`
	Event string          `json:"event"`
	ID    string          `json:"id"`
	Data  json.RawMessage `json:"data"`
	Error *api.ErrorBody  `json:"error"`
}

func (f *fixture) dial(query string, opts *websocket.DialOptions) (*websocket.Conn, *http.Response, error) {
	return websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(f.ts.URL, "http")+"/ws?"+query, opts)
}

func read(t *testing.T, c *websocket.Conn) wsFrame {
	t.Helper()
	var fr wsFrame
	if err := wsjson.Read(context.Background(), c, &fr); err != nil {
		t.Fatalf("read frame: %v", err)
	}
	if fr.Event != fr.Type {
		t.Fatalf("event %q differs from type %q", fr.Event, fr.Type)
	}
	return fr
}

func TestWebSocket(t *testing.T) {
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	c, _, err := f.dial("debate_id=d1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()

	fr := read(t, c)
	init := decode[api.InitialState](t, fr.Data)
	if fr.Type != api.FrameInitialState || init.Debate.ID != "d1" || len(init.Arguments) != 1 || init.Arguments[0].ID != motion {
		t.Fatalf("initial state: %+v", fr)
	}

	// A REST write reaches the socket.
	f.call("POST", "/debates/d1/arguments", `{"role":"opponent","target_id":"`+motion+`","content":"No.","client_request_id":"o1"}`)
	fr = read(t, c)
	na := decode[api.NewArgument](t, fr.Data)
	if fr.Type != api.FrameNewArgument || na.Argument.Seq != 2 || na.Debate.State != "AWAITING_PROPOSER" {
		t.Fatalf("new argument: %s", fr.Data)
	}

	// A write by another process on the same file (a second Store) too.
	other, err := store.Open(context.Background(), f.dbPath(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Submit(context.Background(), protocol.Write{DebateID: "d1", Type: "APPEAL", Role: "proposer",
		TargetID: na.Argument.ID, Content: "Rule.", ClientRequestID: "a1"}); err != nil {
		t.Fatal(err)
	}
	fr = read(t, c)
	if na := decode[api.NewArgument](t, fr.Data); na.Argument.Type != "APPEAL" || na.Argument.Seq != 3 || na.Debate.State != "AWAITING_ARBITRATOR" {
		t.Fatalf("other process's write: %s", fr.Data)
	}

	// Errors are answered with an error frame carrying the message id, and
	// change nothing.
	for _, m := range []struct{ msg, id, code, text string }{
		{`{"type":"submit_ruling","id":"e1","data":{"content":"x","close":"true"}}`, "e1", "INVALID_INPUT", "close: want a boolean"},
		{`{"type":"submit_ruling","id":"e2","data":{"content":7}}`, "e2", "INVALID_INPUT", "content: want a string, got number"},
		{`{"type":"submit_intervention","id":"e3"}`, "e3", "ACTION_NOT_ALLOWED", ""},
		{`{"type":"submit_ruling","id":"e4","data":{"debate_id":"d2","content":"x"}}`, "e4", "INVALID_INPUT", "not the debate of this connection"},
		{`{"type":"dance","id":"e5"}`, "e5", "INVALID_INPUT", "unknown message type"},
		{`not json`, "", "INVALID_INPUT", ""},
	} {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(m.msg)); err != nil {
			t.Fatal(err)
		}
		fr = read(t, c)
		if fr.Type != api.FrameError || fr.ID != m.id || fr.Error == nil || fr.Error.Code != m.code || !strings.Contains(fr.Error.Message, m.text) {
			t.Fatalf("%s: got %+v", m.msg, fr)
		}
	}

	// A ruling (seed form: "event") is answered, then fed back as a new
	// argument.
	if err := c.Write(context.Background(), websocket.MessageText,
		[]byte(`{"event":"submit_ruling","id":"r1","data":{"debate_id":"d1","content":"Closed.","close":true}}`)); err != nil {
		t.Fatal(err)
	}
	var submitted, fed bool
	for !submitted || !fed {
		fr = read(t, c)
		switch fr.Type {
		case api.FrameSubmitted:
			res := decode[api.WriteResult](t, fr.Data)
			if fr.ID != "r1" || res.Argument.Type != "RULING" || res.Debate.State != "CLOSED" {
				t.Fatalf("submitted: %+v", fr)
			}
			submitted = true
		case api.FrameNewArgument:
			if na := decode[api.NewArgument](t, fr.Data); na.Argument.Type != "RULING" || na.Debate.State != "CLOSED" || na.Argument.Seq != 4 {
				t.Fatalf("fed ruling: %s", fr.Data)
			}
			fed = true
		default:
			t.Fatalf("unexpected frame %+v", fr)
		}
	}

	// Deleting the debate ends the feed with an error frame.
	f.call("DELETE", "/debates/d1", "")
	fr = read(t, c)
	if fr.Type != api.FrameError || fr.Error.Code != "DEBATE_NOT_FOUND" {
		t.Fatalf("after delete: %+v", fr)
	}
	if _, _, err := c.Read(context.Background()); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("close after delete: %v", err)
	}
}

func TestWebSocketAuthAndOrigin(t *testing.T) {
	f := newFixture(t, Options{Token: "tok"})
	f.call("POST", "/debates", createBody("d1", "k"), "Authorization", "Bearer tok")
	tests := []struct {
		name   string
		query  string
		header http.Header
		ok     bool
	}{
		{"no token", "debate_id=d1", nil, false},
		{"wrong token", "debate_id=d1&token=nope", nil, false},
		{"query token", "debate_id=d1&token=tok", nil, true},
		{"header token", "debate_id=d1", http.Header{"Authorization": {"Bearer tok"}}, true},
		{"foreign origin", "debate_id=d1&token=tok", http.Header{"Origin": {"https://evil.example"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, res, err := f.dial(tt.query, &websocket.DialOptions{HTTPHeader: tt.header})
			if tt.ok {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				defer c.CloseNow()
				if fr := read(t, c); fr.Type != api.FrameInitialState {
					t.Fatalf("first frame %+v", fr)
				}
				return
			}
			if err == nil {
				c.CloseNow()
				t.Fatal("connected")
			}
			if res == nil || (res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusForbidden) {
				t.Fatalf("refused with %v, want 401 or 403", res)
			}
		})
	}
}

// TestWebSocketRefusalsAreJSON: what the WebSocket handshake refuses is in
// the JSON envelope, like every other error of the API.
func TestWebSocketRefusalsAreJSON(t *testing.T) {
	f := newFixture(t, Options{})
	f.create("d1")
	upgrade := []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}
	tests := []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"plain GET", nil, 400, "INVALID_INPUT"},
		{"foreign origin", append([]string{"Origin", "https://evil.example"}, upgrade...), 403, "CROSS_SITE_REQUEST"},
		{"null origin", append([]string{"Origin", "null"}, upgrade...), 403, "CROSS_SITE_REQUEST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call("GET", "/ws?debate_id=d1", "", tt.headers...)
			if r.status != tt.status || r.env.Error == nil || r.env.Error.Code != tt.code {
				t.Fatalf("got %d %s, want %d %s in the envelope", r.status, r.raw, tt.status, tt.code)
			}
		})
	}
}
