package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
