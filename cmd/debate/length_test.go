package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Longest functions allowed, in lines from the func keyword to the closing
// brace: a function longer than this is read in pieces and changed in
// pieces, and the pieces want names.
const (
	maxFuncLines    = 80
	maxCommandLines = 60 // in cmd/debate, which holds wiring only
)

// TestFunctionLength fails on every function outside tests longer than the
// limits above.
func TestFunctionLength(t *testing.T) {
	t.Parallel()
	for _, long := range longFunctions(t, "../..") {
		t.Error(long)
	}
}

// longFunctions scans every Go file under root but tests and returns one
// line per function over its limit.
func longFunctions(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		limit := maxFuncLines
		if filepath.Dir(filepath.ToSlash(rel)) == "cmd/debate" {
			limit = maxCommandLines
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fn, ok := n.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				return true
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > limit {
				out = append(out, fmt.Sprintf("%s: %s is %d lines (at most %d)", rel, fn.Name.Name, lines, limit))
			}
			return false
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
