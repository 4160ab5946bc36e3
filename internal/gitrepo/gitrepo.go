// Package gitrepo reads what a run needs of the git repository a config
// lives in: its top folder, the commit checked out, a digest of the changes
// not yet committed, and the files git tracks or would track. Together the
// commit and the digest name the state the repository was in, which is what
// an answer about its code depends on.
package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotRepo means the folder is not inside a git work tree.
var ErrNotRepo = errors.New("not inside a git work tree")

// State is a repository at one moment.
type State struct {
	// Root is the absolute top folder of the work tree.
	Root string `json:"root"`
	// Head is the commit checked out, "" in a repository with no commit yet.
	Head string `json:"head,omitempty"`
	// Dirty is the hex SHA-256 of every change since Head that git does not
	// ignore (edited, added, deleted and untracked files, with their
	// contents); "" when the work tree equals Head.
	Dirty string `json:"dirty,omitempty"`

	// exclude are the pathspecs of the folders left out of Dirty and Files.
	exclude []string
}

// Key names the state in one string: the commit, and the digest of the
// changes after a "+" when there are any.
func (s State) Key() string {
	if s.Dirty == "" {
		return s.Head
	}
	return s.Head + "+" + s.Dirty
}

// Open reads the state of the repository that holds dir. The files under
// the folders in exclude (a run's own output and cache, which change with
// every run) count neither as changes nor as files of the repository; a
// folder outside the work tree, or its top itself, excludes nothing.
func Open(ctx context.Context, dir string, exclude ...string) (State, error) {
	root, err := Root(ctx, dir)
	if err != nil {
		return State{}, err
	}
	s := State{Root: root}
	s.exclude = pathspecs(s.Root, exclude)
	if head, err := git(ctx, s.Root, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		s.Head = strings.TrimSpace(string(head))
	}
	changed, err := s.changed(ctx)
	if err != nil {
		return State{}, err
	}
	if s.Dirty, err = digest(s.Root, changed); err != nil {
		return State{}, err
	}
	return s, nil
}

// Root returns the absolute top folder of the work tree that holds dir,
// without reading its state; its error wraps ErrNotRepo.
func Root(ctx context.Context, dir string) (string, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, ErrNotRepo)
	}
	return strings.TrimSpace(string(top)), nil
}

// Files lists the files of the work tree that git tracks or would track
// (untracked ones it does not ignore), relative to Root with forward
// slashes, sorted. Files deleted from the work tree are left out.
func (s State) Files(ctx context.Context) ([]string, error) {
	out, err := s.git(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, name := range split(out) {
		if _, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(name))); err == nil {
			files = append(files, name)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// Ignored reports whether git ignores the file called name (relative to
// Root, with forward slashes), by .gitignore or any other exclude file.
func (s State) Ignored(ctx context.Context, name string) (bool, error) {
	_, err := git(ctx, s.Root, "check-ignore", "-q", "--no-index", "--", name)
	if exit, ok := errors.AsType[*exec.ExitError](err); ok && exit.ExitCode() == 1 {
		return false, nil
	}
	return err == nil, err
}

// changed lists the paths whose content differs from Head, untracked files
// git does not ignore included, sorted.
func (s State) changed(ctx context.Context) ([]string, error) {
	var tracked []byte
	var err error
	if s.Head == "" {
		tracked, err = s.git(ctx, "ls-files", "-z", "--cached")
	} else {
		tracked, err = s.git(ctx, "diff", "--name-only", "-z", "--no-renames", "HEAD")
	}
	if err != nil {
		return nil, err
	}
	others, err := s.git(ctx, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	paths := append(split(tracked), split(others)...)
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// digest hashes each path with its content, or marks it deleted; "" for
// no path.
func digest(root string, paths []string) (string, error) {
	if len(paths) == 0 {
		return "", nil
	}
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%d:%s\x00", len(p), p)
		if err := hashFile(h, filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile writes a file's content to h, a link's target, or a mark that
// it is gone.
func hashFile(h io.Writer, path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		_, err = io.WriteString(h, "deleted\x00")
		return err
	case err != nil:
		return err
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(path)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(h, "link:%s\x00", target)
		return err
	case !info.Mode().IsRegular():
		_, err = fmt.Fprintf(h, "mode:%s\x00", info.Mode().Type())
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(h, "file:%d:", info.Size())
	_, err = io.Copy(h, f)
	return err
}

// git runs a git command that lists paths at the top of the work tree,
// leaving out the excluded folders.
func (s State) git(ctx context.Context, args ...string) ([]byte, error) {
	if len(s.exclude) > 0 {
		args = append(append(args, "--", "."), s.exclude...)
	}
	return git(ctx, s.Root, args...)
}

// pathspecs are git's exclusions of the folders in dirs that lie inside the
// work tree at root, below its top.
func pathspecs(root string, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		rel, err := filepath.Rel(root, realPath(d))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out = append(out, ":(exclude,top,literal)"+filepath.ToSlash(rel))
	}
	return out
}

// realPath is path made absolute with its links resolved as far as it
// exists: a run's output folder may not exist yet.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		if filepath.Dir(p) == p {
			return abs
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}

// git runs one read-only git command in dir and returns its output. It
// takes no optional lock, so that it never blocks a user's own git.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return out, nil
}

// split cuts NUL-separated output into its names.
func split(b []byte) []string {
	var out []string
	for _, s := range bytes.Split(b, []byte{0}) {
		if len(s) > 0 {
			out = append(out, string(s))
		}
	}
	return out
}
