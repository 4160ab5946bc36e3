package prompts

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
)

// TestRepositoryPrompts: with a shared repository, the root position lists
// its files in the shared context and every debater's step says how to
// quote them; without one, no step mentions it.
func TestRepositoryPrompts(t *testing.T) {
	t.Parallel()
	repo := &Repository{Files: []string{"README.md", "cmd/ (12 files)", "go.mod", "quote/quote.go"}}
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		f := fixtures[lang]()
		f.root.Repository = repo
		root, err := s.RootPosition(f.root)
		if err != nil {
			t.Fatal(err)
		}
		golden.Assert(t, filepath.Join("testdata", lang, "root_position_repository.golden"), []byte(format(root)))
		for _, with := range []bool{true, false} {
			r := repo
			if !with {
				r = nil
			}
			steps := map[string]func() ([]Message, error){
				"root": func() ([]Message, error) { d := f.root; d.Repository = r; return s.RootPosition(d) },
				"involved": func() ([]Message, error) {
					d := f.involved
					d.Repository = r
					return s.ChildPosition(d)
				},
				"uninvolved": func() ([]Message, error) {
					d := f.uninvolved
					d.Repository = r
					return s.ChildPosition(d)
				},
				"rebuttal": func() ([]Message, error) { d := f.rebuttal; d.Repository = r; return s.Rebuttal(d) },
			}
			for name, build := range steps {
				msgs, err := build()
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(msgs[0].Content, `<quote doc="src/app/main.go">`); got != with {
					t.Errorf("%s/%s: the system message tells how to quote the repository: %v, want %v", lang, name, got, with)
				}
			}
		}
	}
}
