package gitrepo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestIndexBlobs reads blob ids from real index files of every version and
// checks them against `git ls-files -s` and git's own blob hashing.
func TestIndexBlobs(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q")
			files := map[string]string{"sessiongate.yaml": "a: 1\n", ".claude/settings.json": "{}\n", "deep/x/y/z.txt": "z\n", "deep/x/y/zz.txt": "zz\n"}
			for p, body := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
				os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "update-index", "--index-version", version)
			want := map[string]string{"sessiongate.yaml": "sessiongate.yaml", ".claude/settings.json": ".claude/settings.json", "deep/x/y/zz.txt": "deep/x/y/zz.txt", "absent.md": "absent.md"}
			got, _, ok := indexBlobs(filepath.Join(dir, ".git", "index"), want)
			if !ok {
				t.Fatal("index not read")
			}
			for _, p := range want {
				ls := strings.Fields(gittest.Git(t, dir, "ls-files", "-s", "--", p))
				exp := ""
				if len(ls) > 1 {
					exp = ls[1]
				}
				if got[p] != exp {
					t.Errorf("%s: blob %q, git says %q", p, got[p], exp)
				}
				if body, ok := files[p]; ok && gitBlobID([]byte(body)) != exp {
					t.Errorf("%s: gitBlobID %s, git says %s", p, gitBlobID([]byte(body)), exp)
				}
			}
			// Another case of a wanted path: ask git.
			os.WriteFile(filepath.Join(dir, "Absent.md"), []byte("b\n"), 0o644)
			gittest.Git(t, dir, "add", "Absent.md")
			if _, _, ok := indexBlobs(filepath.Join(dir, ".git", "index"), want); ok {
				t.Error("a wanted path in another case was answered from the index")
			}
		})
	}
}

// TestStagedFromIndexWithGlobs: with a glob among the protected patterns
// the index answers (no git process) only when every file under the
// glob's folder is the same in the index and the work tree; then every
// staged change git reports is already in the work tree, where the
// protected-file check hashes it. Each state a lazy agent could leave is
// compared with git.
func TestStagedFromIndexWithGlobs(t *testing.T) {
	gittest.Require(t)
	patterns := []string{"sessiongate.yaml", ".github/hooks/*.json"}
	cases := []struct {
		name    string
		do      func(t *testing.T, root string)
		fromIdx bool // the index may answer
	}{
		{"clean", func(*testing.T, string) {}, true},
		{"new hook file, not staged", func(t *testing.T, root string) { write(t, root, ".github/hooks/b.json", "{}\n") }, false},
		{"new hook file, staged", func(t *testing.T, root string) {
			write(t, root, ".github/hooks/b.json", "{}\n")
			gittest.Git(t, root, "add", ".github/hooks/b.json")
		}, true},
		{"hook edited, staged, then the work tree put back", func(t *testing.T, root string) {
			write(t, root, ".github/hooks/a.json", "{\"off\":true}\n")
			gittest.Git(t, root, "add", ".github/hooks/a.json")
			write(t, root, ".github/hooks/a.json", "{}\n")
		}, false},
		{"hook deleted from the index only", func(t *testing.T, root string) {
			gittest.Git(t, root, "rm", "-q", "--cached", ".github/hooks/a.json")
		}, false},
		{"hook folder in another case", func(t *testing.T, root string) {
			write(t, root, ".github/Hooks/c.json", "{}\n")
			gittest.Git(t, root, "add", ".github/Hooks/c.json")
		}, false},
		{"a link under the hook folder", func(t *testing.T, root string) {
			if err := os.Symlink("a.json", filepath.Join(root, ".github/hooks/l.json")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"unprotected file staged", func(t *testing.T, root string) {
			write(t, root, "code.go", "package y\n")
			gittest.Git(t, root, "add", "code.go")
		}, true},
	}
	// A hook names its index (SetIndexFile); the MCP server and serve read
	// the repository's own (ownIndexPath): the same answers.
	for _, hook := range []bool{true, false} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/hook=%v", c.name, hook), func(t *testing.T) {
				root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n", ".github/hooks/a.json": "{}\n", "code.go": "package x\n"})
				c.do(t, root)
				r := &Repo{root: root, commonDir: filepath.Join(root, ".git"), gitDir: filepath.Join(root, ".git")}
				if hook {
					r.SetIndexFile(filepath.Join(root, ".git", "index"))
				}
				stagedFromIndexAgreesWithGit(t, r, patterns, c.fromIdx)
			})
		}
	}
}

