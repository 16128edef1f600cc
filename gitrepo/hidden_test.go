package gitrepo

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestHiddenFilesFollowsGit: for each way a change can be hidden from
// `git status` (and the honest repositories that hide nothing), HiddenFiles
// reports what it should, and the in-process index reader reads the same
// flagged entries as `git ls-files -v -s`, or declines (split and sparse
// indexes) so git is asked.
func TestHiddenFilesFollowsGit(t *testing.T) {
	gittest.Require(t)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	ctx := context.Background()
	files := map[string]string{"SESSION-PROTOCOL.md": "# P\n", "sessiongate.yaml": "protect: true\n", "src/a.go": "package a\n", "docs/b.md": "b\n"}
	cases := []struct {
		name   string
		setup  func(t *testing.T, root string)
		want   map[string]string // path -> a word of how it is hidden
		inProc bool              // the in-process reader takes this index
	}{
		{"honest: nothing flagged", func(t *testing.T, root string) {}, nil, true},
		{"honest: an edit git status shows", func(t *testing.T, root string) {
			gittest.Write(t, root, "SESSION-PROTOCOL.md", "# P edited\n")
		}, nil, true},
		{"honest: skip-worktree on an unchanged file", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "sessiongate.yaml")
		}, nil, true},
		{"honest: Git LFS's own filter", func(t *testing.T, root string) {
			gittest.Config(t, root, "filter.lfs.clean", "git-lfs clean -- %f")
			gittest.Write(t, root, ".gitattributes", "*.md filter=lfs\n")
		}, nil, true},
		// Round 17: Git LFS's driver line in .git/config with a git-lfs of
		// the agent's first on PATH was trusted by name (failed before).
		{"Git LFS's driver line, a git-lfs of the agent's on PATH", func(t *testing.T, root string) {
			lfsOnPath(t, "#!/bin/sh\nsed s/true/false/\n")
			gittest.Config(t, root, "filter.lfs.clean", "git-lfs clean -- %f")
			gittest.Write(t, root, ".git/info/attributes", "sessiongate.yaml filter=lfs\n")
		}, map[string]string{"sessiongate.yaml": "not Git LFS"}, true},
		{"honest: a working Git LFS stores pointers", func(t *testing.T, root string) {
			lfsOnPath(t, lfsPointerShim)
			gittest.Config(t, root, "filter.lfs.clean", "git-lfs clean -- %f")
			gittest.Write(t, root, ".gitattributes", "*.md filter=lfs\n")
		}, nil, true},
		{"skip-worktree hides an edit", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "sessiongate.yaml")
			gittest.Write(t, root, "sessiongate.yaml", "protect: false\n")
		}, map[string]string{"sessiongate.yaml": "skip-worktree"}, true},
		{"assume-unchanged hides an edit", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--assume-unchanged", "SESSION-PROTOCOL.md")
			gittest.Write(t, root, "SESSION-PROTOCOL.md", "# weaker\n")
		}, map[string]string{"SESSION-PROTOCOL.md": "assume-unchanged"}, true},
		{"both flags", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--assume-unchanged", "SESSION-PROTOCOL.md")
			gittest.Git(t, root, "update-index", "--skip-worktree", "SESSION-PROTOCOL.md")
			gittest.Write(t, root, "SESSION-PROTOCOL.md", "# weaker\n")
		}, map[string]string{"SESSION-PROTOCOL.md": "skip-worktree"}, true},
		{"index version 4 (path compression)", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--index-version", "4")
			gittest.Git(t, root, "update-index", "--assume-unchanged", "src/a.go")
			gittest.Git(t, root, "update-index", "--skip-worktree", "docs/b.md")
			gittest.Write(t, root, "src/a.go", "package b\n")
			gittest.Write(t, root, "docs/b.md", "c\n")
		}, map[string]string{"src/a.go": "assume-unchanged", "docs/b.md": "skip-worktree"}, true},
		{"index version 2 with assume-unchanged", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--index-version", "2")
			gittest.Git(t, root, "update-index", "--assume-unchanged", "src/a.go")
			gittest.Write(t, root, "src/a.go", "package b\n")
		}, map[string]string{"src/a.go": "assume-unchanged"}, true},
		{"split index: git is asked", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--split-index")
			gittest.Git(t, root, "update-index", "--skip-worktree", "sessiongate.yaml")
			gittest.Write(t, root, "sessiongate.yaml", "protect: false\n")
		}, map[string]string{"sessiongate.yaml": "skip-worktree"}, false},
		{"honest: sparse checkout leaves files out", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/SESSION-PROTOCOL.md", "/sessiongate.yaml")
		}, nil, true},
		{"honest: a sparse index (folders for their files): git is asked", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "--sparse-index", "src")
		}, nil, false},
		{"clean filter configured after the files", func(t *testing.T, root string) {
			gittest.Config(t, root, "filter.x.clean", "sed s/true/false/")
			gittest.Write(t, root, ".gitattributes", "sessiongate.yaml filter=x\n")
		}, map[string]string{"sessiongate.yaml": "clean filter"}, true},
		// GIT_CONFIG is read by `git config` alone: the commit still runs
		// the filter, and `git config --get-regexp` listed none.
		{"clean filter, GIT_CONFIG=/dev/null on the commit", func(t *testing.T, root string) {
			gittest.Config(t, root, "filter.x.clean", "sed s/true/false/")
			gittest.Write(t, root, ".gitattributes", "sessiongate.yaml filter=x\n")
			t.Setenv("GIT_CONFIG", os.DevNull)
		}, map[string]string{"sessiongate.yaml": "clean filter"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, files)
			c.setup(t, root)
			r, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.HiddenFiles(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("HiddenFiles = %v, want %v", got, c.want)
			}
			for p, how := range c.want {
				if !strings.Contains(got[p], how) {
					t.Errorf("%s: %q, want it to say %q", p, got[p], how)
				}
			}
			fromGit, err := r.lsFlagged(ctx)
			if err != nil {
				t.Fatal(err)
			}
			inProc, ok := r.indexFlagged(context.Background())
			if ok != c.inProc {
				t.Fatalf("in-process reader took the index: %v, want %v", ok, c.inProc)
			}
			if ok && !maps.Equal(inProc, fromGit) {
				t.Errorf("in process %v, git ls-files %v", inProc, fromGit)
			}
		})
	}
}

