package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

type fixture struct {
	t    testing.TB
	path string
	st   *store.Store
	srv  *Server
	ts   *httptest.Server
	logs *testkit.Buffer
}

func newFixture(t testing.TB, opt Options) *fixture {
	t.Helper()
	path := testDB(t)
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	opt.Logger = slog.New(slog.NewTextHandler(logs, nil))
	srv := New(st, opt)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.stop()
		ts.Close()
		st.Close()
	})
	return &fixture{t: t, path: path, st: st, srv: srv, ts: ts, logs: logs}
}

func (f *fixture) dbPath() string { return f.path }

type response struct {
	status int
	header http.Header
	raw    string
	env    struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *api.ErrorBody  `json:"error"`
	}
}

// call sends a request; headers come as name, value pairs. A body is sent as
// application/json unless a Content-Type header is given.
func (f *fixture) call(method, path, body string, headers ...string) response {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return f.do(req)
}

// do sends req and decodes the envelope of its answer.
func (f *fixture) do(req *http.Request) response {
	f.t.Helper()
	res, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, raw: string(b)}
	if err := json.Unmarshal(b, &r.env); err != nil {
		f.t.Fatalf("%s %s: body is not JSON: %q", req.Method, req.URL.Path, b)
	}
	return r
}

func (f *fixture) create(id string) api.WriteResult {
	f.t.Helper()
	r := f.call("POST", "/debates", createBody(id, "k-"+id))
	if r.status != http.StatusCreated {
		f.t.Fatalf("create %s: %d %s", id, r.status, r.raw)
	}
	return decode[api.WriteResult](f.t, r.env.Data)
}

func createBody(id, crid string) string {
	return `{"debate_id":"` + id + `","title":"Tabs or spaces","debate_type":"general_debate","motion_content":"Spaces.","client_request_id":"` + crid + `"}`
}

