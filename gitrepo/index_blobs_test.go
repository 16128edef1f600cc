package gitrepo

import (
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
			got, ok := indexBlobs(filepath.Join(dir, ".git", "index"), want)
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
			if _, ok := indexBlobs(filepath.Join(dir, ".git", "index"), want); ok {
				t.Error("a wanted path in another case was answered from the index")
			}
		})
	}
}
