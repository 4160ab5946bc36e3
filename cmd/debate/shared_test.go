package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
