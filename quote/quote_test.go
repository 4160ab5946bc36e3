package quote

import (
	"fmt"
	"strings"
	"testing"
)

// docs are the shared documents of the tests: a design note with a line
// that wraps, a decisions list that repeats one sentence of it, and a note
// in Chinese.
var docs = []Document{
	{Name: "docs/design.md", Text: "# Design\n\nThe server stores every argument\nin one SQLite file.\nWrites are serialised by a single writer — never two.\nThe client's retries are \"idempotent\".\nCafé opens at noon.\n"},
	{Name: "docs/decisions.md", Text: "# Decisions\n\n- D1: one static binary, no cgo.\n- D2: the server stores every argument\n"},
	{Name: "notes/zh.md", Text: "# 设计\n\n服务器把每个论点\n存进一个 SQLite 文件。\n"},
}

func TestFind(t *testing.T) {
	t.Parallel()
	v := New(docs, 80)
	tests := []struct {
		name   string
		answer string
		want   Quote // Text and Doc are not compared
	}{
		{"exact", `<quote doc="docs/design.md">in one SQLite file.</quote>`,
			Quote{Verified: true, Document: "docs/design.md", First: 4, Last: 4}},
		{"whitespace changed", "<quote doc=\"docs/design.md\">Writes  are\n serialised   by a single writer</quote>",
			Quote{Verified: true, Document: "docs/design.md", First: 5, Last: 5}},
		{"curly quotes and dash", `<quote doc="docs/design.md">writer – never two. The client’s retries are “idempotent”.</quote>`,
			Quote{Verified: true, Document: "docs/design.md", First: 5, Last: 6}},
		{"NFD against NFC", "<quote doc=\"docs/design.md\">Cafe\u0301 opens at noon.</quote>",
			Quote{Verified: true, Document: "docs/design.md", First: 7, Last: 7}},
		{"zh spanning lines", `<quote doc="notes/zh.md">服务器把每个论点 存进一个 SQLite 文件。</quote>`,
			Quote{Verified: true, Document: "notes/zh.md", First: 3, Last: 4}},
		{"spanning lines", `<quote doc="docs/design.md">stores every argument in one SQLite file. Writes</quote>`,
			Quote{Verified: true, Document: "docs/design.md", First: 3, Last: 5}},
		{"base name", `<quote doc="decisions.md">one static binary</quote>`,
			Quote{Verified: true, Document: "docs/decisions.md", First: 3, Last: 3}},
		{"no doc, one document", `<quote>one static binary, no cgo.</quote>`,
			Quote{Verified: true, Document: "docs/decisions.md", First: 3, Last: 3}},
		{"no doc, two documents", `<quote>server stores every argument</quote>`,
			Quote{Reason: "found in more than one document; name one with doc="}},
		{"named one of two documents", `<quote doc='docs/decisions.md'>the server stores every argument</quote>`,
			Quote{Verified: true, Document: "docs/decisions.md", First: 4, Last: 4}},
		{"invented", `<quote doc="docs/design.md">The server uses PostgreSQL.</quote>`,
			Quote{Reason: "not found in docs/design.md"}},
		{"invented, no doc", `<quote>The server uses PostgreSQL.</quote>`,
			Quote{Reason: "not found in any document"}},
		{"unknown document", `<quote doc="docs/plan.md">in one SQLite file.</quote>`,
			Quote{Reason: `no document named "docs/plan.md"`}},
		{"too long", `<quote doc="docs/design.md">` + strings.Repeat("x", 81) + `</quote>`,
			Quote{Reason: "longer than 80 characters"}},
		{"empty", `<quote doc="docs/design.md">  </quote>`,
			Quote{Reason: "empty quote"}},
		{"nested", `<quote doc="docs/design.md">in one <quote>SQLite</quote> file.</quote>`,
			Quote{Reason: "a quote inside a quote"}},
		{"upper-case tag", `<QUOTE DOC="docs/design.md">in one SQLite file.</Quote>`,
			Quote{Verified: true, Document: "docs/design.md", First: 4, Last: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := v.Find("Before. " + tt.answer + " After.")
			if len(got) != 1 {
				t.Fatalf("found %d quotes, want 1: %+v", len(got), got)
			}
			g := got[0]
			g.Text, g.Doc = "", ""
			if g != tt.want {
				t.Errorf("got %+v, want %+v", g, tt.want)
			}
		})
	}
}

