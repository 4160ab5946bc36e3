// Package repo serves the files of a git repository as documents that
// debaters may quote, as the files were when a run started.
//
// Open records the repository's state (its commit and a digest of the
// changes not yet committed) and, for every file git tracks or would track,
// its size and modification time. A file is read the first time a quote
// names it and kept for the rest of the run, so that an edit made after
// that changes no verdict. A file whose size or modification time differs
// from those recorded at the start when it is first read is refused as
// changed since the run started: the run's verdicts rest only on text of
// the state it recorded. Files git ignores, files whose name or content
// says they hold a secret (internal/shareable, or one of the run's own
// credentials), binary files, links and files over a size cap are refused
// with the reason.
package repo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/internal/gitrepo"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/internal/shareable"
	"github.com/debatehq/debate/quote"
)

// DefaultMaxFileBytes is the largest file that can be quoted when Options
// sets no other limit: 1 MiB.
const DefaultMaxFileBytes = 1 << 20

// Options tune which files may be quoted.
type Options struct {
	// MaxFileBytes caps the size of a quotable file; 0 means
	// DefaultMaxFileBytes.
	MaxFileBytes int64
	// Secrets are values that no quoted file may hold: the run's API keys.
	// A file holding one, as internal/redact would find it in model text,
	// is refused.
	Secrets []string
	// Exclude are folders whose files are not the repository's: a run's
	// own output and cache, which change with every run.
	Exclude []string
}

// Files are the quotable files of a repository at the start of a run. It is
// safe for concurrent use.
type Files struct {
	state   gitrepo.State
	names   []string         // the files that may be quoted by name, sorted
	stamps  map[string]stamp // every file git lists, as it was at Open
	max     int64
	secrets *redact.Secrets
	read    sync.Map // a file's name → *entry
}

// stamp is what tells a file changed: its size and modification time.
type stamp struct {
	size int64
	mod  time.Time
	mode fs.FileMode
}

func stampOf(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mod: info.ModTime(), mode: info.Mode().Type()}
}

// entry is one file as first read, or why it cannot be quoted.
type entry struct {
	once sync.Once
	text string
	err  error
}

// Open reads the state of the repository that holds dir and stamps its
// files. Its error wraps gitrepo.ErrNotRepo when dir is in no repository.
func Open(ctx context.Context, dir string, opt Options) (*Files, error) {
	st, err := gitrepo.Open(ctx, dir, opt.Exclude...)
	if err != nil {
		return nil, err
	}
	names, err := st.Files(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s: %w", st.Root, err)
	}
	f := &Files{state: st, stamps: make(map[string]stamp, len(names)), max: opt.MaxFileBytes, secrets: redact.NewSecrets(opt.Secrets)}
	if f.max <= 0 {
		f.max = DefaultMaxFileBytes
	}
	for _, name := range names {
		info, err := os.Lstat(f.path(name))
		if err != nil {
			continue // deleted since git listed it
		}
		f.stamps[name] = stampOf(info)
		if info.Mode().IsRegular() && info.Size() <= f.max && !shareable.SecretName(name) {
			f.names = append(f.names, name)
		}
	}
	return f, nil
}

// State is the repository's state at Open.
func (f *Files) State() gitrepo.State { return f.state }

// Names lists the files that may be quoted as far as their names and sizes
// tell (one may still be refused for its content when it is read), sorted,
// with forward slashes, relative to the repository's top folder.
func (f *Files) Names() []string { return f.names }

// path is the file called name on disk.
func (f *Files) path(name string) string {
	return filepath.Join(f.state.Root, filepath.FromSlash(name))
}

// Document returns the file a quote names, as it was at the start of the
// run, under its name relative to the repository's top folder; its error,
// a quote.Reason, says why the file cannot be quoted. It is a quote.Opener.
func (f *Files) Document(name string) (quote.Document, error) {
	clean, err := cleanName(name)
	if err != nil {
		return quote.Document{}, err
	}
	e, _ := f.read.LoadOrStore(clean, &entry{})
	en := e.(*entry)
	en.once.Do(func() { en.text, en.err = f.load(clean) })
	return quote.Document{Name: clean, Text: en.text}, en.err
}

// cleanName returns a file's name as a quote may write it ("./a/b.go",
// `a\b.go`) in the form Names lists it ("a/b.go"), or the quote.Reason
// Outside when it points outside the repository.
func cleanName(name string) (string, error) {
	s := strings.TrimSpace(strings.ReplaceAll(name, `\`, "/"))
	c := path.Clean(s)
	if s == "" || c == "." || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") || filepath.VolumeName(s) != "" {
		return "", quote.Because(quote.Outside, name)
	}
	return c, nil
}

// load reads the file called name (clean), checking it against its stamp
// and the sharing policy.
func (f *Files) load(name string) (string, error) {
	if shareable.SecretName(name) {
		return "", quote.Because(quote.SecretName, name)
	}
	was, ok := f.stamps[name]
	if !ok {
		return "", f.unlisted(name)
	}
	switch {
	case was.mode&fs.ModeSymlink != 0:
		return "", quote.Because(quote.Link, name)
	case was.mode != 0:
		return "", quote.Because(quote.Irregular, name)
	case was.size > f.max:
		return "", quote.Because(quote.TooLarge, name, regular.Size(f.max))
	}
	b, err := regular.ReadFileNoFollow(f.path(name), f.max)
	after, serr := os.Lstat(f.path(name))
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(serr, fs.ErrNotExist):
		return "", quote.Because(quote.Deleted, name)
	case err != nil:
		return "", quote.Because(quote.Unreadable, name, errors.Unwrap(err))
	case serr != nil || stampOf(after) != was || int64(len(b)) != was.size:
		return "", quote.Because(quote.Changed, name)
	}
	text := string(b)
	switch {
	case shareable.Binary(b):
		return "", quote.Because(quote.Binary, name)
	case shareable.HoldsPrivateKey(b):
		return "", quote.Because(quote.PrivateKey, name)
	case f.secrets.ModelText(text) != text:
		return "", quote.Because(quote.Credential, name)
	}
	return text, nil
}

// unlisted says why a file git does not list cannot be quoted.
func (f *Files) unlisted(name string) error {
	info, err := os.Lstat(f.path(name))
	switch {
	case err != nil:
		return quote.Because(quote.NoFile, name)
	case info.IsDir():
		return quote.Because(quote.Folder, name)
	case name == ".git" || strings.HasPrefix(name, ".git/"):
		return quote.Because(quote.GitFolder, name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitWait)
	defer cancel()
	if ignored, err := f.state.Ignored(ctx, name); err == nil && ignored {
		return quote.Because(quote.Ignored, name)
	}
	return quote.Because(quote.Created, name)
}

// gitWait bounds the one git command a quote may cause.
const gitWait = 10 * time.Second
