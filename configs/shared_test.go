package configs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (by slash path) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// png is the start of a PNG file: its signature and the IHDR chunk's length.
const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"

// sharedTree is a repository with documents a glob may match.
var sharedTree = map[string]string{
	".git/HEAD":           "ref: refs/heads/main\n",
	".gitignore":          "docs/draft.md\n*.log\n",
	"docs/design.md":      "# Design\n",
	"docs/draft.md":       "# Not ready\n",
	"docs/run.log":        "log line\n",
	"docs/.env":           "API_KEY=sk-live-1\n",
	"docs/.env.example":   "API_KEY=\n",
	"docs/logo.png":       png,
	"docs/deploy.pem":     "cert\n",
	"docs/id_rsa.md":      "not even a key\n",
	"docs/notes.txt":      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\n",
	"docs/sub/api.md":     "# API\n",
	"docs/sub/.gitignore": "old.md\n",
	"docs/sub/old.md":     "# Old\n",
}

func TestSharedContextGlobs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   string // the sharedContext.files list, as JSON
		read    []string
		skipped []string // "path: reason"
	}{
		{"a glob skips ignored, binary and secret files", `["docs/**/*"]`,
			[]string{"docs/design.md", "docs/sub/api.md"},
			[]string{
				"docs/.env.example: looks like a secret", "docs/.env: looks like a secret",
				"docs/deploy.pem: looks like a secret", "docs/draft.md: ignored by .gitignore",
				"docs/id_rsa.md: looks like a secret", "docs/logo.png: binary",
				"docs/notes.txt: holds a private key", "docs/run.log: ignored by .gitignore",
				"docs/sub/.gitignore: hidden file", "docs/sub/old.md: ignored by .gitignore",
			}},
		{"named literally, a file is read", `["docs/*.md", "docs/draft.md", "docs/.env"]`,
			[]string{"docs/design.md", "docs/draft.md", "docs/.env"},
			[]string{"docs/draft.md: ignored by .gitignore", "docs/id_rsa.md: looks like a secret"}},
		{"a file named twice is read once", `["docs/design.md", "docs/*.md"]`,
			[]string{"docs/design.md"},
			[]string{"docs/draft.md: ignored by .gitignore", "docs/id_rsa.md: looks like a secret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeConfig(t, "{"+validBody+"\n  \"sharedContext\": { \"files\": "+tt.files+" },\n}")
			writeTree(t, filepath.Dir(path), sharedTree)
			cfg, err := Load(path, Options{Getenv: testEnv})
			if err != nil {
				t.Fatal(err)
			}
			var read, skipped, warned []string
			for _, d := range cfg.SharedContext.Documents {
				read = append(read, d.Path)
			}
			for _, s := range cfg.SharedContext.Skipped {
				skipped = append(skipped, s.Path+": "+s.Reason)
			}
			for _, w := range cfg.Warnings {
				warned = append(warned, w.Error())
			}
			if !slices.Equal(read, tt.read) {
				t.Errorf("read %q, want %q", read, tt.read)
			}
			slices.Sort(skipped)
			if !slices.Equal(skipped, tt.skipped) {
				t.Errorf("skipped %q, want %q", skipped, tt.skipped)
			}
			for _, s := range tt.skipped {
				p, reason, _ := strings.Cut(s, ": ")
				if !slices.ContainsFunc(warned, func(w string) bool {
					return strings.Contains(w, "sharedContext.files[") && strings.Contains(w, "skipped "+p+": "+reason+"; name it literally")
				}) {
					t.Errorf("no warning lists %s; warnings: %q", s, warned)
				}
			}
		})
	}
}

func TestSharedContextLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		shared string
		want   string
	}{
		{"no match", `"files": ["docs/*.rst"]`, `8:32 sharedContext.files[0] | "docs/*.rst" matches no file`},
		{"over maxBytes", `"files": ["docs/design.md", "docs/sub/api.md"], "maxBytes": 12`,
			"8:50 sharedContext.files[1] | the shared documents pass sharedContext.maxBytes (12 bytes) at docs/sub/api.md"},
		{"negative maxBytes", `"files": [], "maxBytes": -1`, "8:35 sharedContext.maxBytes | must be 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeConfig(t, "{"+validBody+"\n  \"sharedContext\": { "+tt.shared+" },\n}")
			writeTree(t, filepath.Dir(path), sharedTree)
			_, err := Load(path, Options{Getenv: testEnv})
			ps := problemsOf(t, err)
			var got []string
			for _, p := range ps {
				got = append(got, where(p)+" | "+p.Message)
			}
			if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, tt.want) }) {
				t.Errorf("problems %q, want one starting %q", got, tt.want)
			}
		})
	}
}

func TestLooksSecret(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       bool
	}{
		{"docs/design.md", "# Design", false},
		{".env.local", "", true},
		{"certs/server.pem", "", true},
		{"tls.key", "", true},
		{"home/id_rsa.pub", "", true},
		{"notes.md", "x\n-----BEGIN RSA PRIVATE KEY-----\n", true},
	}
	for _, tt := range tests {
		if got := LooksSecret(tt.name, tt.text); got != tt.want {
			t.Errorf("LooksSecret(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
