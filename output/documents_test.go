package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

func TestWriteCopiesQuotedDocuments(t *testing.T) {
	t.Parallel()
	run := rendertest.Converged()
	run.Topics[0].Root.Quotes = []tree.AnswerQuotes{{Participant: "party-a", Step: tree.StepPosition, Quotes: []tree.Quote{
		{Text: "one file", Status: tree.QuoteVerified, Document: "docs/design.md", FirstLine: 2, LastLine: 2},
		{Text: "made up", Status: tree.QuoteUnverified, Reason: "not found in notes.md"},
	}}}
	docs := []Document{{Name: "docs/design.md", Text: "# Design\none file\n"}, {Name: "notes.md", Text: "never quoted\n"}}
	tests := []struct {
		name    string
		formats []string
		want    []string // files under documents/
	}{
		{"markdown", []string{"markdown"}, []string{"docs__design.md"}},
		{"html", []string{"html"}, []string{"docs__design.md.html"}},
		{"both", []string{"markdown", "html"}, []string{"docs__design.md", "docs__design.md.html"}},
		{"json only", []string{"json"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if _, err := Write(dir, run, Options{Formats: tt.formats, Documents: docs}); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, "documents"))
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("documents/ holds %q, want %q", got, tt.want)
			}
			for _, name := range got {
				b, err := os.ReadFile(filepath.Join(dir, "documents", name))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), "one file") {
					t.Errorf("documents/%s lacks the document's text:\n%s", name, b)
				}
			}
		})
	}
}

// TestReadFolderKeepsQuotedDocuments: a slice's copies of its quoted
// documents are read back, so that a merged run links its quotes too.
func TestReadFolderKeepsQuotedDocuments(t *testing.T) {
	t.Parallel()
	run := rendertest.Converged()
	run.Topics[0].Root.Quotes = []tree.AnswerQuotes{{Participant: "party-a", Step: tree.StepPosition, Quotes: []tree.Quote{
		{Text: "one file", Status: tree.QuoteVerified, Document: "docs/design.md", FirstLine: 2, LastLine: 2},
	}}}
	dir := t.TempDir()
	if _, err := Write(dir, run, Options{Documents: []Document{{Name: "docs/design.md", Text: "# Design\none file\n"}}}); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Documents) != 1 || f.Documents[0] != (Document{Name: "docs/design.md", Text: "# Design\none file\n"}) {
		t.Errorf("documents read back %+v", f.Documents)
	}
}

// TestWriteCopiesEachDocumentApart: two documents whose names differ only
// in characters a file name cannot hold get a copy each, and each quote's
// badge links to the copy of its own document.
func TestWriteCopiesEachDocumentApart(t *testing.T) {
	t.Parallel()
	run := rendertest.Converged()
	run.Topics[0].Root.Quotes = []tree.AnswerQuotes{{Participant: "party-a", Step: tree.StepPosition, Quotes: []tree.Quote{
		{Text: "space", Status: tree.QuoteVerified, Document: "ctx/x y.md", FirstLine: 1, LastLine: 1},
		{Text: "underscore", Status: tree.QuoteVerified, Document: "ctx/x_y.md", FirstLine: 1, LastLine: 1},
	}}}
	run.Topics[0].Root.Positions["party-a"] = `<quote doc="ctx/x y.md">space</quote> and <quote doc="ctx/x_y.md">underscore</quote>`
	docs := []Document{{Name: "ctx/x y.md", Text: "the space document\n"}, {Name: "ctx/x_y.md", Text: "the underscore document\n"}}
	dir := t.TempDir()
	paths, err := Write(dir, run, Options{Formats: []string{"markdown"}, Documents: docs})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		file := filepath.FromSlash(render.DocumentFile(d.Name))
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || string(b) != d.Text {
			t.Errorf("%s holds %q (%v), want %s's text %q", file, b, err, d.Name, d.Text)
		}
	}
	var report []byte
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "topic-") {
			report, _ = os.ReadFile(p)
		}
	}
	for _, d := range docs {
		if link := "(" + render.DocumentFile(d.Name) + "#L1)"; !strings.Contains(string(report), link) {
			t.Errorf("the report lacks the link %s to %s's copy:\n%s", link, d.Name, report)
		}
	}
}
