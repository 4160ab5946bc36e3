package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

func TestDecoders(t *testing.T) {
	type decoder func([]byte) (any, error)
	wrap := func(f any) decoder {
		return func(b []byte) (any, error) {
			out := reflect.ValueOf(f).Call([]reflect.Value{reflect.ValueOf(b)})
			err, _ := out[1].Interface().(error)
			return out[0].Interface(), err
		}
	}
	create, claim, targeted := wrap(DecodeCreateDebate), wrap(DecodeClaim), wrap(DecodeTargeted)
	intervention, ruling := wrap(DecodeIntervention), wrap(DecodeRuling)
	doc, version := wrap(DecodeCreateDocument), wrap(DecodeSubmitDocument)
	const okCreate = `{"debate_id":"d1","title":"T","debate_type":"general_debate","motion_content":"M","client_request_id":"k"}`
	tests := []struct {
		name    string
		decode  decoder
		body    string
		want    any    // the decoded request when accepted
		wantErr string // a fragment of the message when refused
	}{
		{"create ok", create, okCreate, CreateDebateRequest{"d1", "T", "general_debate", "M", "k"}, ""},
		{"create unknown field kept compatible", create, strings.Replace(okCreate, "{", `{"extra":[1,2],`, 1), CreateDebateRequest{"d1", "T", "general_debate", "M", "k"}, ""},
		{"create number for string", create, strings.Replace(okCreate, `"title":"T"`, `"title":7`, 1), nil, "title: want a string, got number"},
		{"create missing field", create, `{"debate_id":"d1","title":"T","debate_type":"general_debate","client_request_id":"k"}`, nil, "motion_content is required"},
		{"create empty string", create, strings.Replace(okCreate, `"title":"T"`, `"title":""`, 1), nil, "title is required"},
		{"create null is missing", create, strings.Replace(okCreate, `"title":"T"`, `"title":null`, 1), nil, "title is required"},
		{"create bad type", create, strings.Replace(okCreate, "general_debate", "chat", 1), nil, `unknown debate_type "chat"`},
		{"not an object", create, `["x"]`, nil, "want a JSON object, got array"},
		{"invalid json", create, `{"title":`, nil, "not valid JSON"},
		{"trailing data", create, okCreate + `{}`, nil, "not valid JSON"},
		{"empty body", create, ``, nil, "request body is empty"},
		{"claim ok", claim, `{"role":"opponent","target_id":"a","content":"c","client_request_id":"k"}`, ArgumentRequest{"opponent", "a", "c", "k"}, ""},
		{"claim role number", claim, `{"role":1,"target_id":"a","content":"c","client_request_id":"k"}`, nil, "role: want a string, got number"},
		{"claim unknown role", claim, `{"role":"judge","target_id":"a","content":"c","client_request_id":"k"}`, nil, `unknown role "judge"`},
		{"claim content object", claim, `{"role":"proposer","target_id":"a","content":{},"client_request_id":"k"}`, nil, "content: want a string, got object"},
		{"appeal ok ignores role", targeted, `{"role":"x","target_id":"a","content":"c","client_request_id":"k"}`, ArgumentRequest{"", "a", "c", "k"}, ""},
		{"appeal missing target", targeted, `{"content":"c","client_request_id":"k"}`, nil, "target_id is required"},
		{"intervention empty body", intervention, ``, InterventionRequest{}, ""},
		{"intervention content", intervention, `{"content":"stop"}`, InterventionRequest{Content: "stop"}, ""},
		{"intervention crid bool", intervention, `{"client_request_id":true}`, nil, "client_request_id: want a string, got boolean"},
		{"ruling close true", ruling, `{"content":"r","close":true}`, RulingRequest{Content: "r", Close: true}, ""},
		{"ruling close false", ruling, `{"content":"r","close":false}`, RulingRequest{Content: "r"}, ""},
		{"ruling close null", ruling, `{"content":"r","close":null}`, RulingRequest{Content: "r"}, ""},
		{"ruling close string refused", ruling, `{"content":"r","close":"true"}`, nil, "close: want a boolean (true or false), got string"},
		{"ruling close number refused", ruling, `{"content":"r","close":1}`, nil, "close: want a boolean (true or false), got number"},
		{"ruling without content", ruling, `{"close":true}`, nil, "content is required"},
		{"document ok", doc, `{"title":"plan","content":"x"}`, CreateDocumentRequest{Title: "plan", Content: "x"}, ""},
		{"document title number", doc, `{"title":1,"content":"x"}`, nil, "title: want a string, got number"},
		{"version ok", version, `{"content":"x","client_request_id":"k"}`, SubmitDocumentRequest{"x", "k"}, ""},
		{"version missing content", version, `{}`, nil, "content is required"},
		{"escaped NUL in a title", create, strings.Replace(okCreate, `"title":"T"`, `"title":"a\u0000b"`, 1), nil, "title: holds a NUL character"},
		{"escaped NUL in a motion", create, strings.Replace(okCreate, `"motion_content":"M"`, `"motion_content":"\u0000"`, 1), nil, "motion_content: holds a NUL character"},
		{"escaped NUL in a target id", claim, `{"role":"opponent","target_id":"a\u0000","content":"c","client_request_id":"k"}`, nil, "target_id: holds a NUL character"},
		{"escaped NUL in a document", doc, `{"content":"x\u0000y"}`, nil, "content: holds a NUL character"},
		{"invalid UTF-8 in a title", create, strings.Replace(okCreate, `"title":"T"`, "\"title\":\"\xff\xfe\"", 1), nil, "title: not valid UTF-8"},
		{"invalid UTF-8 with an escape", doc, "{\"content\":\"\\n\xc3\"}", nil, "content: not valid UTF-8"},
		{"lone surrogate is a replacement character", doc, `{"content":"\ud800"}`, CreateDocumentRequest{Content: "\ufffd"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.decode([]byte(tt.body))
			if tt.wantErr != "" {
				if protocol.CodeOf(err) != protocol.CodeInvalidInput || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v (%s), want INVALID_INPUT containing %q", err, protocol.CodeOf(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestErrorBodyAllowedRoles(t *testing.T) {
	_, err := protocol.Transition(protocol.AwaitingOpponent, protocol.Appeal, protocol.Proposer, false)
	pe := err.(*protocol.Error)
	b, _ := json.Marshal(FromError(pe))
	if !strings.Contains(string(b), `"allowed_roles":[]`) || !strings.Contains(string(b), `"current_state":"AWAITING_OPPONENT"`) {
		t.Errorf("refusal without allowed roles lost its context: %s", b)
	}
	b, _ = json.Marshal(FromError(protocol.Errorf(protocol.CodeDebateNotFound, "debate x not found")))
	if strings.Contains(string(b), "allowed_roles") || strings.Contains(string(b), "current_state") {
		t.Errorf("not-found error carries refusal fields: %s", b)
	}
}

// roundTrip checks that a body the decoder accepted, encoded again the way
// the client sends it, is accepted again with the same value.
func roundTrip[T any](t *testing.T, body []byte, decode func([]byte) (T, error)) {
	r, err := decode(body)
	if err != nil {
		if protocol.CodeOf(err) != protocol.CodeInvalidInput {
			t.Fatalf("refusal is %s, want INVALID_INPUT: %v", protocol.CodeOf(err), err)
		}
		return
	}
	again, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := noBadText(r); err != nil {
		t.Fatalf("accepted %q holding %v", body, err)
	}
	r2, err := decode(again)
	if err != nil {
		t.Fatalf("accepted %q but refused its re-encoding %s: %v", body, again, err)
	}
	if !reflect.DeepEqual(r, r2) {
		t.Fatalf("re-encoding changed the request: %+v vs %+v", r, r2)
	}
}

func seeds(f *testing.F, bodies ...string) {
	for _, b := range append(bodies, ``, `{}`, `null`, `[]`, `{"content":1}`, `{"a":`, "{\"content\":\"\xff\"}", `{"content":"\u0000"}`) {
		f.Add([]byte(b))
	}
}

func FuzzDecodeCreate(f *testing.F) {
	seeds(f, `{"debate_id":"d","title":"t","debate_type":"general_debate","motion_content":"m","client_request_id":"k"}`)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip(t, b, DecodeCreateDebate) })
}

func FuzzDecodeArgument(f *testing.F) {
	seeds(f, `{"role":"opponent","target_id":"a","content":"c","client_request_id":"k"}`)
	f.Fuzz(func(t *testing.T, b []byte) {
		roundTrip(t, b, DecodeClaim)
		roundTrip(t, b, DecodeTargeted)
	})
}

func FuzzDecodeRuling(f *testing.F) {
	seeds(f, `{"content":"r","close":true,"client_request_id":"k"}`, `{"content":"r","close":"true"}`)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip(t, b, DecodeRuling) })
}

