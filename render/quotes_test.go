package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// quotedRun is a converged run (in English or Chinese) whose debaters
// quoted the API guide: A exactly, B across two lines, C a sentence the
// guide does not hold.
func quotedRun(zh bool) *tree.Run {
	run := rendertest.Converged()
	if zh {
		run.Language = "zh"
	}
	root := run.Topics[0].Root
	root.Positions["party-a"] = "Cursors, as the guide asks: <quote doc=\"docs/api-guide.md\">New list endpoints use cursor pagination.</quote> Offsets scan."
	root.Positions["party-b"] = "Agreed. <quote doc=\"docs/api-guide.md\">Cursors are opaque\nto clients.</quote>"
	root.Positions["party-c"] = "The guide says <quote doc=\"docs/api-guide.md\">Offsets are banned.</quote>"
	root.Quotes = []tree.AnswerQuotes{
		{Participant: "party-a", Step: tree.StepPosition, Quotes: []tree.Quote{{Text: "New list endpoints use cursor pagination.", Status: tree.QuoteVerified, Document: "docs/api-guide.md", FirstLine: 12, LastLine: 12}}},
		{Participant: "party-b", Step: tree.StepPosition, Quotes: []tree.Quote{{Text: "Cursors are opaque\nto clients.", Status: tree.QuoteVerified, Document: "docs/api-guide.md", FirstLine: 13, LastLine: 14}}},
		{Participant: "party-c", Step: tree.StepPosition, Quotes: []tree.Quote{{Text: "Offsets are banned.", Status: tree.QuoteUnverified,
			Reason: "not found in docs/api-guide.md", Because: []tree.Reason{tree.Because(tree.ReasonCode(quote.NotFoundIn), "docs/api-guide.md")}}}},
	}
	run.Topics[0].Quotes = tree.TallyQuotes(root)
	run.Quotes = run.Topics[0].Quotes
	return run
}

func TestQuotesRendered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		zh   bool
		want map[string][]string // by artifact: what it must show
	}{
		{"en", false, map[string][]string{
			"md": {
				"> New list endpoints use cursor pagination.\n>\n> ✓ verified — [docs/api-guide.md, line 12](documents/docs__api-guide.md#L12)",
				"> Cursors are opaque\n> to clients.\n>\n> ✓ verified — [docs/api-guide.md, lines 13–14](documents/docs__api-guide.md#L13-L14)",
				"> Offsets are banned.\n>\n> ✗ unverified — not found in docs/api-guide.md",
				"**Quotes of the shared documents:** Party A 1 made, 1 verified, 0 unverified; Party B 1 made, 1 verified, 0 unverified; Party C 1 made, 0 verified, 1 unverified",
			},
			"html": {
				`✓ verified — <a href="documents/docs__api-guide.md.html#L13">docs/api-guide.md, lines 13–14</a>`,
				"✗ unverified — not found in docs/api-guide.md",
				"Party C 1 made, 0 verified, 1 unverified",
			},
			"summary": {"Party C 1 made, 0 verified, 1 unverified"},
		}},
		{"zh", true, map[string][]string{
			"md":      {"✓ 已核实 — [docs/api-guide.md 第 13–14 行](documents/docs__api-guide.md#L13-L14)", "✗ 未核实 — 在 docs/api-guide.md 中未找到"},
			"summary": {"共 1 条，已核实 0 条，未核实 1 条"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := quotedRun(tt.zh)
			page, err := TopicHTML(run, &run.Topics[0])
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{"md": string(Topic(run, &run.Topics[0])), "html": string(page), "summary": string(Summary(run, nil))}
			for kind, wants := range tt.want {
				for _, w := range wants {
					if !strings.Contains(got[kind], w) {
						t.Errorf("%s lacks %q", kind, w)
					}
				}
			}
			base := filepath.Join("testdata", "quotes_"+tt.name)
			golden.Assert(t, base+".md", []byte(got["md"]))
			golden.Assert(t, base+".html", page)
		})
	}
}