func decode[T any](t testing.TB, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// TestRoutes walks one debate through every route, success and error paths,
// in order; {motion}, {last} and {doc} stand for ids produced by earlier
// steps.
func TestRoutes(t *testing.T) {
	f := newFixture(t, Options{MaxBody: 64 << 10})
	ids := map[string]string{}
	type step struct {
		name, method, path, body string
		status                   int
		code                     string
		check                    func(t *testing.T, data json.RawMessage, e *api.ErrorBody)
	}
	state := func(want protocol.State) func(*testing.T, json.RawMessage, *api.ErrorBody) {
		return func(t *testing.T, data json.RawMessage, _ *api.ErrorBody) {
			if got := decode[api.WriteResult](t, data).Debate.State; got != string(want) {
				t.Errorf("state %s, want %s", got, want)
			}
		}
	}
	claim := func(role, target, content, crid string) string {
		b, _ := json.Marshal(map[string]string{"role": role, "target_id": target, "content": content, "client_request_id": crid})
		return string(b)
	}
	steps := []step{
		{"health", "GET", "/health", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if decode[api.Health](t, d).Status != "ok" {
				t.Errorf("health: %s", d)
			}
		}},
		{"create", "POST", "/debates", createBody("d1", "c1"), 201, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			res := decode[api.WriteResult](t, d)
			if res.Argument.Type != "MOTION" || res.Argument.Seq != 1 || res.Argument.ParentID != nil || res.Replay || res.Debate.State != "AWAITING_OPPONENT" {
				t.Errorf("create: %s", d)
			}
		}},
		{"create replay", "POST", "/debates", createBody("d1", "c1"), 201, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if res := decode[api.WriteResult](t, d); !res.Replay || res.Argument.ID != ids["motion"] {
				t.Errorf("replay: %s", d)
			}
		}},
		{"create taken id", "POST", "/debates", createBody("d1", "c2"), 400, "INVALID_INPUT", nil},
		{"create bad type", "POST", "/debates", strings.Replace(createBody("d2", "c"), "general_debate", "chat", 1), 400, "INVALID_INPUT", nil},
		{"list", "GET", "/debates", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if l := decode[api.DebateList](t, d); l.Total != 1 || len(l.Debates) != 1 || l.Debates[0].ID != "d1" {
				t.Errorf("list: %s", d)
			}
		}},
		{"list by state", "GET", "/debates?state=CLOSED&limit=5&offset=0&pending_first_opponent=false", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if l := decode[api.DebateList](t, d); l.Total != 0 || l.Debates == nil {
				t.Errorf("list closed: %s", d)
			}
		}},
		{"list pending first opponent", "GET", "/debates?pending_first_opponent=true", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if l := decode[api.DebateList](t, d); l.Total != 1 {
				t.Errorf("pending: %s", d)
			}
		}},
		{"list unknown state", "GET", "/debates?state=OPEN", "", 400, "INVALID_INPUT", nil},
		{"list negative limit", "GET", "/debates?limit=-1", "", 400, "INVALID_INPUT", nil},
		{"list text offset", "GET", "/debates?offset=ten", "", 400, "INVALID_INPUT", nil},
		{"list bad flag", "GET", "/debates?pending_first_opponent=maybe", "", 400, "INVALID_INPUT", nil},
		{"get", "GET", "/debates/d1", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			c := decode[api.DebateContext](t, d)
			if c.Motion == nil || c.Motion.ID != ids["motion"] || c.Arguments == nil || !slices.Equal(c.AvailableActions["opponent"], []string{"CLAIM"}) {
				t.Errorf("get: %s", d)
			}
		}},
		{"get bad limit", "GET", "/debates/d1?limit=x", "", 400, "INVALID_INPUT", nil},
		{"get missing", "GET", "/debates/nope", "", 404, "DEBATE_NOT_FOUND", nil},
		{"claim out of turn", "POST", "/debates/d1/arguments", claim("proposer", "{motion}", "again", "p1"), 403, "ACTION_NOT_ALLOWED",
			func(t *testing.T, _ json.RawMessage, e *api.ErrorBody) {
				if e.CurrentState != "AWAITING_OPPONENT" || !slices.Equal(e.AllowedRoles, []string{"opponent"}) || e.Suggestion == "" {
					t.Errorf("refusal context: %+v", e)
				}
			}},
		{"claim", "POST", "/debates/d1/arguments", claim("opponent", "{motion}", "Tabs.", "o1"), 201, "", state(protocol.AwaitingProposer)},
		{"claim replay", "POST", "/debates/d1/arguments", claim("opponent", "{motion}", "Tabs.", "o1"), 201, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if res := decode[api.WriteResult](t, d); !res.Replay || res.Argument.ID != ids["last"] || res.Argument.Content != "Tabs." {
				t.Errorf("claim replay: %s", d)
			}
		}},
		{"claim unknown target", "POST", "/debates/d1/arguments", claim("proposer", "nope", "x", "p2"), 400, "INVALID_INPUT", nil},
		{"claim missing debate", "POST", "/debates/nope/arguments", claim("proposer", "{motion}", "x", "p2"), 404, "DEBATE_NOT_FOUND", nil},
		{"claim too long", "POST", "/debates/d1/arguments", claim("proposer", "{last}", strings.Repeat("x", 10241), "p2"), 413, "CONTENT_TOO_LARGE", nil},
		{"claim role number", "POST", "/debates/d1/arguments", `{"role":1,"target_id":"{last}","content":"x","client_request_id":"p2"}`, 400, "INVALID_INPUT",
			func(t *testing.T, _ json.RawMessage, e *api.ErrorBody) {
				if e.Message != "role: want a string, got number" {
					t.Errorf("message %q", e.Message)
				}
			}},
		{"appeal", "POST", "/debates/d1/appeal", `{"target_id":"{last}","content":"Rule please.","client_request_id":"a1"}`, 201, "", state(protocol.AwaitingArbitrator)},
		{"ruling stays open", "POST", "/debates/d1/ruling", `{"content":"Spaces.","close":false}`, 201, "", state(protocol.AwaitingProposer)},
		{"intervention with an empty body", "POST", "/debates/d1/intervention", "", 201, "", state(protocol.InterventionPending)},
		{"ruling close as string refused", "POST", "/debates/d1/ruling", `{"content":"x","close":"true"}`, 400, "INVALID_INPUT", nil},
		{"ruling", "POST", "/debates/d1/ruling", `{"content":"Go on.","client_request_id":"r2"}`, 201, "", state(protocol.AwaitingProposer)},
		{"resolution closes", "POST", "/debates/d1/resolution", `{"target_id":"{last}","content":"Agreed.","client_request_id":"res"}`, 201, "",
			func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
				res := decode[api.WriteResult](t, d)
				if res.Debate.State != "CLOSED" || res.AutoRuling == nil || res.AutoRuling.Content != protocol.AutoRulingContent || res.Argument.Type != "RESOLUTION" {
					t.Errorf("resolution: %s", d)
				}
			}},
		{"claim after close", "POST", "/debates/d1/arguments", claim("proposer", "{last}", "x", "p3"), 403, "ACTION_NOT_ALLOWED", func(t *testing.T, _ json.RawMessage, e *api.ErrorBody) {
			if e.CurrentState != "CLOSED" || e.AllowedRoles == nil || len(e.AllowedRoles) != 0 {
				t.Errorf("closed refusal: %+v", e)
			}
		}},
		{"poll closed", "GET", "/debates/d1/poll?role=opponent&argument_id={last}", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			p := decode[api.PollResult](t, d)
			if p.Action != "debate_closed" || p.DebateState != "CLOSED" || p.Argument == nil || p.AvailableActions == nil {
				t.Errorf("poll: %s", d)
			}
		}},
		{"poll without role", "GET", "/debates/d1/poll", "", 400, "INVALID_INPUT", nil},
		{"poll unknown role", "GET", "/debates/d1/poll?role=judge", "", 400, "INVALID_INPUT", nil},
		{"poll wait too long", "GET", "/debates/d1/poll?role=proposer&wait=61", "", 400, "INVALID_INPUT", nil},
		{"poll wait not a number", "GET", "/debates/d1/poll?role=proposer&wait=soon", "", 400, "INVALID_INPUT", nil},
		{"poll foreign argument", "GET", "/debates/d1/poll?role=proposer&argument_id=nope", "", 400, "INVALID_INPUT", nil},
		{"poll missing debate", "GET", "/debates/nope/poll?role=proposer", "", 404, "DEBATE_NOT_FOUND", nil},
		{"delete", "DELETE", "/debates/d1", "", 200, "", nil},
		{"delete again", "DELETE", "/debates/d1", "", 404, "DEBATE_NOT_FOUND", nil},
		{"document create", "POST", "/documents", `{"title":"plan","content":"v1"}`, 201, "", nil},
		{"document version", "POST", "/documents/{doc}/versions", `{"content":"v2","client_request_id":"dv2"}`, 201, "", nil},
		{"document version replay", "POST", "/documents/{doc}/versions", `{"content":"v2","client_request_id":"dv2"}`, 201, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if r := decode[api.DocumentResult](t, d); !r.Replay || r.Document.Version != 2 {
				t.Errorf("version replay: %s", d)
			}
		}},
		{"document latest", "GET", "/documents/{doc}", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if r := decode[api.DocumentResult](t, d); r.Document.Version != 2 || r.Document.Content != "v2" || r.Document.Title != "plan" {
				t.Errorf("document: %s", d)
			}
		}},
		{"document v1", "GET", "/documents/{doc}?version=1", "", 200, "", func(t *testing.T, d json.RawMessage, _ *api.ErrorBody) {
			if r := decode[api.DocumentResult](t, d); r.Document.Content != "v1" || r.Document.LatestVersion != 2 {
				t.Errorf("document v1: %s", d)
			}
		}},
		{"document missing version", "GET", "/documents/{doc}?version=9", "", 404, "DOCUMENT_NOT_FOUND", nil},
		{"document bad version", "GET", "/documents/{doc}?version=first", "", 400, "INVALID_INPUT", nil},
		{"document missing", "GET", "/documents/nope", "", 404, "DOCUMENT_NOT_FOUND", nil},
		{"document version missing", "POST", "/documents/nope/versions", `{"content":"x"}`, 404, "DOCUMENT_NOT_FOUND", nil},
		{"document empty", "POST", "/documents", `{"content":""}`, 400, "INVALID_INPUT", nil},
		{"unknown route", "GET", "/nope", "", 404, "NOT_FOUND", nil},
		{"wrong method", "PUT", "/debates/d1", "", 405, "METHOD_NOT_ALLOWED", nil},
		{"body too large", "POST", "/documents", `{"content":"` + strings.Repeat("x", 70<<10) + `"}`, 413, "CONTENT_TOO_LARGE", nil},
		{"ws without debate", "GET", "/ws", "", 400, "INVALID_INPUT", nil},
		{"ws missing debate", "GET", "/ws?debate_id=nope", "", 404, "DEBATE_NOT_FOUND", nil},
	}
	for _, s := range steps {
		path, body := s.path, s.body
		for k, v := range ids {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
			body = strings.ReplaceAll(body, "{"+k+"}", v)
		}
		var h []string
		if s.method == "POST" {
			h = []string{"Content-Type", "application/json"}
		}
		r := f.call(s.method, path, body, h...)
		if r.status != s.status {
			t.Fatalf("%s: status %d, want %d: %s", s.name, r.status, s.status, r.raw)
		}
		if r.env.Success != (s.code == "") {
			t.Fatalf("%s: success %v: %s", s.name, r.env.Success, r.raw)
		}
		if s.code != "" && (r.env.Error == nil || r.env.Error.Code != s.code || r.env.Error.Message == "") {
			t.Fatalf("%s: error %s, want code %s", s.name, r.raw, s.code)
		}
		if s.check != nil {
			s.check(t, r.env.Data, r.env.Error)
		}
		if r.status == 201 && strings.HasPrefix(s.path, "/debates") {
			res := decode[api.WriteResult](t, r.env.Data)
			if res.Argument.Type == "MOTION" {
				ids["motion"] = res.Argument.ID
			}
			ids["last"] = res.Argument.ID
			if res.AutoRuling != nil {
				ids["last"] = res.AutoRuling.ID
			}
		}
		if r.status == 201 && s.path == "/documents" {
			ids["doc"] = decode[api.DocumentResult](t, r.env.Data).Document.ID
		}
	}
}

