package quote

import (
	"fmt"
	"reflect"
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

// indexed returns the indexes of ds.
func indexed(ds []Document) []*Index {
	out := make([]*Index, len(ds))
	for i, d := range ds {
		out[i] = NewIndex(d)
	}
	return out
}

func TestFind(t *testing.T) {
	t.Parallel()
	v := New(indexed(docs), 80)
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
			Quote{Reason: Because(Ambiguous)}},
		{"named one of two documents", `<quote doc='docs/decisions.md'>the server stores every argument</quote>`,
			Quote{Verified: true, Document: "docs/decisions.md", First: 4, Last: 4}},
		{"invented", `<quote doc="docs/design.md">The server uses PostgreSQL.</quote>`,
			Quote{Reason: Because(NotFoundIn, "docs/design.md")}},
		{"invented, no doc", `<quote>The server uses PostgreSQL.</quote>`,
			Quote{Reason: Because(NotFound)}},
		{"unknown document", `<quote doc="docs/plan.md">in one SQLite file.</quote>`,
			Quote{Reason: Because(NoDocument, "docs/plan.md")}},
		{"too long", `<quote doc="docs/design.md">` + strings.Repeat("x", 81) + `</quote>`,
			Quote{Reason: Because(TooLong, 80)}},
		{"empty", `<quote doc="docs/design.md">  </quote>`,
			Quote{Reason: Because(Empty)}},
		{"nested", `<quote doc="docs/design.md">in one <quote>SQLite</quote> file.</quote>`,
			Quote{Reason: Because(Nested)}},
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
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("got %+v, want %+v", g, tt.want)
			}
		})
	}
}

