package gitrepo

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// repo makes a repository with one commit of a.txt and an ignored pattern.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	write(t, dir, "a.txt", "one\n")
	write(t, dir, ".gitignore", "*.log\n")
	run(t, dir, "init", "-q")
	run(t, dir, "add", ".")
	run(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first")
	return dir
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func open(t *testing.T, dir string) State {
	t.Helper()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStateFollowsTheWorkTree(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	clean := open(t, dir)
	if len(clean.Head) != 40 || clean.Dirty != "" || clean.Key() != clean.Head {
		t.Fatalf("clean repository: %+v", clean)
	}

	write(t, dir, "debug.log", "ignored\n")
	if s := open(t, dir); s.Key() != clean.Key() {
		t.Fatalf("an ignored file changed the state: %+v", s)
	}

	write(t, dir, "a.txt", "two\n")
	edited := open(t, dir)
	if edited.Dirty == "" || edited.Head != clean.Head {
		t.Fatalf("an edit left the state clean: %+v", edited)
	}
	write(t, dir, "a.txt", "three\n")
	if s := open(t, dir); s.Dirty == edited.Dirty {
		t.Fatal("two different edits of a file have one digest")
	}

	write(t, dir, "a.txt", "one\n")
	if s := open(t, dir); s.Key() != clean.Key() {
		t.Fatalf("an edit undone left the state dirty: %+v", s)
	}

	write(t, dir, "b.txt", "new\n")
	if s := open(t, dir); s.Dirty == "" {
		t.Fatal("an untracked file left the state clean")
	}
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if s := open(t, dir); s.Dirty == "" {
		t.Fatal("a deleted file left the state clean")
	}
}

func TestStateFromASubfolder(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s := open(t, sub)
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(s.Root); got != want {
		t.Fatalf("root %q, want %q", s.Root, dir)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	write(t, dir, "debug.log", "ignored\n")
	write(t, dir, "new.txt", "untracked\n")
	files, err := open(t, dir).Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "a.txt", "new.txt"}; !slices.Equal(files, want) {
		t.Fatalf("files %q, want %q", files, want)
	}
}

func TestNotARepository(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	_, err := Open(context.Background(), t.TempDir())
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("err = %v, want ErrNotRepo", err)
	}
	if _, err := Root(context.Background(), t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Root: err = %v, want ErrNotRepo", err)
	}
}

// TestRoot: the top of the work tree from a folder inside it, as Open
// finds it.
func TestRoot(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := Root(context.Background(), filepath.Join(dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if want := open(t, dir).Root; root != want {
		t.Errorf("Root = %q, want %q", root, want)
	}
}

func TestNoCommitYet(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	write(t, dir, "a.txt", "one\n")
	s := open(t, dir)
	if s.Head != "" || s.Dirty == "" {
		t.Fatalf("a repository without a commit: %+v", s)
	}
}

func TestIgnored(t *testing.T) {
	t.Parallel()
	s := open(t, repo(t))
	for name, want := range map[string]bool{"debug.log": true, "logs/x.log": true, "a.txt": false, "new.txt": false} {
		if got, err := s.Ignored(context.Background(), name); err != nil || got != want {
			t.Errorf("Ignored(%s) = %v, %v; want %v", name, got, err, want)
		}
	}
}

// TestExcludedFolders: the files of a run's own output folder, tracked or
// not, change neither the state nor the list of files; a folder outside
// the work tree, or its top, excludes nothing.
func TestExcludedFolders(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	out := filepath.Join(dir, "debate-output")
	clean, err := Open(context.Background(), dir, out, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, out, "run.json", "{}\n")
	write(t, out, "sub/summary.md", "# x\n")
	s, err := Open(context.Background(), filepath.Join(dir, "."), out)
	if err != nil {
		t.Fatal(err)
	}
	if s.Key() != clean.Key() {
		t.Errorf("the output folder changed the state: %+v, was %+v", s, clean)
	}
	files, err := s.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "a.txt"}; !slices.Equal(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
	for _, exclude := range []string{"", dir, t.TempDir()} {
		if s := open(t, dir); s.Dirty == "" {
			t.Fatalf("without exclusions the output folder left the state clean")
		}
		s, err := Open(context.Background(), dir, exclude)
		if err != nil {
			t.Fatal(err)
		}
		if s.Dirty == "" {
			t.Errorf("excluding %q hid the output folder's files", exclude)
		}
	}
}