// TestStatusTable checks the one table from codes to statuses against SPEC
// 2.5, and that it covers every protocol code.
func TestStatusTable(t *testing.T) {
	want := map[protocol.Code]int{
		protocol.CodeInvalidInput: 400, protocol.CodeAuthFailed: 401, protocol.CodeActionNotAllowed: 403,
		protocol.CodeDebateNotFound: 404, protocol.CodeArgumentNotFound: 404, protocol.CodeDocumentNotFound: 404,
		protocol.CodeContentTooLarge: 413, protocol.CodeInternal: 500,
	}
	for _, c := range protocol.Codes {
		w, ok := want[c]
		if !ok {
			t.Errorf("code %s has no expected status in this test", c)
			continue
		}
		if got := statusOf(string(c)); got != w {
			t.Errorf("%s → %d, want %d", c, got, w)
		}
	}
	for code, want := range map[string]int{api.CodeRouteNotFound: 404, api.CodeMethodNotAllowed: 405,
		api.CodeUnsupportedMediaType: 415, api.CodeCrossSite: 403, api.CodeHostNotAllowed: 403, api.CodeRequestTimeout: 408} {
		if got := statusOf(code); got != want {
			t.Errorf("%s → %d, want %d", code, got, want)
		}
	}
	if got := statusOf("SOMETHING_NEW"); got != 500 {
		t.Errorf("unknown code → %d, want 500", got)
	}
}