func FuzzDecodeIntervention(f *testing.F) {
	seeds(f, `{"content":"stop","client_request_id":"k"}`)
	f.Fuzz(func(t *testing.T, b []byte) { roundTrip(t, b, DecodeIntervention) })
}

func FuzzDecodeDocument(f *testing.F) {
	seeds(f, `{"title":"plan","content":"x","client_request_id":"k"}`)
	f.Fuzz(func(t *testing.T, b []byte) {
		roundTrip(t, b, DecodeCreateDocument)
		roundTrip(t, b, DecodeSubmitDocument)
	})
}

// TestScanObject checks which bodies the fast scanner takes, and that what
// it takes it reads as encoding/json does.
func TestScanObject(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
	}{
		{`{}`, true},
		{"{ \t\r\n}", true},
		{` {}`, false},
		{`{"role":"opponent","target_id":"a-1","content":"c","client_request_id":"k"}`, true},
		{"{\n\t\"content\" : \"two\\nlines, \\\"quoted\\\", \\u00e9\\ud83c\\udf89 \\/ \\\\\" ,\r\n\"close\":true}", true},
		{`{"close":false,"n":-12.5e+3,"z":0,"x":null,"e":1E2}`, true},
		{`{"content":"a","content":"b"}`, true},
		{"{\"content\":\"\xff invalid utf-8\"}", true},
		{`{"extra":[1,2],"content":"c"}`, false},
		{`{"extra":{},"content":"c"}`, false},
		{`{"cont\u0065nt":"c"}`, false},
		{`{"content":"c"} {}`, false},
		{`{"content":"c",}`, false},
		{`{"content" "c"}`, false},
		{`{"content":"c"`, false},
		{`{"content":tru}`, false},
		{`{"content":01}`, false},
		{`{"content":1.}`, false},
		{`{"content":-}`, false},
		{`{"content":1e}`, false},
		{`{"content":"\x"}`, false},
		{`{"content":"\u12"}`, false},
		{"{\"content\":\"tab\there\"}", false},
		{`{content:"c"}`, false},
	}
	for _, tt := range tests {
		if _, ok := scanObject([]byte(tt.body)); ok != tt.ok {
			t.Errorf("scanObject(%q) ok %v, want %v", tt.body, ok, tt.ok)
		}
		sameAsUnmarshal(t, []byte(tt.body))
	}
}

