package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestIndexReadersShareWalk: indexFlagged's and racyEntries' readers take
// and decline the same indexes (one walker since racyctime.go stopped
// keeping its own): real git indexes of versions 2, 3 and 4 with flagged
// entries, and each of them cut short or with a split-index extension.
func TestIndexReadersShareWalk(t *testing.T) {
	gittest.Require(t)
	for _, version := range []string{"2", "3", "4"} {
		root := t.TempDir()
		for _, args := range [][]string{
			{"init", "-q"},
			{"update-index", "--add", "--cacheinfo", "100644,e69de29bb2d1d6434b8b29ae775a2cb4c7e2bc8d,a.txt"},
			{"update-index", "--add", "--cacheinfo", "100644,e69de29bb2d1d6434b8b29ae775a2cb4c7e2bc8d,dir/b.txt"},
			{"update-index", "--add", "--cacheinfo", "100644,e69de29bb2d1d6434b8b29ae775a2cb4c7e2bc8d,dir/c.txt"},
			{"update-index", "--assume-unchanged", "a.txt"},
			{"update-index", "--skip-worktree", "dir/b.txt"},
			{"update-index", "--index-version", version},
		} {
			if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		b, err := os.ReadFile(filepath.Join(root, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		split := append(append([]byte{}, b[:len(b)-20]...), "link\x00\x00\x00\x00"...)
		split = append(split, b[len(b)-20:]...)
		cases := []struct {
			name string
			b    []byte
			ok   bool
		}{
			{"whole", b, true},
			{"cut in the entries", b[:40], false},
			{"cut in the last entry", b[:len(b)-30], false},
			{"split index", split, false},
		}
		for _, c := range cases {
			flagged, fok := parseIndexFlagged(c.b)
			_, rok := parseRacyEntries(c.b, 0, 0)
			if fok != c.ok || rok != c.ok {
				t.Errorf("version %s, %s: flagged reader ok=%v, racy reader ok=%v, want %v", version, c.name, fok, rok, c.ok)
			}
			if c.ok && (len(flagged) != 2 || flagged["a.txt"].how != "assume-unchanged" || flagged["dir/b.txt"].how != "skip-worktree") {
				t.Errorf("version %s: flagged %v", version, flagged)
			}
		}
	}
}
