package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestTextBothBackendsStore sends what PostgreSQL cannot keep in a text
// column (NUL, invalid UTF-8) and numbers past a 32-bit column: every one is
// a 400 INVALID_INPUT naming the field, on either backend
// (DEBATE_TEST_STORE=postgres runs it on PostgreSQL), and nothing is written.
func TestTextBothBackendsStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	doc := f.call("POST", "/documents", `{"content":"v1"}`)
	if doc.status != http.StatusCreated {
		t.Fatalf("create document: %d %s", doc.status, doc.raw)
	}
	docID := decode[struct {
		Document struct{ ID string } `json:"document"`
	}](t, doc.env.Data).Document.ID
	tests := []struct {
		name, method, path, body, field string
	}{
		{"NUL in a title", "POST", "/debates", strings.Replace(createBody("d2", "k2"), "Tabs", `Tabs\u0000`, 1), "title"},
		{"NUL in a motion", "POST", "/debates", strings.Replace(createBody("d2", "k2"), "Spaces.", `\u0000`, 1), "motion_content"},
		{"invalid UTF-8 in a debate id", "POST", "/debates", strings.Replace(createBody("d2", "k2"), `"d2"`, "\"d\xff\xfe\"", 1), "debate_id"},
		{"NUL in a target id", "POST", "/debates/d1/arguments", `{"role":"opponent","target_id":"` + motion + `\u0000","content":"c","client_request_id":"k"}`, "target_id"},
		{"NUL in a document", "POST", "/documents", `{"content":"a\u0000b"}`, "content"},
		{"NUL in a version", "POST", "/documents/" + docID + "/versions", `{"content":"\u0000"}`, "content"},
		{"NUL in a path id", "GET", "/debates/%00", "", "path"},
		{"invalid UTF-8 in a path id", "GET", "/debates/%ff%fe", "", "path"},
		{"invalid UTF-8 in a deleted id", "DELETE", "/debates/%ff%fe", "", "path"},
		{"NUL in a document id", "POST", "/documents/%00/versions", `{"content":"x"}`, "path"},
		{"NUL in a poll argument", "GET", "/debates/d1/poll?role=opponent&argument_id=%00", "", "argument_id"},
		{"version past int4", "GET", "/documents/" + docID + "?version=2147483648", "", "version"},
		{"limit past int4", "GET", "/debates/d1?limit=99999999999", "", "limit"},
		{"offset past int4", "GET", "/debates?offset=2147483648", "", "offset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(tt.method, tt.path, tt.body)
			if r.status != http.StatusBadRequest || r.env.Error == nil || r.env.Error.Code != "INVALID_INPUT" ||
				!strings.HasPrefix(r.env.Error.Message, tt.field+":") {
				t.Fatalf("got %d %s; want 400 INVALID_INPUT naming %s", r.status, r.raw, tt.field)
			}
		})
	}
	if n := countArguments(t, f, "d1"); n != 1 {
		t.Errorf("refused writes changed d1: %d arguments", n)
	}
	if r := f.call("GET", "/debates/d2", ""); r.status != http.StatusNotFound {
		t.Errorf("a refused debate was created: %d %s", r.status, r.raw)
	}
	if r := f.call("GET", "/documents/"+docID+"?version=2147483647", ""); r.status != http.StatusNotFound {
		t.Errorf("the largest version is not a plain not-found: %d %s", r.status, r.raw)
	}
}