// sameAsUnmarshal fails t when scanObject takes body but reads it otherwise
// than json.Unmarshal into a map of raw values, or a string value otherwise
// than json.Unmarshal into a string.
func sameAsUnmarshal(t *testing.T, body []byte) {
	t.Helper()
	o, ok := scanObject(body)
	if !ok {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("scanObject took %q, which json.Unmarshal refuses: %v", body, err)
	}
	names := map[string]bool{}
	for _, mem := range o {
		names[string(mem.name)] = true
	}
	if len(names) != len(m) {
		t.Fatalf("scanObject(%q) has %d names, json.Unmarshal %d", body, len(names), len(m))
	}
	for name, want := range m {
		raw, found := o.get(name)
		if !found || !bytes.Equal(raw, want) {
			t.Fatalf("scanObject(%q): %s is %q (%v), json.Unmarshal %q", body, name, raw, found, want)
		}
		if kind(raw) != "string" {
			continue
		}
		var got, wantS string
		if err := unquote(raw, &got); err != nil {
			t.Fatalf("unquote(%q): %v", raw, err)
		}
		if err := json.Unmarshal(raw, &wantS); err != nil || got != wantS {
			t.Fatalf("unquote(%q) = %q, json.Unmarshal %q (%v)", raw, got, wantS, err)
		}
	}
}

func FuzzScanObject(f *testing.F) {
	for _, b := range []string{`{"role":"opponent","target_id":"a","content":"c\n\"d\"","client_request_id":"k"}`,
		`{"close":true,"x":-1.5e3,"y":null,"content":"a","content":"b"}`, "{\"a\":\"\xff\xfe\",\"b\":\"\\ud800\"}", `{}`} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == '{' {
			sameAsUnmarshal(t, b)
		}
	})
}

// noBadText returns an error for the first string field of the struct v that
// is not valid UTF-8 or holds a NUL.
func noBadText(v any) error {
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Kind() == reflect.String {
			if err := CheckText(rv.Type().Field(i).Name, f.String()); err != nil {
				return err
			}
		}
	}
	return nil
}
