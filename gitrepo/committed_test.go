package gitrepo_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestCommittedSHA256: HEAD's content of each path, read in process, ""
// for a path HEAD lacks (absent, or a folder), nil before the first
// commit; the work tree's edits never count.
func TestCommittedSHA256(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.CommittedSHA256(ctx, []string{"a.md"}); err != nil || got != nil {
		t.Fatalf("unborn HEAD: %v %v, want nil", got, err)
	}
	gittest.Commit(t, dir, "files", map[string]string{"a.md": "one\n", ".claude/settings.json": "{}\n"})
	gittest.Write(t, dir, "a.md", "edited in the work tree\n")
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	want := map[string]string{"a.md": sum("one\n"), ".claude/settings.json": sum("{}\n"), "missing.md": "", ".claude": "", "a.md/x": ""}
	paths := []string{"a.md", ".claude/settings.json", "missing.md", ".claude", "a.md/x"}
	got, err := r.CommittedSHA256(ctx, paths)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if got[p] != want[p] {
			t.Errorf("%s: %q, want %q", p, got[p], want[p])
		}
	}
}
