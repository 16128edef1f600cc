package gitrepo

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestIgnoreDifferential compares the walk with git status on random
// ignore files and trees: every file git lists as untracked must be in the
// walk (one it misses would be a false idle turn). 60 rounds by default;
// SESSIONGATE_IGNORE_ROUNDS sets another number (900 passed on 2026-11-24).
func TestIgnoreDifferential(t *testing.T) {
	gittest.Require(t)
	n, _ := strconv.Atoi(os.Getenv("SESSIONGATE_IGNORE_ROUNDS"))
	if n <= 0 {
		n = 60
	}
	names := []string{"a", "b", "ab", "a.log", "b.txt", "c"}
	comps := []string{"a", "b", "ab", "*", "?", "a*", "*.log", "*.txt", "**", "[ab]", "[!a]", "a?"}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	for round := range n {
		root := t.TempDir()
		gittest.Git(t, root, "init", "-q", "-b", "main")
		gittest.Git(t, root, "read-tree", "--empty") // an index file, or the walk is not run
		// tree
		var files []string
		for range 12 {
			depth := 1 + rng.IntN(3)
			var p []string
			for range depth {
				p = append(p, names[rng.IntN(len(names))])
			}
			files = append(files, strings.Join(p, "/"))
		}
		var written []string
		for _, f := range files {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
				continue
			}
			if fi, err := os.Stat(filepath.Join(root, f)); err == nil && fi.IsDir() {
				continue
			}
			if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err == nil {
				written = append(written, f)
			}
		}
		// track a few
		for _, f := range written {
			if rng.IntN(4) == 0 {
				gittest.Git(t, root, "add", "-f", "--", f)
			}
		}
		gen := func() string {
			var lines []string
			for range 1 + rng.IntN(4) {
				k := 1 + rng.IntN(3)
				var cs []string
				for range k {
					cs = append(cs, comps[rng.IntN(len(comps))])
				}
				l := strings.Join(cs, "/")
				if rng.IntN(4) == 0 {
					l = "/" + l
				}
				if rng.IntN(4) == 0 {
					l += "/"
				}
				if rng.IntN(3) == 0 {
					l = "!" + l
				}
				lines = append(lines, l)
			}
			return strings.Join(lines, "\n") + "\n"
		}
		gis := map[string]string{".gitignore": gen()}
		for _, d := range []string{"a", "b", "a/b"} {
			if fi, err := os.Stat(filepath.Join(root, d)); err == nil && fi.IsDir() && rng.IntN(2) == 0 {
				gis[d+"/.gitignore"] = gen()
			}
		}
		for p, c := range gis {
			os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
		}
		r, err := Open(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		want := gitUntracked(t, root)
		got := untracked(t, r)
		var missing, extra []string
		for _, w := range want {
			if !slices.Contains(got, w) {
				missing = append(missing, w)
			}
		}
		for _, g := range got {
			if !slices.Contains(want, g) {
				extra = append(extra, g)
			}
		}
		if len(missing) > 0 {
			t.Errorf("round %d: git lists %q, the walk does not (false idle); walk %q; ignores %q; files %q", round, missing, got, gis, written)
		}
		if len(extra) > 0 && testing.Verbose() {
			t.Logf("round %d: walk lists %q, git does not; ignores %q", round, extra, gis)
		}
	}
}