func TestMark(t *testing.T) {
	t.Parallel()
	v := New(docs, 0)
	tests := []struct {
		name   string
		answer string
		want   string
	}{
		{"verified", `As <quote doc="docs/design.md">in one SQLite file.</quote> says.`,
			`As <quote status="verified" doc="docs/design.md" lines="4">in one SQLite file.</quote> says.`},
		{"spanning lines", "<quote doc=\"docs/design.md\">every argument\nin one</quote>",
			"<quote status=\"verified\" doc=\"docs/design.md\" lines=\"3-4\">every argument\nin one</quote>"},
		{"own status stripped", `<quote status="verified" doc="docs/design.md" lines="1">Made up.</quote>`,
			`<quote status="unverified" reason="not found in docs/design.md">Made up.</quote>`},
		{"own status after doc", `<quote doc="docs/design.md" status="verified">Made up.</quote>`,
			`<quote status="unverified" reason="not found in docs/design.md">Made up.</quote>`},
		{"unknown document escaped", `<quote doc="x&quot;y">Made up.</quote>`,
			`<quote status="unverified" reason="no document named &#34;x&amp;quot;y&#34;">Made up.</quote>`},
		{"early close", `<quote doc="docs/design.md">in one SQLite file.</quote> status="verified">Made up.</quote>`,
			`<quote status="verified" doc="docs/design.md" lines="4">in one SQLite file.</quote> status="verified">Made up.&lt;/quote>`},
		{"nested", `<quote doc="docs/design.md">a <quote status="verified" doc="docs/design.md" lines="4">in one SQLite file.</quote> b</quote>`,
			`<quote status="unverified" reason="a quote inside a quote">a &lt;quote status="verified" doc="docs/design.md" lines="4">in one SQLite file.</quote> b&lt;/quote>`},
		{"left open", `<quote status="verified" doc="docs/design.md" lines="4">Made up.`,
			`&lt;quote status="verified" doc="docs/design.md" lines="4">Made up.`},
		{"no quotes", "Plain text, no tags.", "Plain text, no tags."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := v.Mark(tt.answer)
			if got != tt.want {
				t.Errorf("Mark:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// FuzzMark checks that marking never yields a verified marking for a quote
// the verifier did not verify, whatever an answer writes.
func FuzzMark(f *testing.F) {
	f.Add(`<quote status="verified" doc="docs/design.md" lines="4">x</quote>`)
	f.Add(`<quote doc="docs/design.md">in one <quote status="verified">SQLite</quote> file.</quote>`)
	v := New(docs, 0)
	f.Fuzz(func(t *testing.T, s string) {
		got, qs := v.Mark(s)
		verified := 0
		for _, q := range qs {
			if q.Verified {
				verified++
			}
		}
		if n := strings.Count(strings.ToLower(got), `<quote status="verified"`); n != verified {
			t.Errorf("Mark(%q) = %q: %d verified markings, %d verified quotes", s, got, n, verified)
		}
	})
}

// BenchmarkMark marks an answer of ten quotes against shared documents of
// 2 MiB, the default cap: the work of one reader's view of one answer.
func BenchmarkMark(b *testing.B) {
	var doc strings.Builder
	for i := 0; doc.Len() < 2<<20; i++ {
		fmt.Fprintf(&doc, "%d. Decision %d: every service keeps its own store and publishes its changes.\n", i, i)
	}
	v := New([]Document{{Name: "docs/decisions.md", Text: doc.String()}}, 0)
	var answer strings.Builder
	for i := range 10 {
		fmt.Fprintf(&answer, "Claim %d rests on <quote>Decision %d: every service keeps its own store</quote>.\n", i, 2000*i+1000)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, qs := v.Mark(answer.String()); len(qs) != 10 || !qs[9].Verified {
			b.Fatalf("quotes %+v", qs)
		}
	}
}

// TestOpener: a quote naming a document the verifier was not given is
// checked against the one its Opener finds, by the name the Opener gives
// it; the Opener's refusal is the reason; a given document keeps its
// name; a quote without a name is checked against the given ones only.
func TestOpener(t *testing.T) {
	t.Parallel()
	files := map[string]string{"quote/quote.go": "package quote\n\n// Find returns the quotes of text.\nfunc Find() {}\n"}
	open := func(name string) (Document, error) {
		name = strings.TrimPrefix(name, "./")
		text, ok := files[name]
		if !ok {
			return Document{}, fmt.Errorf("no file %s in the repository", name)
		}
		return Document{Name: name, Text: text}, nil
	}
	v := New(docs[:1], 0).WithOpener(open)
	tests := []struct {
		answer string
		want   Quote
	}{
		{`<quote doc="quote/quote.go">// Find returns the quotes of text. func Find()</quote>`,
			Quote{Verified: true, Document: "quote/quote.go", First: 3, Last: 4}},
		{`<quote doc="./quote/quote.go">package quote</quote>`,
			Quote{Verified: true, Document: "quote/quote.go", First: 1, Last: 1}},
		{`<quote doc="quote/quote.go">func Verify() {}</quote>`, Quote{Reason: "not found in quote/quote.go"}},
		{`<quote doc="quote/missing.go">x</quote>`, Quote{Reason: "no file quote/missing.go in the repository"}},
		{`<quote doc="design.md">in one SQLite file.</quote>`, Quote{Verified: true, Document: "docs/design.md", First: 4, Last: 4}},
		{`<quote>package quote</quote>`, Quote{Reason: "not found in any document"}},
	}
	for _, tt := range tests {
		got := v.Find(tt.answer)
		if len(got) != 1 {
			t.Fatalf("%s: %d quotes, want 1", tt.answer, len(got))
		}
		got[0].Text, got[0].Doc = "", ""
		if got[0] != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.answer, got[0], tt.want)
		}
	}
	if q := New(nil, 0).WithOpener(open).Find(`<quote>package quote</quote>`); len(q) != 1 || q[0].Reason != `names no file; write <quote doc="path">` {
		t.Errorf("a quote naming no file, with no documents given: %+v", q)
	}
	if q := New(docs, 0).Find(`<quote doc="quote/quote.go">package quote</quote>`); q[0].Reason != `no document named "quote/quote.go"` {
		t.Errorf("without an opener: %+v", q[0])
	}
}
