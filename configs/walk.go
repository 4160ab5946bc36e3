package configs

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxGlobEntries bounds what one glob of sharedContext.files visits: the
// files and folders it reads, each real one once.
const MaxGlobEntries = 1_000_000

// errGlobTooLarge is the error of a glob that visits more files and
// folders than its walk may.
var errGlobTooLarge = errors.New("visits too many files and folders")

// walk is one glob's walk of a folder. A symbolic link is followed only
// when what it leads to lies inside one of the folders in, and every real
// folder is read and every real file matched once, whatever links lead to
// it: a loop of links, or a ladder of them that names one file in 2^n ways,
// costs what its real folders hold.
type walk struct {
	glob    string          // the pattern, its parts '/' apart
	parts   []string        // the pattern's parts
	in      []string        // real folders a link may lead into
	seen    map[string]bool // real folders read and real files matched
	visited int             // the entries read, up to limit
	limit   int
	matches []string      // the files matched, by the names the walk gave them
	outside []SkippedFile // the links skipped, by name, and why
}

// folder is a real folder to read under the name the walk gave it.
type folder struct{ real, name string }

// globFiles returns the files under root that pattern (with '/' apart)
// matches, their names relative to root, and the symbolic links the walk
// did not follow, each by its name relative to root with the reason. A link is followed when it leads
// inside root or the config's folder, dir. Folders are read breadth first,
// real ones before links, so that a file is named by its shortest way; a
// walk that would read more than limit entries stops with errGlobTooLarge.
func globFiles(root, dir, pattern string, limit int) (matches []string, skipped []SkippedFile, err error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, err
	}
	w := &walk{glob: pattern, parts: strings.Split(pattern, "/"), in: []string{realRoot}, seen: map[string]bool{realRoot: true}, limit: limit}
	if d, err := filepath.EvalSymlinks(cmp.Or(dir, ".")); err == nil {
		w.in = append(w.in, d)
	}
	for queue := []folder{{realRoot, ""}}; len(queue) > 0; queue = queue[1:] {
		next, err := w.read(queue[0])
		if err != nil {
			return nil, nil, err
		}
		queue = append(queue, next...)
	}
	return w.matches, w.outside, nil
}

// read reads folder f, matching its files, and returns the folders to read
// after it.
func (w *walk) read(f folder) ([]folder, error) {
	entries, err := os.ReadDir(f.real)
	if err != nil {
		return nil, err
	}
	if w.visited += len(entries); w.visited > w.limit {
		return nil, fmt.Errorf("%w: more than %d", errGlobTooLarge, w.limit)
	}
	var next []folder
	var links []fs.DirEntry
	for _, e := range entries {
		name, real := path.Join(f.name, e.Name()), filepath.Join(f.real, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			links = append(links, e)
		case e.IsDir():
			if w.descends(name) && w.first(real) {
				next = append(next, folder{real, name})
			}
		default:
			w.file(name, real)
		}
	}
	for _, e := range links {
		name := path.Join(f.name, e.Name())
		real, err := filepath.EvalSymlinks(filepath.Join(f.real, e.Name()))
		var st fs.FileInfo
		if err == nil {
			st, err = os.Stat(real)
		}
		dir := err == nil && st.IsDir()
		relevant := w.descends(name) || w.match(name)
		switch {
		case err != nil:
			w.skip(relevant, name, "a broken link or a loop of links")
		case !w.inside(real):
			w.skip(relevant, name, "a link to outside the config's folder")
		case dir:
			if w.descends(name) && w.first(real) {
				next = append(next, folder{real, name})
			}
		default:
			w.file(name, real)
		}
	}
	return next, nil
}

// file matches the file real, met as name; a real file is matched once,
// under the first name that matches.
func (w *walk) file(name, real string) {
	if w.match(name) && w.first(real) {
		w.matches = append(w.matches, name)
	}
}

// first reports whether real is met for the first time, and marks it met.
func (w *walk) first(real string) bool {
	if w.seen[real] {
		return false
	}
	w.seen[real] = true
	return true
}

// skip records the link name as not followed, when the glob could have
// matched it or something under it.
func (w *walk) skip(relevant bool, name, reason string) {
	if relevant {
		w.outside = append(w.outside, SkippedFile{Path: name, Reason: reason})
	}
}

// inside reports whether the real path p lies in one of the walk's folders.
func (w *walk) inside(p string) bool {
	for _, d := range w.in {
		if rel, err := filepath.Rel(d, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// descends reports whether the glob could match something under the folder
// name: each of its parts matches the glob's part at its place, until a
// part with "**". A glob with alternatives ("{a,b/c}") may span parts, and
// descends into every folder.
func (w *walk) descends(name string) bool {
	if strings.Contains(w.glob, "{") {
		return true
	}
	parts := strings.Split(name, "/")
	for i, p := range parts {
		if i >= len(w.parts) {
			return false
		}
		if strings.Contains(w.parts[i], "**") {
			return true
		}
		if ok, _ := doublestar.Match(w.parts[i], p); !ok {
			return false
		}
	}
	return len(parts) < len(w.parts)
}

// match reports whether the glob matches the file name.
func (w *walk) match(name string) bool {
	ok, _ := doublestar.Match(w.glob, name)
	return ok
}
