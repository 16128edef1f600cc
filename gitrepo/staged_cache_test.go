package gitrepo

import (
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestStagedCacheFollowsGit: a long-lived Repo answers StagedProtected
// after each way the staged protected files can change (git add, reset,
// commit, an index rewritten in place with its old mtime put back, rm
// --cached, a protected file staged under a glob) exactly as a fresh Repo
// asking git does, and answers from its cache only when nothing changed.
func TestStagedCacheFollowsGit(t *testing.T) {
	gittest.Require(t)
	if stampLen != 40 {
		t.Skip("the staged cache needs a change time in the stamp (Linux)")
	}
	old := racyWindow
	racyWindow = 0 // the racy-git window has its own test below
	t.Cleanup(func() { racyWindow = old })
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"SESSION-PROTOCOL.md": "# P\n", "sessiongate.yaml": "protect: true\n", ".github/hooks/a.json": "{}\n", "code.go": "package x\n"})
	patterns := []string{"SESSION-PROTOCOL.md", "sessiongate.yaml", ".github/hooks/*.json"}
	long, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var saved []byte
	index := filepath.Join(root, ".git", "index")
	steps := []struct {
		name string
		do   func()
		hit  bool // the long-lived Repo answers from its cache
	}{
		{"first", func() {}, false},
		{"unchanged", func() {}, true},
		{"unprotected file staged", func() { write("code.go", "package y\n"); gittest.Git(t, root, "add", "code.go") }, false},
		{"unchanged again", func() {}, true},
		{"protocol staged", func() { write("SESSION-PROTOCOL.md", "# weaker\n"); gittest.Git(t, root, "add", "SESSION-PROTOCOL.md") }, false},
		{"protocol unstaged", func() { gittest.Git(t, root, "reset", "-q", "SESSION-PROTOCOL.md") }, false},
		{"save the clean index", func() {
			b, err := os.ReadFile(index)
			if err != nil {
				t.Fatal(err)
			}
			saved = b
		}, true},
		{"config staged under a glob", func() {
			write(".github/hooks/b.json", "{\"off\":1}\n")
			gittest.Git(t, root, "add", ".github/hooks/b.json")
		}, false},
		{"index rewritten in place, old mtime put back", func() {
			// A lazy agent replays an index it saved, in place (same
			// inode), and sets the mtime back: ctime still moves.
			st, err := os.Stat(index)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(index, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(saved)
			f.Close()
			os.Chtimes(index, st.ModTime(), st.ModTime())
		}, false},
		{"staged again and committed", func() {
			gittest.Git(t, root, "add", "-A")
			gittest.Git(t, root, "commit", "-q", "-m", "c")
		}, false},
		{"protected file removed from the index only", func() { gittest.Git(t, root, "rm", "-q", "--cached", "sessiongate.yaml") }, false},
		{"unchanged at the end", func() {}, true},
	}
	for _, s := range steps {
		s.do()
		fresh, err := Open(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.stagedProtectedFromGit(ctx, patterns, stagedKey{})
		if err != nil {
			t.Fatal(err)
		}
		before := long.stagedCache.hits
		// Callers pass the patterns in map order: any order is the same question.
		shuffled := slices.Clone(patterns)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := long.StagedProtected(ctx, shuffled)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: cached repo says %v, git says %v", s.name, got, want)
		}
		if hit := long.stagedCache.hits > before; hit != s.hit {
			t.Errorf("%s: answered from the cache: %v, want %v", s.name, hit, s.hit)
		}
	}
}

// TestStagedCacheRacyIndex: an index written within racyWindow is never
// cached (two writes in one coarse clock tick could share a stamp).
func TestStagedCacheRacyIndex(t *testing.T) {
	gittest.Require(t)
	if stampLen != 40 {
		t.Skip("the staged cache needs a change time in the stamp (Linux)")
	}
	old := racyWindow
	racyWindow = time.Hour
	t.Cleanup(func() { racyWindow = old })
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"sessiongate.yaml": "protect: true\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := r.StagedProtected(ctx, []string{"sessiongate.yaml"}); err != nil {
			t.Fatal(err)
		}
	}
	if r.stagedCache.valid || r.stagedCache.hits != 0 {
		t.Fatalf("an index younger than the racy window was cached (valid %v, hits %d)", r.stagedCache.valid, r.stagedCache.hits)
	}
}