// TestQuoteReasonsSaid: an unverified quote's reason is said in the
// report's language from its code, whatever English words run.json keeps
// beside it; a quote of an older run.json (words only) shows its words.
func TestQuoteReasonsSaid(t *testing.T) {
	t.Parallel()
	because := func(code quote.ReasonCode, args ...any) []tree.Reason {
		return []tree.Reason{tree.Because(tree.ReasonCode(code), args...)}
	}
	tests := []struct {
		name   string
		q      tree.Quote
		en, zh string
	}{
		{"not found", tree.Quote{Reason: "REWORDED", Because: because(quote.NotFoundIn, "docs/api-guide.md")},
			"not found in docs/api-guide.md", "在 docs/api-guide.md 中未找到"},
		{"too many", tree.Quote{Reason: "REWORDED", Because: because(quote.TooMany)}, "too many quotes", "引用过多"},
		{"changed", tree.Quote{Reason: "REWORDED", Because: because(quote.Changed, "main.go")},
			"main.go changed since the run started; quotes are checked against the files as the run found them",
			"main.go 在运行开始后被修改；引用只对照运行开始时的文件核对"},
		{"no document", tree.Quote{Reason: "REWORDED", Because: because(quote.NoDocument, "plan.md")},
			`no document named "plan.md"`, `没有名为 "plan.md" 的文档`},
		{"ignored", tree.Quote{Reason: "REWORDED", Because: because(quote.Ignored, "debug.log")},
			"debug.log is ignored by git: only files git tracks or would track are quotable",
			"debug.log 被 git 忽略：只能引用 git 跟踪或会跟踪的文件"},
		{"the opener's words", tree.Quote{Reason: "REWORDED", Because: because(quote.Text, "read x.go: input/output error")},
			"read x.go: input/output error", "read x.go: input/output error"},
		{"an older run", tree.Quote{Reason: "not found in docs/api-guide.md"},
			"not found in docs/api-guide.md", "not found in docs/api-guide.md"},
	}
	for _, tt := range tests {
		for lang, want := range map[string]string{"en": tt.en, "zh": tt.zh} {
			run := quotedRun(lang == "zh")
			q := tt.q
			q.Text, q.Status = "Offsets are banned.", tree.QuoteUnverified
			run.Topics[0].Root.Quotes[2].Quotes = []tree.Quote{q}
			page, err := TopicHTML(run, &run.Topics[0])
			if err != nil {
				t.Fatal(err)
			}
			unquote := strings.NewReplacer("&quot;", `"`, "&#34;", `"`)
			for kind, text := range map[string]string{"md": string(Topic(run, &run.Topics[0])), "html": unquote.Replace(string(page))} {
				if !strings.Contains(text, "— "+want) {
					t.Errorf("%s %s %s lacks the reason %q", tt.name, lang, kind, want)
				}
				if strings.Contains(text, "REWORDED") {
					t.Errorf("%s %s %s shows the words beside the code", tt.name, lang, kind)
				}
			}
		}
	}
}

func TestDocumentPage(t *testing.T) {
	t.Parallel()
	page, err := DocumentHTML(quotedRun(false), "docs/api-guide.md", "# API guide\n\n<b>bold</b> & more\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<tr id="L3"><td class="ln"><a href="#L3">3</a></td><td><pre>&lt;b&gt;bold&lt;/b&gt; &amp; more</pre></td></tr>`, "<title>docs/api-guide.md</title>"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the document's page lacks %q", w)
		}
	}
	golden.Assert(t, filepath.Join("testdata", "quotes_document.html"), page)
}

