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
// in which it was quoted. A comment cites docs/*.md or vjcspy/aweave instead.
var foreignWords = []*regexp.Regexp{
	regexp.MustCompile(`\bSPEC\b`),
	regexp.MustCompile(`(?i)\bseed's\b|\bseeds/|\bseeds? §|\bseeds? 0\d\d\b|\bthe seeds\b|\bseed (server|design|documents?|docs|agents?)\b|\bthe seed (did|does|answers|specifies)\b|\bseed-(shaped|compatible)\b`),
	regexp.MustCompile(`(?i)\bissue #|\bissue \d+\b`),
	regexp.MustCompile(`\bPart \d+\b`),
	regexp.MustCompile(`\bTODO\b`),
	regexp.MustCompile(`(?i)\bthe lead\b`),
}

// textWords are foreign in what a person or an agent reads, though a
// comment may use them in their ordinary sense (template helpers).
var textWords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bhelpers?\b`),
}

// foreignWord returns the first foreign word in s, a text the binary or the
// documents carry, or "".
func foreignWord(s string) string {
	return firstMatch(s, foreignWords, textWords)
}

// foreignCommentWord returns the first foreign word in the comment s, or "".
func foreignCommentWord(s string) string {
	return firstMatch(s, foreignWords)
}

// firstMatch returns the first match in s of the patterns, list by list.
func firstMatch(s string, lists ...[]*regexp.Regexp) string {
	for _, list := range lists {
		for _, re := range list {
			if w := re.FindString(s); w != "" {
				return w
			}
		}
	}
	return ""
}

// TestNoForeignWords reads every text the binary carries for a person or an
// agent to read, in the repository: each string literal and each comment of
// the module's non-test Go files (help, guides' and reports' words, refusals and their
// suggestions, error messages) and each file a //go:embed directive takes in
// (guide templates, prompt templates, the web page's HTML, CSS and
// JavaScript); and the documents a user reads beside it (the README, the
// run.json schema, the example configs and their files). It finds no word
// from outside the product in any.
func TestNoForeignWords(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	var embedded, docs []string
	literals, comments := 0, 0
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
			// A whole comment, its lines joined: a quoted form may run
			// across a line break.
			comments++
			text := strings.Join(strings.Fields(g.Text()), " ")
			if w := foreignCommentWord(text); w != "" {
				t.Errorf("%s: comment %q in %.80q", fset.Position(g.Pos()), w, text)
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
	if literals < 1000 || comments < 1000 || len(embedded) < 3 {
		t.Fatalf("read %d string literals, %d comments and %d embedded paths: the walk missed the module",
			literals, comments, len(embedded))
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
		text     string
		foreign  bool
		textOnly bool // foreign in a text, not in a comment
	}{
		{"as SPEC Part 3 says", true, false},
		{"the seed's agents", true, false},
		{"wire-compatible with the seed server", true, false},
		{"see seeds/002_api.md", true, false},
		{"fixed in issue #25", true, false},
		{"TODO: wrap", true, false},
		{"the helper's branch", true, true},
		{"// Without wait it answers at once, as the seed did", true, false},
		{"// the rules of vjcspy/aweave's server (docs/PROTOCOL.md)", false, false},
		{"// a seed drawn from the seed given", false, false},
		{"// so that a seed-shaped config loads unchanged", true, false},
		{"ask the lead", true, false},
		{"--seed 7 draws the same aliases", false, false},
		{"read the seed from the journal", false, false},
		{"params.seed", false, false},
		{"every issue is numbered: C1, M1, m1", false, false},
		{"the on-call lead signs off", false, false},
		{"Party A", false, false},
	} {
		if got := foreignWord(tc.text) != ""; got != tc.foreign {
			t.Errorf("foreignWord(%q) found a word: %v, want %v", tc.text, got, tc.foreign)
		}
		if got := foreignCommentWord(tc.text) != ""; got != (tc.foreign && !tc.textOnly) {
			t.Errorf("foreignCommentWord(%q) found a word: %v, want %v", tc.text, got, tc.foreign && !tc.textOnly)
		}
	}
}
