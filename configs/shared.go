package configs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/internal/shareable"

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

// LooksSecret reports whether a document looks like it holds a secret: by
// its name, or by a private key's header in its text. Such a document is
// never copied into a run's output.
func LooksSecret(name, text string) bool {
	return shareable.SecretName(name) || shareable.HoldsPrivateKey([]byte(text))
}

// isGlob reports whether a sharedContext.files entry is a pattern rather
// than a file's name.
func isGlob(f string) bool { return strings.ContainsAny(f, "*?[{") }

// readSharedContext reads the files of the run's shared context and of
// each topic's own into their Documents.
func (c *Config) readSharedContext(r *reporter) {
	c.readDocuments(r, &c.SharedContext, "sharedContext")
	for i := range c.Topics {
		if sc := c.Topics[i].SharedContext; sc != nil {
			c.readDocuments(r, sc, joinPath(indexPath("topics", i), "sharedContext"))
		}
	}
}

// readDocuments reads every file of sc (written at field), resolved against
// the config's folder, into sc.Documents. A glob's files are read in name
// order, except those .gitignore ignores, hidden, binary ones and those that
// look like secrets, which are listed in Skipped; a file named literally is
// always read. A file named twice is read once. The documents together may
// hold at most sc.MaxBytes.
func (c *Config) readDocuments(r *reporter, sc *SharedContext, field string) {
	sc.Documents, sc.Skipped = nil, nil
	if sc.MaxBytes < 0 {
		r.at(joinPath(field, "maxBytes"), "must be 0 (the default, %s) or more (got %d)", regular.Size(DefaultMaxSharedBytes), sc.MaxBytes)
	}
	limit := sc.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxSharedBytes
	}
	seen := map[string]bool{}
	var total int64
	for i, f := range sc.Files {
		at := indexPath(joinPath(field, "files"), i)
		if strings.TrimSpace(f) == "" {
			r.at(at, "empty file name; remove the entry or name a file")
			continue
		}
		names := []string{f}
		if isGlob(f) {
			names = c.globShared(r, sc, at, i, f)
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
			if reason := shareable.Check(b); reason != "" && name != f {
				sc.Skipped = append(sc.Skipped, SkippedFile{Entry: i, Path: name, Reason: reason})
				continue
			}
			if total += int64(len(b)); total > limit {
				r.at(at, "the shared documents pass %s.maxBytes (%s) at %s; name fewer files, or raise the limit", field, regular.Size(limit), name)
				return
			}
			sc.Documents = append(sc.Documents, Document{Path: name, Content: string(b)})
		}
	}
}

// globShared returns the files the glob f (entry i of sc's files, written
// at at) matches, as names relative to the config's folder when f is, in
// name order. Matches that .gitignore ignores, hidden ones, those whose
// names look like secrets and symbolic links that lead outside the config's
// folder are recorded in sc.Skipped; a glob that matches nothing is a
// problem.
func (c *Config) globShared(r *reporter, sc *SharedContext, at string, i int, f string) []string {
	base, pattern := doublestar.SplitPattern(filepath.ToSlash(f))
	root := c.resolve(filepath.FromSlash(base))
	matches, links, err := globFiles(root, c.Dir, pattern, MaxGlobEntries)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.at(at, "cannot expand %q: %s; fix or narrow the pattern", f, errReason(err))
		return nil
	}
	for _, l := range links {
		l.Entry, l.Path = i, path.Join(base, l.Path)
		sc.Skipped = append(sc.Skipped, l)
	}
	if len(matches) == 0 {
		r.at(at, "%q matches no file; fix the pattern (relative paths start at the config file's folder)", f)
		return nil
	}
	slices.Sort(matches)
	ignored := newIgnorer(root)
	var out []string
	for _, m := range matches {
		name := path.Join(base, m)
		switch {
		case shareable.SecretName(m):
			sc.Skipped = append(sc.Skipped, SkippedFile{Entry: i, Path: name, Reason: "looks like a secret"})
		case strings.HasPrefix(path.Base(m), "."):
			sc.Skipped = append(sc.Skipped, SkippedFile{Entry: i, Path: name, Reason: "hidden file"})
		case ignored.ignores(filepath.Join(root, filepath.FromSlash(m))):
			sc.Skipped = append(sc.Skipped, SkippedFile{Entry: i, Path: name, Reason: "ignored by .gitignore"})
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
	out := skipped(r, &c.SharedContext, "sharedContext")
	for i, t := range c.Topics {
		if t.SharedContext != nil {
			out = append(out, skipped(r, t.SharedContext, joinPath(indexPath("topics", i), "sharedContext"))...)
		}
	}
	return out
}

// skipped lists the files the globs of sc (written at field) skipped.
func skipped(r *reporter, sc *SharedContext, field string) []Problem {
	var out []Problem
	for _, s := range sc.Skipped {
		at := indexPath(joinPath(field, "files"), s.Entry)
		off := -1
		if r.src != nil {
			off = r.src.offset(at)
		}
		out = append(out, r.make(at, off, fmt.Sprintf("skipped %s: %s; name it literally to share it", s.Path, s.Reason)))
	}
	return out
}

// Documents returns the documents topic t's debaters see and may quote:
// the shared ones, then those of the topic's own that are not shared.
func (c *Config) Documents(t Topic) []Document {
	if t.SharedContext == nil || len(t.SharedContext.Documents) == 0 {
		return c.SharedContext.Documents
	}
	return addDocuments(slices.Clone(c.SharedContext.Documents), t.SharedContext.Documents)
}

// addDocuments appends to docs each of more whose name it does not hold.
func addDocuments(docs, more []Document) []Document {
	for _, d := range more {
		if !slices.ContainsFunc(docs, func(e Document) bool { return e.Path == d.Path }) {
			docs = append(docs, d)
		}
	}
	return docs
}

// Inline returns the inline notes topic t's debaters see: the shared ones,
// then the topic's own.
func (c *Config) Inline(t Topic) string {
	if t.SharedContext == nil || t.SharedContext.Inline == "" {
		return c.SharedContext.Inline
	}
	return strings.TrimSpace(c.SharedContext.Inline + "\n\n" + t.SharedContext.Inline)
}

// AllDocuments returns every document of the run: the shared ones, then
// each topic's own, each name once.
func (c *Config) AllDocuments() []Document {
	out := slices.Clone(c.SharedContext.Documents)
	for _, t := range c.Topics {
		if t.SharedContext != nil {
			out = addDocuments(out, t.SharedContext.Documents)
		}
	}
	return out
}
