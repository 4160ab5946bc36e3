package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/gitrepo/gitrepotest"
)

// repositoryConfig shares the repository it lives in.
const repositoryConfig = `{
  "api": { "baseURL": "https://api.example.com/v1", "apiKey": "k" },
  "debaters": [ { "id": "a", "model": "m1" }, { "id": "b", "model": "m2" } ],
  "reviewer": { "id": "j", "model": "m3" },
  "topics": [ { "id": "t1", "title": "Is the verifier pure?" } ],
  "sharedContext": { "repository": true }
}`

// TestRepositoryCommands: the dry run of a config that shares its
// repository names the state the quotes would be checked against and what
// listing the files costs; validate names a config outside any repository
// with the fix.
func TestRepositoryCommands(t *testing.T) {
	t.Parallel()
	dir := gitrepotest.New(t, map[string]string{"debate.jsonc": repositoryConfig, "main.go": "package main\n"})
	r := invoke(t, nil, "run", "-c", filepath.Join(dir, "debate.jsonc"), "--dry-run")
	for _, w := range []string{"  repository   " + dir + " at commit ", "               2 files quotable, listed in ≈", "\n- main.go\n"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the dry run lacks %q:\n%s", w, r.stdout[:min(len(r.stdout), 2000)])
		}
	}

	outside := t.TempDir()
	gitrepotest.Write(t, outside, "debate.jsonc", repositoryConfig)
	v := invoke(t, nil, "validate", "-c", filepath.Join(outside, "debate.jsonc"))
	if want := "debate.jsonc:6:22: sharedContext.repository: " + outside + " is not inside a git repository; run `git init` there"; v.code != exitUsage || !strings.Contains(v.stderr, want) {
		t.Errorf("validate outside a repository: exit %d, stderr %q, want %q", v.code, v.stderr, want)
	}
}
