package gitrepo

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// markRepo is indexRepo with ignore rules of every kind git knows: a
// nested .gitignore, negation, anchored and folder-only patterns, "**",
// and info/exclude.
func markRepo(t *testing.T, initArgs ...string) (string, *Repo) {
	t.Helper()
	root := indexRepo(t, initArgs...)
	gittest.Write(t, root, ".gitignore", "*.log\n!keep.log\n/build/\ntmp*/\n**/gen/*.go\n# a comment\n\n")
	gittest.Write(t, root, filepath.Join("src", ".gitignore"), "*.out\n/local.txt\n")
	gittest.Write(t, root, filepath.Join(".git", "info", "exclude"), "secret.txt\n")
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-q", "-m", "ignores")
	r, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return root, r
}

// untracked is what the in-process walk takes for untracked files.
func untracked(t *testing.T, r *Repo) []string {
	t.Helper()
	h := sha256.New()
	var list []string
	var werr error
	_, ok := r.hashIndex(h, func(tracked map[string]bool) {
		w := &untrackedWalk{root: r.root, h: sha256.New(), tracked: tracked, list: &list}
		if b, err := os.ReadFile(filepath.Join(r.commonDir, "info", "exclude")); err == nil {
			w.base, _ = ignorePatterns(b, nil)
		}
		werr = w.dir("", nil, w.base)
	})
	if !ok || werr != nil {
		t.Fatalf("index not read (%v)", werr)
	}
	sort.Strings(list)
	return list
}

// TestUntrackedMatchesGit: the walk finds exactly the untracked files git
// status --untracked-files=all lists, whatever ignores what.
func TestUntrackedMatchesGit(t *testing.T) {
	root, r := markRepo(t)
	for _, p := range []string{
		"new.txt", "a.log", "keep.log", "build/x.o", "sub/build/y.txt", "tmp1/a", "tmpfile",
		"src/gen/z.go", "src/gen/z.txt", "src/pkga/gen/q.go", "src/b.out", "src/local.txt", "src/pkga/local.txt",
		"secret.txt", "src/secret.txt", "fresh/dir/deep.txt", "src/pkgb/extra.go", "only-ignored/x.log",
		"name with space.txt",
	} {
		gittest.Write(t, root, p, "x\n")
	}
	gittest.Git(t, root, "init", "-q", filepath.Join(root, "nested"))
	var want []string
	out := gittest.Git(t, root, "status", "--porcelain=v2", "-z", "--untracked-files=all")
	for _, rec := range strings.Split(out, "\x00") {
		if p, ok := strings.CutPrefix(rec, "? "); ok {
			want = append(want, p)
		}
	}
	sort.Strings(want)
	if got := untracked(t, r); !reflect.DeepEqual(got, want) {
		t.Errorf("untracked files:\n got %q\nwant %q", got, want)
	}
}

// TestWorktreeMark: what moves the mark and what does not.
func TestWorktreeMark(t *testing.T) {
	root, r := markRepo(t)
	mark := func() string {
		t.Helper()
		st, ok := r.WorktreeMark()
		if !ok {
			t.Fatal("WorktreeMark fell back to git")
		}
		if want := gittest.Git(t, root, "rev-parse", "HEAD"); st.Head != want {
			t.Fatalf("head %s, want %s", st.Head, want)
		}
		return st.Mark
	}
	steps := []struct {
		name  string
		do    func()
		moves bool
	}{
		{"nothing", func() {}, false},
		{"git status (may refresh the index)", func() { gittest.Git(t, root, "status") }, false},
		{"an ignored file", func() { gittest.Write(t, root, "debug.log", "x\n") }, false},
		{"a file in an ignored folder", func() { gittest.Write(t, root, "build/out.bin", "x\n") }, false},
		{"a file only info/exclude ignores", func() { gittest.Write(t, root, "secret.txt", "x\n") }, false},
		{"a file a nested .gitignore ignores", func() { gittest.Write(t, root, "src/run.out", "x\n") }, false},
		{"an empty folder", func() { os.MkdirAll(filepath.Join(root, "empty"), 0o755) }, false},
		{"an edit of a tracked file, same size", func() { gittest.Write(t, root, "README.md", "# R\n") }, true},
		{"nothing after it", func() {}, false},
		{"the same file edited again", func() { gittest.Write(t, root, "README.md", "# Q\n") }, true},
		{"git add", func() { gittest.Git(t, root, "add", "README.md") }, true},
		{"commit", func() { gittest.Git(t, root, "commit", "-q", "-m", "readme") }, true},
		{"a new untracked file", func() { gittest.Write(t, root, "notes/a.md", "a\n") }, true},
		{"that file edited", func() { gittest.Write(t, root, "notes/a.md", "b\n") }, true},
		{"a file a negation re-includes", func() { gittest.Write(t, root, "keep.log", "k\n") }, true},
		{"a tracked file deleted", func() { os.Remove(filepath.Join(root, "src", "pkga", "file.go")) }, true},
		{"an untracked file deleted", func() { os.Remove(filepath.Join(root, "notes", "a.md")) }, true},
		{"a file renamed", func() {
			os.Rename(filepath.Join(root, "src", "pkgb", "filex.go"), filepath.Join(root, "src", "pkgb", "filey2.go"))
		}, true},
		{"a mode change", func() { os.Chmod(filepath.Join(root, "README.md"), 0o755) }, true},
		{"git stash -u", func() { gittest.Git(t, root, "stash", "-q", "-u") }, true},
	}
	prev := mark()
	for _, s := range steps {
		s.do()
		m := mark()
		if moved := m != prev; moved != s.moves {
			t.Errorf("%s: mark moved=%v, want %v", s.name, moved, s.moves)
		}
		prev = m
	}
}

