package configs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/gitrepo/gitrepotest"
)

// TestRepository: sharedContext.repository takes true (the config's own
// repository) or a folder, and is refused, with the fix, outside a git
// repository, on a topic, or as another kind of value.
func TestRepository(t *testing.T) {
	t.Parallel()
	repo := gitrepotest.New(t, map[string]string{"main.go": "package main\n"})
	tests := []struct {
		name  string
		dir   string // where the config is written; "" a folder in no repository
		value string
		topic bool
		want  string // the problem, or "" for none
		dirIs string // RepositoryDir, relative to the config's folder
	}{
		{"true in a repository", repo, "true", false, "", "."},
		{"a folder in a repository", "", `"` + filepath.ToSlash(repo) + `"`, false, "", repo},
		{"a folder that does not exist", repo, `"missing"`, false, "8:22 sharedContext.repository | %DIR%/missing is not a folder; fix the path (relative paths start at the config file's folder) or remove the field", ""},
		{"false", "", "false", false, "", ""},
		{"true outside a repository", "", "true", false, "8:22 sharedContext.repository | %DIR% is not inside a git repository; run `git init` there, point repository at a folder inside one, or remove the field", ""},
		{"a number", repo, "1", false, `8:22 sharedContext.repository | want true, false or a folder, e.g. "." or "../..", got number`, ""},
		{"on a topic", repo, "true", true, "topics[0].sharedContext.repository | the repository is shared with the whole run; set it on the top-level sharedContext instead", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := tt.dir
			if dir == "" {
				dir = t.TempDir()
			}
			body := "{" + validBody + "\n  \"sharedContext\": { \"repository\": " + tt.value + " },\n}"
			if tt.topic {
				body = strings.Replace("{"+validBody+"\n}", `"title": "Question"`, `"title": "Question", "sharedContext": { "repository": `+tt.value+` }`, 1)
			}
			path := filepath.Join(dir, tt.name+".jsonc")
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path, Options{Getenv: testEnv})
			if tt.want != "" {
				want := strings.ReplaceAll(tt.want, "%DIR%", dir)
				for _, p := range problemsOf(t, err) {
					if got := where(p) + " | " + p.Message; strings.HasSuffix(got, want) || got == want {
						return
					}
				}
				t.Fatalf("problems %v, want %q", err, want)
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.dirIs
			if want == "." {
				want = dir
			}
			if got := filepath.Clean(cfg.RepositoryDir()); want != "" && got != filepath.Clean(want) || want == "" && cfg.RepositoryDir() != "" {
				t.Errorf("RepositoryDir %q, want %q", cfg.RepositoryDir(), want)
			}
			if got, want := cfg.Quotes(), tt.dirIs != ""; got != want {
				t.Errorf("Quotes %v, want %v", got, want)
			}
		})
	}
}

func TestRepositoryJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"true": "true", "false": "false", `"../.."`: `"../.."`, `"."`: "true"} {
		var r Repository
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(r); string(b) != want {
			t.Errorf("%s reads and writes as %s, want %s", in, b, want)
		}
	}
}

// TestRepositoryOutsideNamesFolder: a config loaded by a relative path from
// its own folder, outside any repository, is told which folder is not in
// one by its absolute path, not as ".".
func TestRepositoryOutsideNamesFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	body := "{" + validBody + "\n  \"sharedContext\": { \"repository\": true },\n}"
	if err := os.WriteFile("debate.jsonc", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load("debate.jsonc", Options{Getenv: testEnv})
	want := dir + " is not inside a git repository"
	for _, p := range problemsOf(t, err) {
		if strings.HasPrefix(p.Message, want) {
			return
		}
	}
	t.Fatalf("problems %v, want one starting %q", err, want)
}

// TestRepositoryLoadReadsNoChanges: a config load asks git only where the
// work tree's top is; it reads none of the uncommitted changes, so an index
// git cannot read does not stop it.
func TestRepositoryLoadReadsNoChanges(t *testing.T) {
	t.Parallel()
	repo := gitrepotest.New(t, map[string]string{"main.go": "package main\n"})
	if err := os.WriteFile(filepath.Join(repo, ".git", "index"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repo, "debate.jsonc")
	body := "{" + validBody + "\n  \"sharedContext\": { \"repository\": true },\n}"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, Options{Getenv: testEnv}); err != nil {
		t.Fatal(err)
	}
}
