package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/store"
)

// TestDocumentPage: a document is a page for browsers, with its versions,
// the latest rendered and the diff from the version before; agents still get
// the API's JSON at the same URL.
func TestDocumentPage(t *testing.T) {
	f := newFixture(t, "", nil, store.Options{})
	ctx := context.Background()
	v1, _, err := f.st.CreateDocument(ctx, protocol.NewDocument{Title: "Cache plan",
		Content: "# Plan\n\n1. Build the cache.\n2. Ship it.\n\nKeep `Vec<String>` as it is.\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.st.SubmitDocument(ctx, v1.ID, "# Plan\n\n1. Build the cache.\n2. Warm the cache up.\n3. Ship it.\n\nKeep `Vec<String>` as it is.\n", ""); err != nil {
		t.Fatal(err)
	}
	path := "/documents/" + v1.ID
	p := f.get(path, browserAccept, "")
	if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
		t.Fatalf("browser: %d %s", p.status, p.body)
	}
	golden.Assert(t, filepath.Join("testdata", "document.html"), []byte(strings.ReplaceAll(mainOf(t, p.body), v1.ID, "DOC-ID")))

	first := mainOf(t, f.get(path+"?version=1", browserAccept, "").body)
	if !strings.Contains(first, "version 1 of 2") || strings.Contains(first, "Changes from") || !strings.Contains(first, `href="/documents/`+v1.ID+`?version=2"`) {
		t.Errorf("version 1: want no diff and a link to version 2:\n%s", first)
	}
	if p := f.get(path+"?version=2&from=2", browserAccept, ""); p.status != http.StatusBadRequest || !strings.Contains(p.body, "from: want a version older than 2") {
		t.Errorf("diff from itself: %d %s", p.status, mainOf(t, p.body))
	}
	if p := f.get(path+"?version=3", browserAccept, ""); p.status != http.StatusNotFound || !strings.Contains(p.body, "versions run from 1 to 2") {
		t.Errorf("missing version: %d %s", p.status, mainOf(t, p.body))
	}
	if p := f.get(path, "application/json", ""); p.status != http.StatusOK || !strings.Contains(p.body, `"latest_version":2`) {
		t.Errorf("agent: %d %s", p.status, p.body)
	}
}

// TestArgumentDocRefs: the rendered arguments name the existing documents
// their content mentions, for the page to link; other UUIDs are left alone.
func TestArgumentDocRefs(t *testing.T) {
	f := newFixture(t, "", nil, store.Options{})
	doc, _, err := f.st.CreateDocument(context.Background(), protocol.NewDocument{Title: "Plan", Content: "plan"})
	if err != nil {
		t.Fatal(err)
	}
	const stranger = "01890a5d-ac96-774b-bcce-b302099a8057"
	f.create("d1", "T", "The plan is "+doc.ID+" (not "+stranger+"); see "+doc.ID+" again.")
	f.submit(protocol.Write{DebateID: "d1", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "no documents here"})
	p := f.get("/ui/debates/d1/arguments", "", "")
	var env struct {
		Data rendered `json:"data"`
	}
	if err := json.Unmarshal([]byte(p.body), &env); err != nil || len(env.Data.Arguments) != 2 {
		t.Fatalf("%d %s", p.status, p.body)
	}
	if got := env.Data.Arguments[0].Docs; len(got) != 1 || got[0] != doc.ID {
		t.Errorf("motion's docs %v, want [%s]", got, doc.ID)
	}
	if got := env.Data.Arguments[1].Docs; len(got) != 0 {
		t.Errorf("intervention's docs %v, want none", got)
	}
}

// TestDocumentPageLargeVersions: two versions of a document at the size
// limit give a page of bounded size, whose diff says what it left out and
// links to the older version.
func TestDocumentPageLargeVersions(t *testing.T) {
	t.Parallel()
	const limit = store.DefaultDocumentLimit
	fill := func(line func(i int) string) string {
		var b strings.Builder
		for i := 0; ; i++ {
			l := line(i) + "\n"
			if b.Len()+len(l) > limit {
				return b.String()
			}
			b.WriteString(l)
		}
	}
	prose := func(tag string) func(int) string {
		return func(i int) string {
			return fmt.Sprintf("%s sentence %06d of the plan, long enough to be a line of prose & <code>", tag, i)
		}
	}
	tenth := func(i int) string {
		if i%10 == 9 {
			return prose("Changed")(i)
		}
		return prose("Kept")(i)
	}
	tests := []struct {
		name, old, new, note string
	}{
		{"a byte per line", fill(func(int) string { return "a" }), fill(func(int) string { return "b" }), "Too long to compare line by line"},
		{"every line changed", fill(prose("Old")), fill(prose("New")), "Changed entirely"},
		{"every tenth line changed", fill(prose("Kept")), fill(tenth), "more changed lines are not shown"},
	}
	f := newFixture(t, "", nil, store.Options{})
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v1, _, err := f.st.CreateDocument(ctx, protocol.NewDocument{Title: tt.name, Content: tt.old})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := f.st.SubmitDocument(ctx, v1.ID, tt.new, ""); err != nil {
				t.Fatal(err)
			}
			p := f.get("/documents/"+v1.ID, browserAccept, "")
			if p.status != http.StatusOK {
				t.Fatalf("%d %s", p.status, p.body)
			}
			if len(p.body) >= 2_000_000 {
				t.Errorf("page of %d bytes from two versions of %d and %d", len(p.body), len(tt.old), len(tt.new))
			}
			if !strings.Contains(p.body, tt.note) || !strings.Contains(p.body, `href="/documents/`+v1.ID+`?version=1"`) {
				t.Errorf("want %q and a link to version 1 in the diff:\n%.2000s", tt.note, mainOf(t, p.body))
			}
			if !strings.Contains(p.body, "format=text") {
				return
			}
			if txt := f.get("/documents/"+v1.ID+"?version=2&format=text", browserAccept, ""); txt.body != tt.new ||
				!strings.HasPrefix(txt.header.Get("Content-Type"), "text/plain") {
				t.Errorf("version 2 as text: %s, %d bytes, want %d", txt.header.Get("Content-Type"), len(txt.body), len(tt.new))
			}
		})
	}
}