func TestBodyValidation(t *testing.T) {
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	tests := []struct {
		name, path, body, contentType, message string
	}{
		{"number for string", "/debates/d1/arguments", `{"role":"opponent","target_id":"` + motion + `","content":42,"client_request_id":"k"}`, "", "content: want a string, got number"},
		{"missing content", "/debates/d1/arguments", `{"role":"opponent","target_id":"` + motion + `","client_request_id":"k"}`, "", "content is required"},
		{"missing request id", "/debates/d1/appeal", `{"target_id":"` + motion + `","content":"x"}`, "", "client_request_id is required"},
		{"array body", "/debates", `[]`, "", "want a JSON object, got array"},
		{"broken JSON", "/debates", `{"debate_id":`, "", "not valid JSON"},
		{"close as number", "/debates/d1/ruling", `{"content":"x","close":1}`, "", "close: want a boolean (true or false), got number"},
		{"title as bool", "/documents", `{"title":true,"content":"x"}`, "", "title: want a string, got boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h []string
			if tt.contentType != "" {
				h = []string{"Content-Type", tt.contentType}
			}
			r := f.call("POST", tt.path, tt.body, h...)
			if r.status != 400 || r.env.Error == nil || r.env.Error.Code != "INVALID_INPUT" || !strings.Contains(r.env.Error.Message, tt.message) {
				t.Fatalf("got %d %s, want 400 INVALID_INPUT with %q", r.status, r.raw, tt.message)
			}
		})
	}
	// Nothing of the above was written.
	c, err := f.st.Get(context.Background(), "d1", -1)
	if err != nil || len(c.Arguments) != 0 || c.Debate.State != protocol.AwaitingOpponent {
		t.Fatalf("refused bodies changed the debate: %+v, %v", c, err)
	}
}

