package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// indexRepo is a repository with nested folders, a long path and enough
// entries that version 4's prefix compression matters.
func indexRepo(t *testing.T, initArgs ...string) string {
	t.Helper()
	gittest.Require(t)
	root := t.TempDir()
	gittest.Git(t, root, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	for i := range 40 {
		gittest.Write(t, root, filepath.Join("src", "pkg"+string(rune('a'+i%7)), "file"+strings.Repeat("x", i)+".go"), "package p\n")
	}
	gittest.Write(t, root, filepath.Join("deep", strings.Repeat("long-folder-name/", 12), "leaf.txt"), "leaf\n")
	gittest.Write(t, root, "README.md", "# r\n")
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-q", "-m", "initial")
	return root
}

func TestCachedTreeMatchesWriteTree(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		valid bool // the root cache tree is valid, so no git is needed
	}{
		{name: "version 2", setup: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--index-version", "2")
			gittest.Git(t, root, "write-tree")
		}, valid: true},
		{name: "version 3 with extended flags", setup: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--index-version", "3")
			gittest.Git(t, root, "update-index", "--skip-worktree", "README.md") // an extended flag
			gittest.Git(t, root, "write-tree")
		}, valid: true},
		{name: "version 4", setup: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--index-version", "4")
			gittest.Git(t, root, "write-tree")
		}, valid: true},
		{name: "a path of 0xFFF bytes or more (version 2)", setup: func(t *testing.T, root string) {
			addLongPaths(t, root)
			gittest.Git(t, root, "update-index", "--index-version", "2")
			gittest.Git(t, root, "write-tree")
		}, valid: true},
		{name: "a path of 0xFFF bytes or more (version 4)", setup: func(t *testing.T, root string) {
			addLongPaths(t, root)
			gittest.Git(t, root, "update-index", "--index-version", "4")
			gittest.Git(t, root, "write-tree")
		}, valid: true},
		{name: "intent-to-add leaves the root invalid", setup: func(t *testing.T, root string) {
			gittest.Write(t, root, "new.txt", "new\n")
			gittest.Git(t, root, "add", "-N", "new.txt")
			gittest.Git(t, root, "write-tree")
		}, valid: false},
		{name: "staged change invalidates the root", setup: func(t *testing.T, root string) {
			gittest.Write(t, root, "README.md", "# changed\n")
			gittest.Git(t, root, "add", "README.md")
		}, valid: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := indexRepo(t)
			tc.setup(t, root)
			index := filepath.Join(root, ".git", "index")
			got, ok := cachedTree(index)
			if ok != tc.valid {
				t.Fatalf("ok = %v, want %v", ok, tc.valid)
			}
			want := gittest.Git(t, root, "write-tree") // also refreshes the cache tree
			if ok && got != want {
				t.Fatalf("cached tree %s, git write-tree %s", got, want)
			}
			if got, ok := cachedTree(index); ok && got != want {
				t.Errorf("after write-tree: %s, want %s", got, want)
			}
		})
	}
}

