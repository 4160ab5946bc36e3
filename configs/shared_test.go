package configs

import (
	"errors"
	"fmt"
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

func TestTopicSharedContext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		topics string // the topics list, as JSON
		docs   map[string][]string
		inline map[string]string
		warn   string // a warning the load gives, "" for none
		err    string // a problem the load reports, "" for none
	}{
		{"a topic's files follow the shared ones, its notes too",
			`[{"id": "t1", "title": "Q", "sharedContext": {"files": ["docs/sub/*.md"], "inline": "Own notes."}}, {"id": "t2", "title": "R"}]`,
			map[string][]string{"t1": {"docs/design.md", "docs/sub/api.md"}, "t2": {"docs/design.md"}},
			map[string]string{"t1": "Shared notes.\n\nOwn notes.", "t2": "Shared notes."}, "", ""},
		{"a topic's glob skips as the shared one does, and a shared file is listed once",
			`[{"id": "t1", "title": "Q", "sharedContext": {"files": ["docs/*"]}}]`,
			map[string][]string{"t1": {"docs/design.md"}}, nil,
			"topics[0].sharedContext.files[0]: skipped docs/.env: looks like a secret", ""},
		{"a missing file is located at the topic",
			`[{"id": "t1", "title": "Q", "sharedContext": {"files": ["docs/none.md"]}}]`, nil, nil, "",
			"topics[0].sharedContext.files[0]: cannot read"},
		{"an unknown field is named",
			`[{"id": "t1", "title": "Q", "sharedContext": {"file": ["docs/design.md"]}}]`, nil, nil, "",
			"topics[0].sharedContext.file: unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := strings.Replace(validBody, `[{ "id": "t1", "title": "Question" }]`, tt.topics, 1)
			path := writeConfig(t, "{"+body+"\n  \"sharedContext\": { \"files\": [\"docs/design.md\"], \"inline\": \"Shared notes.\" },\n}")
			writeTree(t, filepath.Dir(path), sharedTree)
			cfg, err := Load(path, Options{Getenv: testEnv})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Load: %v, want a problem with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.docs {
				topic, _ := cfg.TopicByID(id)
				var got []string
				for _, d := range cfg.Documents(topic) {
					got = append(got, d.Path)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: documents %q, want %q", id, got, want)
				}
				if w, ok := tt.inline[id]; ok && cfg.Inline(topic) != w {
					t.Errorf("%s: inline %q, want %q", id, cfg.Inline(topic), w)
				}
			}
			if tt.warn != "" && !slices.ContainsFunc(cfg.Warnings, func(p Problem) bool { return strings.Contains(p.Error(), tt.warn) }) {
				t.Errorf("warnings %v, want one with %q", cfg.Warnings, tt.warn)
			}
			if !cfg.Quotes() {
				t.Error("Quotes() = false with documents to quote")
			}
		})
	}
}

// symlink makes a symbolic link at dir/name (slash path) to target.
func symlink(t *testing.T, dir, name, target string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// loadShared loads a config whose sharedContext.files is files (JSON)
// after prepare has laid out the config's folder, and returns the
// documents read and the files skipped ("path: reason").
func loadShared(t *testing.T, files string, prepare func(dir string)) (read, skipped []string) {
	t.Helper()
	path := writeConfig(t, "{"+validBody+"\n  \"sharedContext\": { \"files\": "+files+" },\n}")
	prepare(filepath.Dir(path))
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range cfg.SharedContext.Documents {
		read = append(read, d.Path)
	}
	for _, s := range cfg.SharedContext.Skipped {
		skipped = append(skipped, s.Path+": "+s.Reason)
	}
	return read, skipped
}

// TestGlobStaysInside: a glob follows a symbolic link only to what lies
// inside the config's folder, reads each real file once whatever links
// lead to it, and lists the links it did not follow.
func TestGlobStaysInside(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"creds.txt": "TOKEN=outside-secret\n", "more/plan.md": "# Outside plan\n"})
	read, skipped := loadShared(t, `["ctx/**/*.md"]`, func(dir string) {
		writeTree(t, dir, map[string]string{"ctx/real.md": "# Real\n", "shared/extra.md": "# Extra\n"})
		symlink(t, dir, "ctx/notes.md", filepath.Join(outside, "creds.txt"))
		symlink(t, dir, "ctx/far", filepath.Join(outside, "more"))
		symlink(t, dir, "ctx/alias.md", "real.md")
		symlink(t, dir, "ctx/near", "../shared")
		symlink(t, dir, "ctx/gone.md", "nowhere.md")
		symlink(t, dir, "ctx/self", ".")
	})
	if want := []string{"ctx/near/extra.md", "ctx/real.md"}; !slices.Equal(read, want) {
		t.Errorf("read %q, want %q", read, want)
	}
	slices.Sort(skipped)
	want := []string{
		"ctx/far: a link to outside the config's folder",
		"ctx/gone.md: a broken link or a loop of links",
		"ctx/notes.md: a link to outside the config's folder",
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}

// TestGlobSkippedLinkName: a link the glob does not follow is listed by its
// whole name, ": " and all.
func TestGlobSkippedLinkName(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"creds.md": "TOKEN=outside-secret\n"})
	path := writeConfig(t, "{"+validBody+"\n  \"sharedContext\": { \"files\": [\"ctx/*.md\"] },\n}")
	dir := filepath.Dir(path)
	writeTree(t, dir, map[string]string{"ctx/real.md": "# Real\n"})
	symlink(t, dir, "ctx/notes: old.md", filepath.Join(outside, "creds.md"))
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	want := []SkippedFile{{Entry: 0, Path: "ctx/notes: old.md", Reason: "a link to outside the config's folder"}}
	if !slices.Equal(cfg.SharedContext.Skipped, want) {
		t.Errorf("skipped %+v, want %+v", cfg.SharedContext.Skipped, want)
	}
}

// TestGlobLadder: folders L0 to L24, each holding two links a and b to the
// next, name the one file of L24 in 2^24 ways and more; with a loop back
// to the top, the glob still reads the file once, from its real folder.
func TestGlobLadder(t *testing.T) {
	t.Parallel()
	read, skipped := loadShared(t, `["docs/**/*.md"]`, func(dir string) {
		for i := range 24 {
			for _, l := range []string{"a", "b"} {
				symlink(t, dir, fmt.Sprintf("docs/L%d/%s", i, l), fmt.Sprintf("../L%d", i+1))
			}
		}
		writeTree(t, dir, map[string]string{"docs/L24/f.md": "# The one file\n"})
		symlink(t, dir, "docs/L24/up", "../L0")
	})
	if want := []string{"docs/L24/f.md"}; !slices.Equal(read, want) || len(skipped) != 0 {
		t.Errorf("read %q, skipped %q; want %q alone", read, skipped, want)
	}
}

// TestGlobBounded: a glob that would visit more entries than its bound is
// refused with the reason, links to nowhere counted too.
func TestGlobBounded(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 3 {
		d := filepath.Join(root, fmt.Sprint(i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 20 {
			if err := os.Symlink("x", filepath.Join(d, fmt.Sprint(j))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, _, err := globFiles(root, root, "**/*.md", 60); !errors.Is(err, errGlobTooLarge) || !strings.Contains(err.Error(), "more than 60") {
		t.Errorf("a glob over 63 entries, 60 allowed: %v, want %v", err, errGlobTooLarge)
	}
	if _, _, err := globFiles(root, root, "**/*.md", 63); err != nil {
		t.Errorf("a glob over 63 entries, 63 allowed: %v", err)
	}
}