// TestCleanFiltersCacheFollowsConfig: a long-lived Repo answers
// cleanFilters after each way the filter drivers can change (git config,
// an append in place, a global config, an include, the environment)
// exactly as git does, and from its cache only when nothing changed: an
// agent that configures a clean filter between two gate calls is seen on
// the next one.
func TestCleanFiltersCacheFollowsConfig(t *testing.T) {
	gittest.Require(t)
	if stampLen != 40 {
		t.Skip("the config cache needs a change time in the stamp (Linux)")
	}
	old := racyWindow
	racyWindow = 0 // the racy window has its own case below
	t.Cleanup(func() { racyWindow = old })
	global := filepath.Join(t.TempDir(), "gitconfig")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	ctx := context.Background()
	root := gittest.New(t, nil)
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	appendTo := func(path, s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	steps := []struct {
		name string
		do   func()
		hit  bool
	}{
		{"first: no filter mentioned, git not asked", func() {}, true},
		{"unchanged", func() {}, true},
		{"git config adds a driver", func() { gittest.Config(t, root, "filter.x.clean", "cat") }, false},
		{"unchanged again", func() {}, true},
		{"a driver appended in place", func() { appendTo(filepath.Join(root, ".git", "config"), "[filter \"y\"]\n\tprocess = cat\n") }, false},
		{"a global config appears", func() { appendTo(global, "[filter \"z\"]\n\tclean = cat\n") }, false},
		{"unchanged after the global", func() {}, true},
		{"an include: never kept", func() {
			inc := filepath.Join(t.TempDir(), "inc")
			appendTo(inc, "")
			appendTo(global, "[include]\n\tpath = "+inc+"\n")
		}, false},
		{"still not kept under an include", func() {}, false},
		{"the include gone", func() { os.WriteFile(global, []byte("[filter \"z\"]\n\tclean = cat\n"), 0o644) }, false},
		{"kept again", func() {}, true},
		{"the environment adds one", func() {
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "filter.w.clean")
			t.Setenv("GIT_CONFIG_VALUE_0", "cat")
		}, false},
		{"the repository's drivers removed", func() { gittest.Git(t, root, "config", "--remove-section", "filter.x") }, false},
		// No mention anywhere: answered from reading the files, then from
		// their stamps alone until one moves.
		{"no driver left: no mention", func() {
			t.Setenv("GIT_CONFIG_COUNT", "")
			gittest.Git(t, root, "config", "--remove-section", "filter.y")
			os.WriteFile(global, []byte("[user]\n\tname = x\n"), 0o644)
		}, true},
		{"no mention, unchanged: from the stamps", func() {}, true},
		{"a driver appended again", func() { appendTo(global, "[filter \"v\"]\n\tclean = cat\n") }, false},
	}
	for _, s := range steps {
		s.do()
		before := r.filterCache.hits + r.filterCache.unmentioned
		got, err := r.cleanFilters(ctx)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		want, err := r.cleanFiltersFromGit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: cleanFilters = %v, git says %v", s.name, got, want)
		}
		if hit := r.filterCache.hits+r.filterCache.unmentioned > before; hit != s.hit {
			t.Errorf("%s: answered without git (cache or no mention) %v, want %v", s.name, hit, s.hit)
		}
	}
	// A config younger than the racy window is never kept.
	racyWindow = 1 << 62
	fresh, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := fresh.cleanFilters(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if fresh.filterCache.hits != 0 {
		t.Errorf("a config within the racy window was answered from the cache %d times", fresh.filterCache.hits)
	}
}