// addLongPaths stages paths whose length does not fit the 12 bits the
// index keeps for it (0xFFF and more), and one just under, with no file in
// the work tree (no file system takes such a path in one go).
func addLongPaths(t *testing.T, root string) {
	t.Helper()
	blob := gittest.Git(t, root, "hash-object", "-w", "README.md")
	for _, n := range []int{0xffe, 0xfff, 0x1000, 0x1234} {
		p := strings.Repeat("d/", (n-5)/2) + "x.txt"
		p = strings.Repeat("e", n-len(p)) + p
		if len(p) != n {
			t.Fatalf("path of %d bytes, want %d", len(p), n)
		}
		gittest.Git(t, root, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
	}
}

// TestCachedTreeRefusesDamage: a cut or garbled index answers "ask git",
// never a wrong tree, and never panics.
func TestCachedTreeRefusesDamage(t *testing.T) {
	root := indexRepo(t)
	addLongPaths(t, root)
	gittest.Git(t, root, "write-tree")
	index := filepath.Join(root, ".git", "index")
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	want := gittest.Git(t, root, "write-tree")
	if got, ok := cachedTree(index); !ok || got != want {
		t.Fatalf("intact index: %q %v, want %s", got, ok, want)
	}
	bad := filepath.Join(t.TempDir(), "index")
	for _, cut := range []int{0, 11, 12, 40, 100, len(b) / 2, len(b) - 21} {
		if err := os.WriteFile(bad, b[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := cachedTree(bad); ok {
			t.Errorf("index cut at %d of %d bytes: tree %s", cut, len(b), got)
		}
	}
	// Every entry's flags claim a longer name than its NUL says.
	for i := 12; i+62 <= len(b) && i < 4096; i += 8 {
		g := append([]byte(nil), b...)
		g[i] ^= 0x0f
		if err := os.WriteFile(bad, g, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := cachedTree(bad); ok && got != want {
			t.Errorf("byte %d garbled: tree %s, want %s or none", i, got, want)
		}
	}
}

// TestCommitRefreshesCacheTree checks the premise: by the time git runs
// pre-commit, the index it names (GIT_INDEX_FILE for -a) has a valid cache
// tree equal to the tree the commit records. git commit PATHS builds its
// temporary index without one: the hook falls back to git write-tree.
func TestCommitRefreshesCacheTree(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		cached bool
	}{
		{"plain", []string{"commit", "-q", "-m", "c"}, true},
		{"all", []string{"commit", "-q", "-a", "-m", "c"}, true},
		{"paths", []string{"commit", "-q", "-m", "c", "README.md"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := indexRepo(t)
			saved := filepath.Join(t.TempDir(), "index")
			hook := "#!/bin/sh\ncp \"${GIT_INDEX_FILE:-.git/index}\" " + saved + "\n"
			gittest.Write(t, root, filepath.Join(".git", "hooks", "pre-commit"), hook)
			if err := os.Chmod(filepath.Join(root, ".git", "hooks", "pre-commit"), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Write(t, root, "README.md", "# changed\n")
			gittest.Write(t, root, filepath.Join("src", "pkga", "filex.go"), "package changed\n")
			gittest.Git(t, root, "add", filepath.Join("src", "pkga", "filex.go"))
			gittest.Git(t, root, tc.args...)
			got, ok := cachedTree(saved)
			want := gittest.Git(t, root, "rev-parse", "HEAD^{tree}")
			if ok != tc.cached || ok && got != want {
				t.Errorf("cache tree at pre-commit %q (ok %v, want %v), commit tree %s", got, ok, tc.cached, want)
			}
		})
	}
}

func TestSHA256RepositoryFallsBack(t *testing.T) {
	root := indexRepo(t, "--object-format=sha256")
	if !sha256Repo(filepath.Join(root, ".git")) {
		t.Fatal("a SHA-256 repository was not recognised")
	}
	if sha256Repo(filepath.Join(indexRepo(t), ".git")) {
		t.Fatal("a SHA-1 repository was taken for SHA-256")
	}
	if out, err := run(context.Background(), root, "write-tree"); err != nil || len(strings.TrimSpace(string(out))) != 64 {
		t.Fatalf("git write-tree in a SHA-256 repository: %q %v", out, err)
	}
}

func TestGitVarint(t *testing.T) {
	tests := []struct {
		in   []byte
		want uint64
		k    int
	}{
		{[]byte{0x05}, 5, 1},
		{[]byte{0x7f}, 127, 1},
		{[]byte{0x80, 0x00}, 128, 2}, // git's encoding: 1<<7 + 0 after the +1
		{[]byte{0x80, 0x7f}, 255, 2},
		{[]byte{0x81, 0x00}, 256, 2},
		{[]byte{0x80}, 0, 0}, // truncated
		{nil, 0, 0},
	}
	for _, tc := range tests {
		v, k := gitVarint(tc.in)
		if v != tc.want || k != tc.k {
			t.Errorf("gitVarint(%x) = %d, %d; want %d, %d", tc.in, v, k, tc.want, tc.k)
		}
	}
}
