package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestParkedWork: what the clean-work-tree check reads of the refs
// (session/parked.go). A branch's own new commit counts; a backup of
// HEAD's commit before an amend, a commit a remote-tracking ref holds, and
// a host's review or sessiongate's refs do not; the stash lists its
// entries.
func TestParkedWork(t *testing.T) {
	ctx := context.Background()
	repo := emptyRepo(t)
	dir := repo.Root()
	git := func(args ...string) string {
		return strings.TrimSpace(gittest.Git(t, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...))
	}
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "a\n")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	start := git("rev-parse", "HEAD")
	write("a.txt", "a\nb\n")
	git("commit", "-qam", "feat: b")
	git("branch", "backup")                          // HEAD's commit, then amended
	git("commit", "-q", "--amend", "-m", "feat: b!") // same change
	git("switch", "-q", "-c", "parking")
	write("README.md", "parked\n")
	git("add", "-A")
	git("commit", "-q", "-m", "docs: parked")
	parked := git("rev-parse", "HEAD")
	git("switch", "-q", "-")
	git("update-ref", "refs/pull/7/head", parked)
	git("update-ref", "refs/sessiongate/records", parked)
	git("tag", "kept", parked)

	tips, err := repo.BranchTips(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"refs/heads/backup", "refs/heads/parking", "refs/tags/kept"} {
		if tips[ref] == "" {
			t.Errorf("BranchTips left out %s: %v", ref, tips)
		}
	}
	for _, ref := range []string{"refs/pull/7/head", "refs/sessiongate/records"} {
		if _, ok := tips[ref]; ok {
			t.Errorf("BranchTips holds %s, a ref no work is parked on", ref)
		}
	}
	for ref, want := range map[string]int{"refs/heads/backup": 0, "refs/heads/parking": 1} {
		if n, err := repo.NewOnBranch(ctx, tips[ref], []string{start}); err != nil || n != want {
			t.Errorf("NewOnBranch(%s) = %d, %v; want %d", ref, n, err, want)
		}
	}
	// Cherry-picked onto HEAD with a conflict resolved: another patch,
	// the same author and author date.
	git("switch", "-q", "-c", "spike", start)
	write("a.txt", "a\nspike\n")
	git("commit", "-qam", "feat: spike")
	spike := git("rev-parse", "HEAD")
	git("switch", "-q", "-")
	pick := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "cherry-pick", spike)
	pick.Dir = dir
	if out, err := pick.CombinedOutput(); err == nil {
		t.Fatalf("the cherry-pick did not conflict: %s", out)
	}
	write("a.txt", "a\nb\nspike, merged\n")
	git("add", "a.txt")
	gittest.GitEnv(t, dir, []string{"GIT_EDITOR=true"}, "-c", "user.name=t", "-c", "user.email=t@example.com", "cherry-pick", "--continue")
	if n, err := repo.NewOnBranch(ctx, spike, []string{start}); err != nil || n != 0 {
		t.Errorf("NewOnBranch of a branch cherry-picked with a conflict resolved = %d, %v; want 0", n, err)
	}
	git("update-ref", "refs/remotes/origin/parking", parked) // pushed: a remote holds it
	if n, err := repo.NewOnBranch(ctx, parked, []string{start}); err != nil || n != 0 {
		t.Errorf("NewOnBranch of a pushed branch = %d, %v; want 0", n, err)
	}

	if s, err := repo.Stashes(ctx); err != nil || len(s) != 0 {
		t.Fatalf("Stashes of no stash = %v, %v", s, err)
	}
	write("a.txt", "changed\n")
	git("stash", "push", "-q")
	if s, err := repo.Stashes(ctx); err != nil || len(s) != 1 || s[0] != git("rev-parse", "stash@{0}") {
		t.Errorf("Stashes = %v, %v; want stash@{0}", s, err)
	}
}
