package gitrepo

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// FuzzParseLog: the trailers and files verify reads from `git log` come out
// of any output as trimmed single-line values, or the output is refused;
// never a panic. A commit message can hold any text, so this is untrusted.
func FuzzParseLog(f *testing.F) {
	f.Add("\x1eabc\x1fsubject\x1fSession-Id: 8a151cda-4ff3-415e-8774-d03907e94a17\nSession-Snapshot: sha256:00\n\x1f\na.go\nb.go\n")
	f.Add("\x1e\x1f\x1f\x1f")
	f.Add("\x1eabc\x1fs\x1fKey:\x1f")
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := parseLog(s)
		if err != nil {
			return
		}
		if len(cs) > strings.Count(s, "\x1e")+1 {
			t.Fatalf("%d commits from %d records", len(cs), strings.Count(s, "\x1e")+1)
		}
		for _, c := range cs {
			for k, vs := range c.Trailers {
				if k != strings.TrimSpace(k) || strings.Contains(k, "\n") {
					t.Fatalf("trailer key %q", k)
				}
				for _, v := range vs {
					if v != strings.TrimSpace(v) || strings.Contains(v, "\n") {
						t.Fatalf("trailer value %q", v)
					}
				}
			}
			for _, p := range c.Files {
				if p == "" || p != strings.TrimSpace(p) {
					t.Fatalf("file %q", p)
				}
			}
		}
	})
}

// FuzzWorktreeIndex: any bytes in the index file give a mark or a refusal
// (the caller then asks git), never a panic, and a mark only from entries
// whose paths stay inside the worktree.
func FuzzWorktreeIndex(f *testing.F) {
	gittest.Require(f)
	seedRepo := f.TempDir()
	gittest.Git(f, seedRepo, "init", "-q", "-b", "main")
	gittest.Write(f, seedRepo, "a/b/c.txt", "c\n")
	gittest.Write(f, seedRepo, "a/d.txt", "d\n")
	gittest.Write(f, seedRepo, "e.txt", "e\n")
	gittest.Git(f, seedRepo, "add", "-A")
	gittest.Git(f, seedRepo, "add", "-N", "e.txt")
	for _, v := range []string{"2", "3", "4"} {
		gittest.Git(f, seedRepo, "update-index", "--index-version", v)
		b, err := os.ReadFile(filepath.Join(seedRepo, ".git", "index"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, index []byte) {
		root := t.TempDir()
		git := filepath.Join(root, ".git")
		if err := os.MkdirAll(git, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(git, "index"), index, 0o644); err != nil {
			t.Fatal(err)
		}
		r := &Repo{root: root, gitDir: git, commonDir: git}
		ix, ok := r.hashIndex(sha256.New(), nil)
		if !ok {
			return
		}
		for p := range ix.tracked {
			if !filepath.IsLocal(p) {
				t.Fatalf("index entry %q leaves the worktree", p)
			}
		}
	})
}