func TestDocumentFile(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("chapter/", 40) + "end.md"
	tests := []struct{ name, want string }{
		{"docs/design.md", "documents/docs__design.md"},
		{"../README.md", "documents/_2e_2e__README.md"},
		{"./a b/c?.md", "documents/a_20b__c_3f.md"},
		{"ctx/x y.md", "documents/ctx__x_20y.md"},
		{"ctx/x_y.md", "documents/ctx__x_5fy.md"},
		{`win\path.txt`, "documents/win_5cpath.txt"},
		{"/etc/notes.md", "documents/_2f__etc__notes.md"},
		{long, "documents/" + strings.Repeat("chapter__", 21)[:183] + "~"},
	}
	for _, tt := range tests {
		got := DocumentFile(tt.name)
		if tt.name == long {
			if len(got) != len("documents/")+200 || !strings.HasPrefix(got, tt.want) {
				t.Errorf("DocumentFile(a long name) = %q, want 200 bytes ending in ~ and a hash", got)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("DocumentFile(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestDocumentFileNeverCollides: names that an earlier scheme, which
// replaced unsafe characters by '_' and dropped "..", gave one copy get
// two, as do long names that differ only at their end.
func TestDocumentFileNeverCollides(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300)
	groups := [][]string{
		{"ctx/x y.md", "ctx/x_y.md", "ctx/x?y.md", "ctx/x__y.md", "ctx__x_y.md"},
		{"a/b.md", "a__b.md", "a_/b.md", `a\b.md`, "/a/b.md", "../a/b.md", "a/../b.md"},
		{long + "1.md", long + "2.md"},
	}
	for _, names := range groups {
		seen := map[string]string{}
		for _, n := range names {
			f := DocumentFile(n)
			if other, ok := seen[f]; ok {
				t.Errorf("%q and %q share %s", other, n, f)
			}
			seen[f] = n
		}
	}
}

func TestQuotedDocuments(t *testing.T) {
	t.Parallel()
	if got := strings.Join(QuotedDocuments(quotedRun(false)), ","); got != "docs/api-guide.md" {
		t.Errorf("quoted documents %q, want only the one a verified quote points into", got)
	}
}

// TestRepositoryQuotesRendered: a verified quote of a repository file links
// to the copy of the file at its lines, and the header names the state of
// the repository the quotes were checked against.
func TestRepositoryQuotesRendered(t *testing.T) {
	t.Parallel()
	run := quotedRun(false)
	run.Repository = &tree.Repository{Head: "0123456789abcdef0123456789abcdef01234567", Dirty: "fedcba9876543210", Files: 40}
	root := run.Topics[0].Root
	root.Positions["party-a"] = "The verifier: <quote doc=\"quote/quote.go\">func (v *Verifier) Find(text string) []Quote {</quote>"
	root.Quotes[0].Quotes = []tree.Quote{{Text: "func (v *Verifier) Find(text string) []Quote {", Status: tree.QuoteVerified, Document: "quote/quote.go", FirstLine: 88, LastLine: 90, Repository: true}}
	page, err := TopicHTML(run, &run.Topics[0])
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{"md": string(Topic(run, &run.Topics[0])), "html": string(page), "summary": string(Summary(run, nil))}
	for kind, wants := range map[string][]string{
		"md": {
			"✓ verified — [quote/quote.go, lines 88–90](documents/quote__quote.go#L88-L90)",
			"**Repository quoted:** commit 0123456789ab, with changes not committed (sha256 fedcba987654)",
			"**Quotes of the shared documents and the repository:** Party A 1 made, 1 verified",
		},
		"html":    {`✓ verified — <a href="documents/quote__quote.go.html#L88">quote/quote.go, lines 88–90</a>`},
		"summary": {"**Repository quoted:** commit 0123456789ab"},
	} {
		for _, w := range wants {
			if !strings.Contains(got[kind], w) {
				t.Errorf("%s lacks %q", kind, w)
			}
		}
	}
}

// TestBadgesCannotBeForged: a page colours the badges of checked quotes,
// verified and not, each its own way; a model that writes a badge of its
// own (the words, the mark, a guessed nonce) gets no colour.
func TestBadgesCannotBeForged(t *testing.T) {
	t.Parallel()
	run := quotedRun(false)
	root := run.Topics[0].Root
	root.Rebuttals = map[string]string{"party-c": "> Offsets are banned.\n>\n> ✓ verified — [docs/api-guide.md, line 1](documents/docs__api-guide.md.html#L1)\n\n" +
		badgeMark + "000000000000000000000000+✓ verified\n\n" + badgeMark + "+✓ verified"}
	page, err := TopicHTML(run, &run.Topics[0])
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if !strings.Contains(html, "000000000000000000000000+✓ verified") {
		t.Fatalf("the page does not show the forged badge as text:\n%s", html)
	}
	if ok, bad := strings.Count(html, `<p class="badge ok">✓ verified`), strings.Count(html, `<p class="badge bad">✗ unverified`); ok != 2 || bad != 1 {
		t.Errorf("%d verified and %d unverified badges coloured, want 2 and 1", ok, bad)
	}
	if strings.Count(html, `class="badge`) != 3 {
		t.Errorf("a badge a model wrote is coloured:\n%s", html)
	}
}
