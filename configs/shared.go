package configs

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/debatehq/debate/internal/regular"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	ignore "github.com/sabhiram/go-gitignore"
)

// DefaultMaxSharedBytes is sharedContext.maxBytes: 2 MiB of shared documents.
const DefaultMaxSharedBytes = 2 << 20

// SkippedFile is a file that a glob of sharedContext.files matched but that
// was not read, and why.
type SkippedFile struct {
	Entry  int    // the index of the glob in sharedContext.files
	Path   string // as a document's name would be written
	Reason string
}

// privateKey matches the header of a PEM private key.
var privateKey = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`)

// secretName reports whether a file's name looks like it holds a secret:
// .env*, *.pem, *.key, id_rsa*.
func secretName(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	return strings.HasPrefix(base, ".env") || strings.HasSuffix(base, ".pem") ||
		strings.HasSuffix(base, ".key") || strings.HasPrefix(base, "id_rsa")
}

// LooksSecret reports whether a document looks like it holds a secret: by
// its name, or by a private key's header in its text. Such a document is
// never copied into a run's output.
func LooksSecret(name, text string) bool {
	return secretName(name) || privateKey.MatchString(text)
}

// isGlob reports whether a sharedContext.files entry is a pattern rather
// than a file's name.
func isGlob(f string) bool { return strings.ContainsAny(f, "*?[{") }

// readSharedContext reads every shared-context file, resolved against the
// config's folder, into Documents. A glob's files are read in name order,
// except those .gitignore ignores, hidden, binary ones and those that look
// like secrets, which are listed in Skipped; a file named literally is always
// read. A file named twice is read once. The documents together may hold at
// most sharedContext.maxBytes.
func (c *Config) readSharedContext(r *reporter) {
	sc := &c.SharedContext
	sc.Documents, sc.Skipped = nil, nil
	if sc.MaxBytes < 0 {
		r.at("sharedContext.maxBytes", "must be 0 (the default, %s) or more (got %d)", regular.Size(DefaultMaxSharedBytes), sc.MaxBytes)
	}
	limit := sc.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxSharedBytes
	}
	seen := map[string]bool{}
	var total int64
	for i, f := range sc.Files {
		at := indexPath("sharedContext.files", i)
		if strings.TrimSpace(f) == "" {
			r.at(at, "empty file name; remove the entry or name a file")
			continue
		}
		names := []string{f}
		if isGlob(f) {
			names = c.globShared(r, i, f)
		}
		for _, name := range names {
			if seen[filepath.Clean(name)] {
				continue
			}
			seen[filepath.Clean(name)] = true
			b, err := regular.ReadFile(c.resolve(name), MaxDocumentBytes)
			if err != nil {
				r.at(at, "cannot read %s: %s; fix the path (relative paths start at the config file's folder)", c.resolve(name), errReason(err))
				continue
			}
			if reason := unreadable(b); reason != "" && name != f {
				sc.Skipped = append(sc.Skipped, SkippedFile{Entry: i, Path: name, Reason: reason})
				continue
			}
			if total += int64(len(b)); total > limit {
				r.at(at, "the shared documents pass sharedContext.maxBytes (%s) at %s; name fewer files, or raise the limit", regular.Size(limit), name)
				return
			}
			sc.Documents = append(sc.Documents, Document{Path: name, Content: string(b)})
		}
	}
}

// unreadable says why a file a glob matched is not read as a document:
// binary, or holding a private key; "" when it is read.
func unreadable(b []byte) string {
	head := b[:min(len(b), 8000)]
	switch {
	case bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(b):
		return "binary"
	case privateKey.Match(b):
		return "holds a private key"
	}
	return ""
}

// globShared returns the files the glob f (entry i) matches, as names
// relative to the config's folder when f is, in name order. Matches that
// .gitignore ignores, hidden ones and those whose names look like secrets
// are recorded as skipped; a glob that matches nothing is a problem.
func (c *Config) globShared(r *reporter, i int, f string) []string {
	at := indexPath("sharedContext.files", i)
	base, pattern := doublestar.SplitPattern(filepath.ToSlash(f))
	root := c.resolve(filepath.FromSlash(base))
	matches, err := doublestar.Glob(os.DirFS(root), pattern, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.at(at, "cannot expand %q: %s; fix the pattern", f, errReason(err))
		return nil
	}
	if len(matches) == 0 {
		r.at(at, "%q matches no file; fix the pattern (relative paths start at the config file's folder)", f)
		return nil
	}
	ignored := newIgnorer(root)
	var out []string
	for _, m := range matches {
		name := path.Join(base, m)
		switch {
		case secretName(m):
			c.SharedContext.Skipped = append(c.SharedContext.Skipped, SkippedFile{Entry: i, Path: name, Reason: "looks like a secret"})
		case strings.HasPrefix(path.Base(m), "."):
			c.SharedContext.Skipped = append(c.SharedContext.Skipped, SkippedFile{Entry: i, Path: name, Reason: "hidden file"})
		case ignored.ignores(filepath.Join(root, filepath.FromSlash(m))):
			c.SharedContext.Skipped = append(c.SharedContext.Skipped, SkippedFile{Entry: i, Path: name, Reason: "ignored by .gitignore"})
		default:
			out = append(out, name)
		}
	}
	return out
}

// ignorer tells the files that the .gitignore files of a repository ignore:
// those of every folder from the repository's top (the nearest folder above
// with a .git; without one, the glob's own folder) down to the file's.
type ignorer struct {
	top   string
	files map[string]*ignore.GitIgnore // by folder; nil when it has none
}

func newIgnorer(root string) *ignorer {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	top := abs
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return &ignorer{top: top, files: map[string]*ignore.GitIgnore{}}
}

// ignores reports whether a .gitignore ignores the file at p.
func (g *ignorer) ignores(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(g.top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	dirs, d := []string{g.top}, g.top
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part != "." {
			d = filepath.Join(d, part)
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		gi := g.file(d)
		if gi == nil {
			continue
		}
		if r, err := filepath.Rel(d, abs); err == nil && gi.MatchesPath(filepath.ToSlash(r)) {
			return true
		}
	}
	return false
}

// file returns the parsed .gitignore of dir, nil when it has none.
func (g *ignorer) file(dir string) *ignore.GitIgnore {
	gi, ok := g.files[dir]
	if !ok {
		gi, _ = ignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
		g.files[dir] = gi
	}
	return gi
}

// skippedWarnings lists the files the globs skipped, each at its glob.
func (c *Config) skippedWarnings(r *reporter) []Problem {
	var out []Problem
	for _, s := range c.SharedContext.Skipped {
		field := indexPath("sharedContext.files", s.Entry)
		off := -1
		if r.src != nil {
			off = r.src.offset(field)
		}
		out = append(out, r.make(field, off, fmt.Sprintf("skipped %s: %s; name it literally to share it", s.Path, s.Reason)))
	}
	return out
}