// TestWorktreeMarkIndexVersions: an index written as version 2, 3 (an
// intent-to-add entry needs extended flags) and 4 (prefix-compressed
// paths) lists the same files, and each falls back to git where it must.
func TestWorktreeMarkIndexVersions(t *testing.T) {
	root, r := markRepo(t)
	gittest.Write(t, root, "intent.txt", "i\n")
	gittest.Git(t, root, "add", "-N", "intent.txt")
	gittest.Write(t, root, "src/pkgc/new.go", "package p\n")
	var first []string
	for _, v := range []string{"2", "3", "4"} {
		gittest.Git(t, root, "update-index", "--index-version", v)
		if _, ok := r.WorktreeMark(); !ok {
			t.Fatalf("index version %s: fell back to git", v)
		}
		got := untracked(t, r)
		if first == nil {
			first = got
		} else if !reflect.DeepEqual(got, first) {
			t.Errorf("index version %s: untracked %q, version 2 %q", v, got, first)
		}
	}
	if !reflect.DeepEqual(first, []string{"src/pkgc/new.go"}) {
		t.Errorf("untracked %q, want only src/pkgc/new.go", first)
	}
	gittest.Git(t, root, "config", "core.splitIndex", "true")
	gittest.Git(t, root, "update-index", "--split-index")
	if _, ok := r.WorktreeMark(); ok {
		t.Error("a split index was read in process")
	}
}

func TestWorktreeMarkFallsBack(t *testing.T) {
	gittest.Require(t)
	t.Run("submodule", func(t *testing.T) {
		sub := indexRepo(t)
		root, r := markRepo(t)
		gittest.Git(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib")
		if _, ok := r.WorktreeMark(); ok {
			t.Error("a repository with a submodule was read in process")
		}
	})
	t.Run("sha256", func(t *testing.T) {
		root := indexRepo(t, "--object-format=sha256")
		r, err := Open(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.WorktreeMark(); ok {
			t.Error("a SHA-256 repository was read in process")
		}
		m, head, dirty, err := r.WorkStatus(context.Background())
		if err != nil || m == "" || len(head) != 64 || dirty {
			t.Errorf("WorkStatus: %q %q %v %v", m, head, dirty, err)
		}
	})
}

// TestWorktreeModified: an edit of a tracked file is seen as modified
// without git; a touch that changes no byte is not; and where attributes
// or line-ending settings could make the bytes differ, git is asked.
func TestWorktreeModified(t *testing.T) {
	root, r := markRepo(t)
	modified := func() bool {
		t.Helper()
		st, ok := r.WorktreeMark()
		if !ok {
			t.Fatal("fell back to git")
		}
		return st.Modified
	}
	if modified() {
		t.Fatal("a clean worktree is modified")
	}
	readme := filepath.Join(root, "README.md")
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(readme, later, later)
	if modified() {
		t.Error("a touched, unchanged file counts as modified")
	}
	gittest.Write(t, root, "README.md", "# changed\n")
	if !modified() {
		t.Error("an edited tracked file is not modified")
	}
	gittest.Git(t, root, "config", "core.autocrlf", "true")
	if modified() {
		t.Error("with core.autocrlf set, the bytes were trusted")
	}
	gittest.Git(t, root, "config", "--unset", "core.autocrlf")
	// git reads a .gitattributes it does not track, ignored or not.
	gittest.Write(t, root, "src/.gitattributes", "*.go text eol=crlf\n")
	if modified() {
		t.Error("with an untracked .gitattributes, the bytes were trusted")
	}
	exclude := filepath.Join(root, ".git", "info", "exclude")
	if err := os.WriteFile(exclude, []byte(".gitattributes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if modified() {
		t.Error("with an ignored .gitattributes, the bytes were trusted")
	}
	os.Remove(exclude)
	gittest.Git(t, root, "add", "src/.gitattributes")
	if modified() {
		t.Error("with a tracked .gitattributes, the bytes were trusted")
	}
}

// BenchmarkWorktreeMark reads a 1,000-file worktree (BENCH_FILES for
// another size) in process, beside the git status it replaces, in the same
// run.
func BenchmarkWorktreeMark(b *testing.B) {
	gittest.Require(b)
	root := b.TempDir()
	gittest.Git(b, root, "init", "-q", "-b", "main")
	dirs := 20 // BENCH_FILES=20000 for 400 folders of 50
	if n, err := strconv.Atoi(os.Getenv("BENCH_FILES")); err == nil && n >= 50 {
		dirs = n / 50
	}
	for d := range dirs {
		for f := range 50 {
			gittest.Write(b, root, filepath.Join("src", "d"+strconv.Itoa(d), "f"+strconv.Itoa(f)+".txt"), "x\n")
		}
	}
	gittest.Git(b, root, "add", "-A")
	gittest.Git(b, root, "commit", "-q", "-m", "files")
	// Past the racy second, or every git status re-reads every file.
	time.Sleep(time.Second)
	gittest.Git(b, root, "update-index", "-q", "--refresh")
	r, err := Open(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("in-process", func(b *testing.B) {
		for b.Loop() {
			if _, ok := r.WorktreeMark(); !ok {
				b.Fatal("fell back")
			}
		}
	})
	b.Run("git-status", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := r.WorkStatus(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