// TestStagedFromOwnIndexSplitOrSparse: without SetIndexFile the index is
// answered in process only when indexFlagged takes it whole: a split index
// (core.splitIndex, which an agent can set) keeps its entries in a second
// file and is asked of git, with the same answer.
func TestStagedFromOwnIndexSplitOrSparse(t *testing.T) {
	gittest.Require(t)
	patterns := []string{"sessiongate.yaml", ".github/hooks/*.json"}
	root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n", ".github/hooks/a.json": "{}\n", "code.go": "package x\n"})
	r := &Repo{root: root, commonDir: filepath.Join(root, ".git"), gitDir: filepath.Join(root, ".git")}
	stagedFromIndexAgreesWithGit(t, r, patterns, true)
	gittest.Git(t, root, "update-index", "--split-index")
	write(t, root, "sessiongate.yaml", "protect: false\n")
	gittest.Git(t, root, "add", "sessiongate.yaml")
	write(t, root, "sessiongate.yaml", "protect: true\n")
	r = &Repo{root: root, commonDir: r.commonDir, gitDir: r.gitDir}
	stagedFromIndexAgreesWithGit(t, r, patterns, false)
	git, err := r.StagedProtected(context.Background(), patterns)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := git["sessiongate.yaml"]; !ok {
		t.Errorf("a staged config edit behind a split index went unreported: %v", git)
	}
}

// stagedFromIndexAgreesWithGit checks whether the index answers for r
// (fromIdx), and that an answer hides no staged change git reports.
func stagedFromIndexAgreesWithGit(t *testing.T, r *Repo, patterns []string, fromIdx bool) {
	t.Helper()
	root := r.root
	{
		{
			_, ok := r.stagedProtectedFromIndex(context.Background(), patterns)
			if ok != fromIdx {
				t.Errorf("answered from the index: %v, want %v", ok, fromIdx)
			}
			if !ok {
				return
			}
			git, err := (&Repo{root: root, commonDir: r.commonDir, gitDir: r.gitDir}).stagedProtectedFromGit(context.Background(), patterns, stagedKey{})
			if err != nil {
				t.Fatal(err)
			}
			for p, sha := range git {
				b, err := os.ReadFile(filepath.Join(root, p))
				got := ""
				if err == nil {
					sum := sha256.Sum256(b)
					got = hex.EncodeToString(sum[:])
				}
				if got != sha {
					t.Errorf("%s staged as %q but the work tree has %q: the index answer hid a staged change", p, sha, got)
				}
			}
		}
	}
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStagedInsideSparseFolder: a staged edit of a protected file
// collapsed into a sparse index's folder entry (index.sparse, a cone
// without the folder, the file flagged skip-worktree and removed, then
// `sparse-checkout reapply`) is reported, by a hook (its index named) and
// without one. git 2.39's `git diff --cached -- PATH` lists nothing for a
// path inside a sparse folder entry, and the hook's in-process read took
// the folder entry for no entry: both answered "nothing staged" (round 24
// second review). Honest twin: the same sparse checkout with nothing
// staged reports nothing.
func TestStagedInsideSparseFolder(t *testing.T) {
	gittest.Require(t)
	patterns := []string{"sessiongate.yaml", ".claude/settings.json"}
	for _, lazy := range []bool{true, false} {
		for _, hook := range []bool{true, false} {
			t.Run(fmt.Sprintf("lazy=%v/hook=%v", lazy, hook), func(t *testing.T) {
				root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n", ".claude/settings.json": "{}\n", "src/code.go": "package x\n"})
				if lazy {
					write(t, root, ".claude/settings.json", "{\"off\":1}\n")
					gittest.Git(t, root, "add", ".claude/settings.json")
				}
				gittest.Git(t, root, "config", "index.sparse", "true")
				gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
				gittest.Git(t, root, "update-index", "--skip-worktree", ".claude/settings.json")
				os.RemoveAll(filepath.Join(root, ".claude"))
				gittest.Git(t, root, "sparse-checkout", "reapply")
				if ls := gittest.Git(t, root, "ls-files", "--sparse", "-s"); !strings.Contains(ls, "040000") {
					t.Fatalf("no sparse folder entry: %s", ls)
				}
				r := &Repo{root: root, commonDir: filepath.Join(root, ".git"), gitDir: filepath.Join(root, ".git")}
				if hook {
					r.SetIndexFile(filepath.Join(root, ".git", "index"))
				}
				got, err := r.StagedProtected(context.Background(), patterns)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := got[".claude/settings.json"]; ok != lazy {
					t.Errorf("staged protected files %v: .claude/settings.json reported %v, want %v", got, ok, lazy)
				}
			})
		}
	}
}