func TestAuth(t *testing.T) {
	const token = "s3cret-token"
	f := newFixture(t, Options{Token: token})
	routes := []struct{ method, path, body string }{
		{"GET", "/health", ""},
		{"POST", "/debates", createBody("d1", "k")},
		{"GET", "/debates", ""},
		{"GET", "/debates/d1", ""},
		{"DELETE", "/debates/d1", ""},
		{"POST", "/debates/d1/arguments", `{}`},
		{"POST", "/debates/d1/appeal", `{}`},
		{"POST", "/debates/d1/resolution", `{}`},
		{"POST", "/debates/d1/intervention", `{}`},
		{"POST", "/debates/d1/ruling", `{}`},
		{"GET", "/debates/d1/poll?role=proposer", ""},
		{"GET", "/ws?debate_id=d1", ""},
		{"POST", "/documents", `{"content":"x"}`},
		{"POST", "/documents/x/versions", `{"content":"x"}`},
		{"GET", "/documents/x", ""},
		{"GET", "/nope", ""},
	}
	for _, rt := range routes {
		for _, h := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "Basic " + token}, {"Authorization", "Bearer " + token + "x"}} {
			f.srv.fails.forgive() // this test is not about slowing wrong tokens
			r := f.call(rt.method, rt.path, rt.body, h...)
			if r.status != 401 || r.env.Error == nil || r.env.Error.Code != "AUTH_FAILED" {
				t.Errorf("%s %s with %v: %d %s, want 401 AUTH_FAILED", rt.method, rt.path, h, r.status, r.raw)
			}
		}
		r := f.call(rt.method, rt.path, rt.body, "Authorization", "Bearer "+token)
		if r.status == 401 {
			t.Errorf("%s %s with the token: 401", rt.method, rt.path)
		}
	}
	// ?token= works for GET (browsers, WebSockets), not for writes.
	if r := f.call("GET", "/debates?token="+token, ""); r.status != 200 {
		t.Errorf("GET with ?token=: %d %s", r.status, r.raw)
	}
	f.srv.fails.forgive()
	if r := f.call("POST", "/documents?token="+token, `{"content":"x"}`); r.status != 401 {
		t.Errorf("POST with ?token=: %d, want 401", r.status)
	}
	if strings.Contains(f.logs.String(), token) {
		t.Error("the token appears in the log")
	}
}

// TestInternalErrorsDoNotLeak closes the database under the server: the
// client sees only "internal error" and a request id, the log has the cause.
func TestInternalErrorsDoNotLeak(t *testing.T) {
	f := newFixture(t, Options{})
	f.create("d1")
	f.st.Close()
	for _, rt := range []struct{ method, path, body string }{
		{"GET", "/debates/d1", ""},
		{"GET", "/debates", ""},
		{"POST", "/debates/d1/ruling", `{"content":"x"}`},
	} {
		r := f.call(rt.method, rt.path, rt.body)
		if r.status != 500 || r.env.Error == nil || r.env.Error.Code != "INTERNAL_ERROR" {
			t.Fatalf("%s %s: %d %s, want 500", rt.method, rt.path, r.status, r.raw)
		}
		id := r.header.Get("X-Request-Id")
		if r.env.Error.Message != "internal error (request "+id+")" || r.env.Error.RequestID != id || id == "" {
			t.Errorf("message %q, request id %q", r.env.Error.Message, id)
		}
		for _, leak := range []string{"sql", "database", "closed", "store", ".go"} {
			if strings.Contains(strings.ToLower(r.raw), leak) {
				t.Errorf("response leaks %q: %s", leak, r.raw)
			}
		}
		if !strings.Contains(f.logs.String(), "request_id="+id) {
			t.Errorf("log lacks request %s:\n%s", id, f.logs.String())
		}
	}
	if !strings.Contains(f.logs.String(), "closed") {
		t.Errorf("log lacks the cause:\n%s", f.logs.String())
	}
}

func TestPanicIsInternalError(t *testing.T) {
	boom := http.NewServeMux()
	boom.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("secret detail") })
	f := newFixture(t, Options{Pages: fakePages{mux: boom}})
	r := f.call("GET", "/boom", "")
	if r.status != 500 || strings.Contains(r.raw, "secret") || !strings.Contains(f.logs.String(), "secret detail") {
		t.Fatalf("panic: %d %s; log:\n%s", r.status, r.raw, f.logs.String())
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
