package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"
)

// TestValidateListsSkippedFiles: a glob over a folder with a .gitignored
// file, a .env and a PNG shares none of them, and validate and the dry run
// list each one at its glob.
func TestValidateListsSkippedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		".gitignore":     "docs/draft.md\n",
		"docs/design.md": "# Design\n\n- Every argument is stored in one SQLite file.\n",
		"docs/draft.md":  "# Draft\n",
		"docs/.env":      "DEBATE_API_KEY=sk-live-secret\n",
		"docs/logo.png":  "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR",
		"debate.jsonc": `{
  "debaters": [{ "id": "a", "model": "m1" }, { "id": "b", "model": "m2" }],
  "reviewer": { "id": "r", "model": "m3" },
  "topics": [{ "id": "t1", "title": "Question" }],
  "sharedContext": { "files": ["docs/**"] },
}`,
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(dir, "debate.jsonc")
	keys := map[string]string{"DEBATE_API_KEY": "sk-a"}
	for _, args := range [][]string{{"validate", "--config", config}, {"run", "--config", config, "--dry-run"}} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			r := invoke(t, keys, args...)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, want := range []string{
				"sharedContext.files[0]: skipped docs/.env: looks like a secret",
				"sharedContext.files[0]: skipped docs/draft.md: ignored by .gitignore",
				"sharedContext.files[0]: skipped docs/logo.png: binary",
			} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stdout+r.stderr, "sk-live-secret") {
				t.Errorf("the skipped .env's secret reached the output")
			}
		})
	}
}

// TestGlobLinks: under a glob, a link to a file outside the config's folder
// is skipped and listed, and a ladder of links (L0/a and L0/b to L1, …, to
// L24, 2^24 ways to one file) is read as its one file: validate ends and
// lists the link, and the run's requests and output folder never hold the
// outside file's text.
func TestGlobLinks(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	config := writeConfig(t, srv, 1, "")
	dir := filepath.Dir(config)
	body, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	shared := `"sharedContext": {"files": ["ctx/**/*.md"]},` + "\n  \"output\""
	if err := os.WriteFile(config, []byte(strings.Replace(string(body), `"output"`, shared, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	const secret = "outside-secret-text"
	outside := filepath.Join(t.TempDir(), "creds.txt")
	links := map[string]string{"ctx/notes.md": outside}
	for i := range 24 {
		links[fmt.Sprintf("ctx/L%d/a", i)] = fmt.Sprintf("../L%d", i+1)
		links[fmt.Sprintf("ctx/L%d/b", i)] = fmt.Sprintf("../L%d", i+1)
	}
	for name, text := range map[string]string{outside: secret + "\n", filepath.Join(dir, "ctx", "design.md"): "# Design\n", filepath.Join(dir, "ctx", "L24", "f.md"): "# Bottom\n"} {
		if err := errors.Join(os.MkdirAll(filepath.Dir(name), 0o755), os.WriteFile(name, []byte(text), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.Symlink(target, p)); err != nil {
			t.Fatal(err)
		}
	}
	keys := map[string]string{"TEST_API_KEY": testKey}
	r := invoke(t, keys, "validate", "--config", config)
	if r.code != exitOK || !strings.Contains(r.stderr, "sharedContext.files[0]: skipped ctx/notes.md: a link to outside the config's folder") {
		t.Errorf("validate: exit %d, want 0 and the outside link listed:\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(dir, "out")
	if r := invoke(t, keys, "run", "--config", config, "--output", out); r.code != exitOK {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	for _, c := range srv.Calls() {
		if c.Contains(secret) {
			t.Fatalf("a request to %s holds the outside file's text", c.Model)
		}
	}
	if c := srv.Calls()[0]; !c.Contains("# Bottom") || !c.Contains("# Design") {
		t.Errorf("the first request lacks the documents inside the folder")
	}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s holds the outside file's text", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