// TestCommittedCacheFollowsHead: CommittedSHA256 keeps its answers by
// commit and reads a new HEAD's content after a commit or a reset.
func TestCommittedCacheFollowsHead(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"sessiongate.yaml", "SESSION-PROTOCOL.md"}
	check := func(step string) {
		t.Helper()
		for range 2 { // the second from the cache
			got, err := r.CommittedSHA256(ctx, paths)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.CommittedSHA256(ctx, paths)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, want) {
				t.Fatalf("%s: %v, a fresh Repo says %v", step, got, want)
			}
		}
	}
	check("first")
	first := gittest.Git(t, root, "rev-parse", "HEAD")
	gittest.Commit(t, root, "weaker", map[string]string{"sessiongate.yaml": "protect: false\n", "SESSION-PROTOCOL.md": "# P\n"})
	check("after a commit")
	gittest.Git(t, root, "reset", "-q", "--hard", first)
	check("after a reset")
}

// FuzzParseIndexFlagged: any bytes are read without a panic, and a
// declined index is never half-read.
func FuzzParseIndexFlagged(f *testing.F) {
	if _, err := exec.LookPath("git"); err == nil {
		root := f.TempDir()
		for _, args := range [][]string{{"init", "-q"}, {"update-index", "--add", "--cacheinfo", "100644,e69de29bb2d1d6434b8b29ae775a2cb4c7e2bc8d,a.txt"}, {"update-index", "--assume-unchanged", "a.txt"}} {
			if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
				f.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		if b, err := os.ReadFile(filepath.Join(root, ".git", "index")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, ok := parseIndexFlagged(b); !ok && m != nil {
			t.Fatal("a declined index returned entries")
		}
	})
}

// TestIndexFlaggedCacheFollowsIndex: a long-lived Repo's reading of the
// flagged entries follows every change of the index (a flag set or
// cleared by git, an index written back in place with its old mtime) and
// is reused only while the index is untouched.
func TestIndexFlaggedCacheFollowsIndex(t *testing.T) {
	gittest.Require(t)
	if stampLen != 40 {
		t.Skip("the index cache needs a change time in the stamp (Linux)")
	}
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n", "a.go": "package a\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(root, ".git", "index")
	var saved []byte
	var savedInfo os.FileInfo
	steps := []struct {
		name string
		do   func()
		hit  bool
	}{
		{"first", func() {}, false},
		{"unchanged", func() {}, true},
		{"save the index", func() {
			saved, _ = os.ReadFile(index)
			savedInfo, _ = os.Stat(index)
		}, true},
		{"skip-worktree set", func() { gittest.Git(t, root, "update-index", "--skip-worktree", "sessiongate.yaml") }, false},
		{"unchanged, flagged", func() {}, true},
		{"flag cleared by writing the old index back in place, its mtime restored", func() {
			if err := os.WriteFile(index, saved, 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(index, savedInfo.ModTime(), savedInfo.ModTime())
		}, false},
		{"assume-unchanged set", func() { gittest.Git(t, root, "update-index", "--assume-unchanged", "a.go") }, false},
	}
	for _, s := range steps {
		s.do()
		before := r.flaggedCache.hits
		got, ok := r.indexFlagged(context.Background())
		if !ok {
			t.Fatalf("%s: the reader declined a plain index", s.name)
		}
		want, err := r.lsFlagged(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: %v, git ls-files says %v", s.name, got, want)
		}
		if hit := r.flaggedCache.hits > before; hit != s.hit {
			t.Errorf("%s: answered from the cache %v, want %v", s.name, hit, s.hit)
		}
	}
}

// lfsPointerShim stands in for git-lfs's clean (not installed everywhere):
// it prints the pointer of its input, as Git LFS does.
const lfsPointerShim = `#!/bin/sh
f=$(mktemp)
cat > "$f"
oid=$(sha256sum "$f" | cut -d' ' -f1)
size=$(wc -c < "$f" | tr -d ' ')
rm -f "$f"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n' "$oid" "$size"
`

// lfsOnPath puts a git-lfs with body first on PATH for the test.
func lfsOnPath(t *testing.T, body string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git-lfs"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}