func TestMark(t *testing.T) {
	t.Parallel()
	v := New(indexed(docs), 0)
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
	v := New(indexed(docs), 0)
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
	v := New(indexed([]Document{{Name: "docs/decisions.md", Text: doc.String()}}), 0)
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

// TestTooManyQuotes: an answer's quotes after the first MaxQuotes are
// unverified as too many, whatever they quote.
func TestTooManyQuotes(t *testing.T) {
	t.Parallel()
	v := New(indexed(docs), 0)
	answer := strings.Repeat(`<quote doc="docs/design.md">in one SQLite file.</quote> `, MaxQuotes+3)
	marked, qs := v.Mark(answer)
	if len(qs) != MaxQuotes+3 {
		t.Fatalf("found %d quotes, want %d", len(qs), MaxQuotes+3)
	}
	for i, q := range qs {
		if want := i < MaxQuotes; q.Verified != want || !want && q.Reason.Code != TooMany {
			t.Fatalf("quote %d: %+v, want verified %v", i, q, want)
		}
	}
	if n := strings.Count(marked, `reason="too many quotes"`); n != 3 {
		t.Errorf("%d quotes marked as too many, want 3", n)
	}
	if got := v.Find(answer); len(got) != len(qs) || !reflect.DeepEqual(got[MaxQuotes], qs[MaxQuotes]) {
		t.Errorf("Find and Mark disagree past the cap: %+v, %+v", got[MaxQuotes], qs[MaxQuotes])
	}
}

// oracle is the plain search the index must agree with: the normal form
// searched from its start, the line of every one of its bytes counted.
func oracle(doc, quote string) (first, last int, ok bool) {
	text, _ := normalize(doc)
	want, _ := normalize(quote)
	i := strings.Index(text, want)
	if want == "" || i < 0 {
		return 0, 0, false
	}
	line := func(at int) int {
		// Count the lines of doc up to the rune whose normal form stands
		// at byte at: a space belongs to what follows it.
		n, written := 1, 0
		for _, l := range strings.SplitAfter(doc, "\n") {
			part, _ := normalize(l)
			if part != "" {
				if written > 0 {
					written++ // the space that joined it to what came before
				}
				written += len(part)
				if at < written {
					return n
				}
			}
			n++
		}
		return n
	}
	return line(i), line(i + len(want) - 1), true
}

// FuzzLocate checks the index's places against the plain search, among
// them quotes found more often than the suffix array is asked for.
func FuzzLocate(f *testing.F) {
	f.Add("a\nb b\n\n  c d\n", "b c")
	f.Add(strings.Repeat("x y\n", 100), "y x")
	f.Add("Cafe\u0301 — “open”\n\nat noon", `é - "open" at`)
	f.Fuzz(func(t *testing.T, doc, quote string) {
		x := NewIndex(Document{Name: "d", Text: doc})
		f1, l1, ok1 := x.locate(quote)
		f2, l2, ok2 := oracle(doc, quote)
		if f1 != f2 || l1 != l2 || ok1 != ok2 {
			t.Errorf("locate(%q) in %q = %d-%d %v; the plain search finds %d-%d %v", quote, doc, f1, l1, ok1, f2, l2, ok2)
		}
	})
}

// bombDocument is a shared document of 2 MiB: numbered decisions, one a
// line.
func bombDocument() Document {
	var doc strings.Builder
	for i := 0; doc.Len() < 2<<20; i++ {
		fmt.Fprintf(&doc, "%d. Decision %d: every service keeps its own store and publishes its changes.\n", i, i)
	}
	return Document{Name: "docs/decisions.md", Text: doc.String()}
}

// BenchmarkQuoteBomb marks one answer of 20,000 quotes (about 1.5 MB),
// every other one invented, against a document of 2 MiB indexed once.
func BenchmarkQuoteBomb(b *testing.B) {
	v := New([]*Index{NewIndex(bombDocument())}, 0)
	var answer strings.Builder
	for i := range 20000 {
		if i%2 == 0 {
			fmt.Fprintf(&answer, "See <quote>Decision %d: every service keeps its own store</quote>.\n", (i*7919)%25000)
		} else {
			fmt.Fprintf(&answer, "See <quote>Decision %d: no service keeps any store of its own</quote>.\n", i)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, qs := v.Mark(answer.String()); len(qs) != 20000 || !qs[0].Verified || qs[MaxQuotes].Reason.Code != TooMany {
			b.Fatalf("quotes %+v", qs[:2])
		}
	}
}

// BenchmarkNewIndex indexes a document of 2 MiB: once per run.
func BenchmarkNewIndex(b *testing.B) {
	d := bombDocument()
	for b.Loop() {
		NewIndex(d)
	}
}

// TestOpener: a quote naming a document the verifier was not given is
// checked against the one its Opener finds, by the name the Opener gives
// it; the Opener's refusal is the reason; a given document keeps its
// name; a quote without a name is checked against the given ones only.
// A refusal that is a Reason is the quote's reason as it is; any other
// error is its words.
func TestOpener(t *testing.T) {
	t.Parallel()
	files := map[string]string{"quote/quote.go": "package quote\n\n// Find returns the quotes of text.\nfunc Find() {}\n"}
	open := func(name string) (Document, error) {
		name = strings.TrimPrefix(name, "./")
		if name == "disk.go" {
			return Document{}, fmt.Errorf("read %s: input/output error", name)
		}
		text, ok := files[name]
		if !ok {
			return Document{}, Because(NoFile, name)
		}
		return Document{Name: name, Text: text}, nil
	}
	v := New(indexed(docs[:1]), 0).WithOpener(open)
	tests := []struct {
		answer string
		want   Quote
	}{
		{`<quote doc="quote/quote.go">// Find returns the quotes of text. func Find()</quote>`,
			Quote{Verified: true, Document: "quote/quote.go", First: 3, Last: 4}},
		{`<quote doc="./quote/quote.go">package quote</quote>`,
			Quote{Verified: true, Document: "quote/quote.go", First: 1, Last: 1}},
		{`<quote doc="quote/quote.go">func Verify() {}</quote>`, Quote{Reason: Because(NotFoundIn, "quote/quote.go")}},
		{`<quote doc="quote/missing.go">x</quote>`, Quote{Reason: Because(NoFile, "quote/missing.go")}},
		{`<quote doc="disk.go">x</quote>`, Quote{Reason: Because(Text, "read disk.go: input/output error")}},
		{`<quote doc="design.md">in one SQLite file.</quote>`, Quote{Verified: true, Document: "docs/design.md", First: 4, Last: 4}},
		{`<quote>package quote</quote>`, Quote{Reason: Because(NotFound)}},
	}
	for _, tt := range tests {
		got := v.Find(tt.answer)
		if len(got) != 1 {
			t.Fatalf("%s: %d quotes, want 1", tt.answer, len(got))
		}
		got[0].Text, got[0].Doc = "", ""
		if !reflect.DeepEqual(got[0], tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.answer, got[0], tt.want)
		}
	}
	if q := New(nil, 0).WithOpener(open).Find(`<quote>package quote</quote>`); len(q) != 1 || q[0].Reason.String() != `names no file; write <quote doc="path">` {
		t.Errorf("a quote naming no file, with no documents given: %+v", q)
	}
	if q := New(indexed(docs), 0).Find(`<quote doc="quote/quote.go">package quote</quote>`); q[0].Reason.String() != `no document named "quote/quote.go"` {
		t.Errorf("without an opener: %+v", q[0])
	}
}
