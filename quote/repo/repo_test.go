package repo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/gitrepo"
	"github.com/debatehq/debate/internal/gitrepo/gitrepotest"
	"github.com/debatehq/debate/quote"
)

// key is a credential of the run that one file of the repository holds.
const key = "sk-test-0123456789abcdef"

// files are the repository of the tests.
var files = map[string]string{
	".gitignore":          "*.log\nbuild/\n",
	"main.go":             "package main\n\nfunc main() {}\n",
	"docs/design.md":      "# Design\n",
	".env":                "TOKEN=x\n",
	"config/secrets.yaml": "a: b\n",
	"certs/server.pem":    "not really\n",
	"notes/key.txt":       "-----BEGIN RSA PRIVATE KEY-----\nMII\n",
	"notes/config.txt":    "apiKey: " + key + "\n",
	"logo.png":            "\x89PNG\r\n\x1a\n\x00\x00",
	"big.txt":             strings.Repeat("x", 100),
	"debug.log":           "ignored\n",
	"later.go":            "package later\n",
}

func open(t *testing.T) (*Files, string) {
	t.Helper()
	dir := gitrepotest.New(t, files)
	f, err := Open(context.Background(), filepath.Join(dir, "docs"), Options{MaxFileBytes: 64, Secrets: []string{key}})
	if err != nil {
		t.Fatal(err)
	}
	return f, dir
}

// TestDocument: a tracked file reads as it is under its name from the
// repository's top, however the quote wrote the path; every other file is
// refused with the reason a judge reads, as a code.
func TestDocument(t *testing.T) {
	t.Parallel()
	f, dir := open(t)
	if f.State().Root == "" || len(f.State().Head) != 40 || f.State().Dirty != "" {
		t.Errorf("state %+v, want the clean repository's", f.State())
	}
	gitrepotest.Write(t, dir, "later.go", "package later // edited\n")
	gitrepotest.Write(t, dir, "created.go", "package created\n")
	tests := []struct {
		name, want, reason string
	}{
		{"main.go", "main.go", ""},
		{"./docs//design.md", "docs/design.md", ""},
		{`docs\design.md`, "docs/design.md", ""},
		{".env", "", ".env looks like it holds a secret and is never quoted"},
		{"config/secrets.yaml", "", "config/secrets.yaml looks like it holds a secret and is never quoted"},
		{"certs/server.pem", "", "certs/server.pem looks like it holds a secret and is never quoted"},
		{"notes/key.txt", "", "notes/key.txt holds a private key and is never quoted"},
		{"notes/config.txt", "", "notes/config.txt holds one of the run's credentials and is never quoted"},
		{"logo.png", "", "logo.png is binary"},
		{"big.txt", "", "big.txt is larger than 64 bytes, the limit for a quoted file"},
		{"debug.log", "", "debug.log is ignored by git: only files git tracks or would track are quotable"},
		{"missing.go", "", "no file missing.go in the repository"},
		{"docs", "", "docs is a folder; quote one of its files"},
		{".git/config", "", ".git/config is inside git's own folder"},
		{"../outside.go", "", `"../outside.go" is not a path inside the repository; write it from the repository's top folder, as a/b.go`},
		{"/etc/passwd", "", `"/etc/passwd" is not a path inside the repository; write it from the repository's top folder, as a/b.go`},
		{"later.go", "", "later.go changed since the run started; quotes are checked against the files as the run found them"},
		{"created.go", "", "created.go was created since the run started"},
	}
	for _, tt := range tests {
		d, err := f.Document(tt.name)
		switch {
		case tt.reason != "":
			if err == nil || err.Error() != tt.reason {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.reason)
			}
			// Each refusal is a code each report language can say.
			var why quote.Reason
			if !errors.As(err, &why) || why.Code == quote.Text || why.Code == "" {
				t.Errorf("%s: refusal %#v is not a quote.Reason with a code", tt.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case d.Name != tt.want || d.Text != files[tt.want]:
			t.Errorf("%s: %q holding %q, want %q holding %q", tt.name, d.Name, d.Text, tt.want, files[tt.want])
		}
	}
	for _, secret := range []string{".env", "config/secrets.yaml", "certs/server.pem", "big.txt", "debug.log"} {
		if slices.Contains(f.Names(), secret) {
			t.Errorf("Names lists %s: %v", secret, f.Names())
		}
	}
	if !slices.Contains(f.Names(), "main.go") || !slices.IsSorted(f.Names()) {
		t.Errorf("Names %v, want main.go among them, sorted", f.Names())
	}
}

// TestDocumentKeptOnceRead: a file read once keeps its text for the run,
// whatever happens to it afterwards.
func TestDocumentKeptOnceRead(t *testing.T) {
	t.Parallel()
	f, dir := open(t)
	if _, err := f.Document("main.go"); err != nil {
		t.Fatal(err)
	}
	gitrepotest.Write(t, dir, "main.go", "package main // edited\n")
	if err := os.Remove(filepath.Join(dir, "docs", "design.md")); err != nil {
		t.Fatal(err)
	}
	if d, err := f.Document("main.go"); err != nil || d.Text != files["main.go"] {
		t.Errorf("main.go after an edit: %q, %v; want the text first read", d.Text, err)
	}
	if _, err := f.Document("docs/design.md"); err == nil || err.Error() != "docs/design.md was deleted since the run started" {
		t.Errorf("a file deleted before it was read: %v", err)
	}
}

func TestOpenOutsideARepository(t *testing.T) {
	t.Parallel()
	_, err := Open(context.Background(), t.TempDir(), Options{})
	if !errors.Is(err, gitrepo.ErrNotRepo) {
		t.Errorf("Open of a folder outside any repository: %v, want ErrNotRepo", err)
	}
}

func TestListing(t *testing.T) {
	t.Parallel()
	f := &Files{names: []string{"README.md", "cmd/a/main.go", "cmd/a/util.go", "cmd/b/main.go", "go.mod", "quote/quote.go", "quote/repo/repo.go"}}
	tests := []struct {
		limit int
		want  []string
	}{
		{1000, f.names},
		{90, []string{"README.md", "cmd/a/ (2 files)", "cmd/b/main.go", "go.mod", "quote/quote.go", "quote/repo/repo.go"}},
		{60, []string{"README.md", "cmd/ (3 files)", "go.mod", "quote/ (2 files)"}},
		{40, []string{"README.md", "… and 3 more"}},
	}
	for _, tt := range tests {
		if got := f.Listing(tt.limit); !slices.Equal(got, tt.want) {
			t.Errorf("Listing(%d) = %q, want %q", tt.limit, got, tt.want)
		}
	}
}
