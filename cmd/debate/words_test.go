package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// foreignWords are words from outside the product: the documents it was
// designed from and the way it was built. "seed" alone is the product's own
// (--seed, params.seed); the design documents' seed is matched by the forms
// in which it was quoted.
var foreignWords = []*regexp.Regexp{
	regexp.MustCompile(`\bSPEC\b`),
	regexp.MustCompile(`(?i)\bseed's\b|\bseeds/|\bseeds? §|\bseeds? 0\d\d\b|\bthe seeds\b|\bseed (server|design|documents?|docs|agents?)\b`),
	regexp.MustCompile(`(?i)\bissue #|\bissue \d+\b`),
	regexp.MustCompile(`\bPart \d+\b`),
	regexp.MustCompile(`(?i)\bhelpers?\b`),
	regexp.MustCompile(`\bTODO\b`),
	regexp.MustCompile(`(?i)\bthe lead\b`),
}

// foreignWord returns the first foreign word in s, or "".
func foreignWord(s string) string {
	for _, re := range foreignWords {
		if w := re.FindString(s); w != "" {
			return w
		}
	}
	return ""
}

// TestNoForeignWords reads every text the binary carries for a person or an
// agent to read, in the repository: each string literal of the module's
// non-test Go files (help, guides' and reports' words, refusals and their
// suggestions, error messages) and each file a //go:embed directive takes in
// (guide templates, prompt templates, the web page's HTML, CSS and
// JavaScript); and the documents a user reads beside it (the README, the
// run.json schema, the example configs and their files). It finds no word
// from outside the product in any.
func TestNoForeignWords(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	var embedded, docs []string
	literals := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".md", ".jsonc":
			docs = append(docs, path)
			return nil
		case ".go":
			if strings.HasSuffix(path, "_test.go") {
				return nil
			}
		default:
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if pattern, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
					for _, p := range strings.Fields(pattern) {
						embedded = append(embedded, filepath.Join(filepath.Dir(path), p))
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			literals++
			if s, err := strconv.Unquote(lit.Value); err == nil {
				if w := foreignWord(s); w != "" {
					t.Errorf("%s: %q in %.80q", fset.Position(lit.Pos()), w, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if literals < 1000 || len(embedded) < 3 {
		t.Fatalf("read %d string literals and %d embedded paths: the walk missed the module", literals, len(embedded))
	}
	files := 0
	for _, dir := range append(embedded, docs...) {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for i, line := range strings.Split(string(b), "\n") {
				if w := foreignWord(line); w != "" {
					t.Errorf("%s:%d: %q in %.80q", path, i+1, w, line)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 20 || !slices.Contains(docs, filepath.Join(root, "README.md")) {
		t.Errorf("read only %d embedded files and documents in %q and %q", files, embedded, docs)
	}
}

// TestForeignWords: the words the test above looks for, and the product's
// own that it must let be.
func TestForeignWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text    string
		foreign bool
	}{
		{"as SPEC Part 3 says", true},
		{"the seed's agents", true},
		{"wire-compatible with the seed server", true},
		{"see seeds/002_api.md", true},
		{"fixed in issue #25", true},
		{"TODO: wrap", true},
		{"the helper's branch", true},
		{"ask the lead", true},
		{"--seed 7 draws the same aliases", false},
		{"read the seed from the journal", false},
		{"params.seed", false},
		{"every issue is numbered: C1, M1, m1", false},
		{"the on-call lead signs off", false},
		{"Party A", false},
	} {
		if got := foreignWord(tc.text) != ""; got != tc.foreign {
			t.Errorf("foreignWord(%q) found a word: %v, want %v", tc.text, got, tc.foreign)
		}
	}
}
