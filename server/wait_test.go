package server

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// waitFor yields until cond holds; it has no deadline of its own (the test
// binary's -timeout is the bound), so it asserts no timing.
func waitFor(cond func() bool) {
	for !cond() {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// TestPollWakesOnWrite holds a long-poll, writes, and checks that the waiter
// returns the written argument with the action for its role.
func TestPollWakesOnWrite(t *testing.T) {
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	got := make(chan response, 1)
	go func() { got <- f.call("GET", "/debates/d1/poll?role=proposer&argument_id="+motion+"&wait=60", "") }()
	waitFor(func() bool { return f.srv.waiting.Load() == 1 })
	w := f.call("POST", "/debates/d1/arguments", `{"role":"opponent","target_id":"`+motion+`","content":"No.","client_request_id":"o1"}`)
	written := decode[api.WriteResult](t, w.env.Data).Argument
	r := <-got
	p := decode[api.PollResult](t, r.env.Data)
	if r.status != 200 || !p.HasNewArgument || p.Argument == nil || p.Argument.ID != written.ID || p.Action != "respond" ||
		p.DebateState != "AWAITING_PROPOSER" || p.LastSeenSeq != 1 || len(p.AvailableActions) != 3 {
		t.Fatalf("poll answered %d %s, want the opponent's claim %s", r.status, r.raw, written.ID)
	}
}

func TestPollAnswersAtOnce(t *testing.T) {
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	// Without wait, nothing new: the seed's immediate answer.
	r := f.call("GET", "/debates/d1/poll?role=opponent&argument_id="+motion, "")
	p := decode[api.PollResult](t, r.env.Data)
	if r.status != 200 || p.HasNewArgument || p.Argument != nil || p.Action != "" || p.DebateID != "d1" || p.LastSeenSeq != 1 {
		t.Fatalf("immediate poll: %s", r.raw)
	}
	// Without argument_id the MOTION is new: the opponent responds.
	r = f.call("GET", "/debates/d1/poll?role=opponent", "")
	if p := decode[api.PollResult](t, r.env.Data); !p.HasNewArgument || p.Action != "respond" || p.Argument.ID != motion {
		t.Fatalf("first poll: %s", r.raw)
	}
	// A closed debate answers debate_closed at once even with a long wait.
	f.call("POST", "/debates/d1/intervention", `{}`)
	closing := f.call("POST", "/debates/d1/ruling", `{"content":"Done.","close":true}`)
	last := decode[api.WriteResult](t, closing.env.Data).Argument.ID
	r = f.call("GET", "/debates/d1/poll?role=proposer&wait=60&argument_id="+last, "")
	if p := decode[api.PollResult](t, r.env.Data); p.Action != "debate_closed" || p.HasNewArgument || p.DebateState != "CLOSED" {
		t.Fatalf("closed poll: %s", r.raw)
	}
}

// TestShutdownDrainsLongPoll serves on a real listener, holds a long-poll
// and a WebSocket, then ends the server's context: the poll is answered
// (nothing new), the WebSocket is closed with "going away", Serve returns
// nil, and the store is still usable by its owner.
func TestShutdownDrainsLongPoll(t *testing.T) {
	st, err := store.Open(context.Background(), testDB(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := New(st, Options{Logger: discardLogger()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	res, err := st.Create(context.Background(), protocol.NewDebate{ID: "d1", Title: "t", Type: "general_debate", Content: "m", ClientRequestID: "k"})
	if err != nil {
		t.Fatal(err)
	}
	conn, _, err := websocket.Dial(context.Background(), "ws://"+ln.Addr().String()+"/ws?debate_id=d1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	var initial api.Frame
	if err := wsjson.Read(context.Background(), conn, &initial); err != nil || initial.Type != api.FrameInitialState {
		t.Fatalf("initial frame %+v, %v", initial, err)
	}

	polled := make(chan *http.Response, 1)
	go func() {
		r, err := http.Get(base + "/debates/d1/poll?role=proposer&wait=60&argument_id=" + res.Argument.ID)
		if err != nil {
			t.Error(err)
		}
		polled <- r
	}()
	waitFor(func() bool { return srv.waiting.Load() == 1 })
	cancel()

	r := <-polled
	if r == nil {
		t.FailNow()
	}
	var env struct {
		Data api.PollResult `json:"data"`
	}
	err = json.NewDecoder(r.Body).Decode(&env)
	r.Body.Close()
	if r.StatusCode != 200 || err != nil || env.Data.HasNewArgument || env.Data.DebateState != "AWAITING_OPPONENT" {
		t.Fatalf("drained poll: %d %+v %v", r.StatusCode, env.Data, err)
	}
	_, _, err = conn.Read(context.Background())
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("websocket ended with %v, want going away", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get(base + "/health"); err == nil {
		t.Fatal("the server still accepts connections after shutdown")
	}
	if _, err := st.Get(context.Background(), "d1", -1); err != nil {
		t.Fatalf("store after shutdown: %v", err)
	}
}

// TestShutdownClosesUnusedConnections: a connection that never sent a request
// (browsers open them ahead of need) does not hold a graceful shutdown past a
// short timeout; it is closed.
func TestShutdownClosesUnusedConnections(t *testing.T) {
	st, err := store.Open(context.Background(), testDB(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// net/http waits 5 s for such connections on its own; a timeout of 1 s
	// fails the shutdown unless they are closed first.
	srv := New(st, Options{Logger: discardLogger(), ShutdownTimeout: time.Second})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	// A request on another connection proves the server has accepted both.
	if r, err := http.Get("http://" + ln.Addr().String() + "/health"); err != nil {
		t.Fatal(err)
	} else {
		r.Body.Close()
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := idle.Read(make([]byte, 1)); err == nil {
		t.Error("the unused connection is still open after shutdown")
	}
}

// TestRulingWhileComposing: the proposer got CLAIM #4 to answer, and while
// it composed, the arbitrator made INTERVENTION #5 and RULING #6. Its APPEAL
// targeting #4 is refused naming the RULING and the command to read it; its
// poll from the argument it had seen before lists all three, oldest first.
func TestRulingWhileComposing(t *testing.T) {
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	write := func(path, body string) api.Argument {
		t.Helper()
		r := f.call("POST", "/debates/d1/"+path, body)
		if r.status != http.StatusCreated {
			t.Fatalf("%s: %d %s", path, r.status, r.raw)
		}
		return decode[api.WriteResult](t, r.env.Data).Argument
	}
	c2 := write("arguments", `{"role":"opponent","target_id":"`+motion+`","content":"Tabs.","client_request_id":"o1"}`)
	c3 := write("arguments", `{"role":"proposer","target_id":"`+c2.ID+`","content":"Spaces.","client_request_id":"p1"}`)
	c4 := write("arguments", `{"role":"opponent","target_id":"`+c3.ID+`","content":"Tabs, again.","client_request_id":"o2"}`)
	p := decode[api.PollResult](t, f.call("GET", "/debates/d1/poll?role=proposer&argument_id="+c3.ID, "").env.Data)
	if p.Argument == nil || p.Argument.ID != c4.ID || p.Action != "respond" {
		t.Fatalf("the proposer is not told to answer #4: %+v", p)
	}
	iv := write("intervention", `{"content":"Stop: the plan lacks a cache warm-up."}`)
	ruling := write("ruling", `{"content":"Add the cache warm-up to the plan."}`)

	r := f.call("POST", "/debates/d1/appeal", `{"target_id":"`+c4.ID+`","content":"Which option?","client_request_id":"p2"}`)
	if r.status != http.StatusForbidden || r.env.Error == nil || r.env.Error.Code != "ACTION_NOT_ALLOWED" ||
		!strings.Contains(r.env.Error.Message, "RULING "+ruling.ID) ||
		!strings.Contains(r.env.Error.Suggestion, "debate get-context --debate-id d1") || r.env.Error.CurrentState != "AWAITING_PROPOSER" {
		t.Fatalf("stale appeal: %d %s; want 403 naming RULING %s and how to read it", r.status, r.raw, ruling.ID)
	}

	r = f.call("GET", "/debates/d1/poll?role=proposer&wait=5&argument_id="+c3.ID, "")
	p = decode[api.PollResult](t, r.env.Data)
	var got []string
	for _, a := range p.Arguments {
		got = append(got, a.Type+" "+a.ID)
	}
	want := []string{"CLAIM " + c4.ID, "INTERVENTION " + iv.ID, "RULING " + ruling.ID}
	if !slices.Equal(got, want) || p.Argument == nil || p.Argument.ID != ruling.ID || p.Action != "align_to_ruling" {
		t.Fatalf("poll from #3: arguments %v, newest %v, action %s; want %v", got, p.Argument, p.Action, want)
	}
	write("appeal", `{"target_id":"`+ruling.ID+`","content":"Which warm-up?","client_request_id":"p3"}`)
}
