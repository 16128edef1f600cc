package gitrepo

import (
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestReadHeadAgreesWithGit: HEAD read from the files is what git says, for
// a loose ref, packed refs, a linked worktree, a detached HEAD and an
// unborn branch.
func TestReadHeadAgreesWithGit(t *testing.T) {
	root := indexRepo(t)
	check := func(name, dir, wantCommit, wantBranch string) {
		t.Helper()
		r := fromDotGit(dir)
		if r == nil {
			t.Fatalf("%s: fromDotGit failed", name)
		}
		commit, branch, ok := ReadHeadFiles(r.gitDir, r.commonDir)
		if !ok || commit != wantCommit || branch != wantBranch {
			t.Errorf("%s: ReadHeadFiles = %q %q %v, git says %q %q", name, commit, branch, ok, wantCommit, wantBranch)
		}
	}
	head := gittest.Git(t, root, "rev-parse", "HEAD")
	check("loose ref", root, head, "main")
	gittest.Git(t, root, "pack-refs", "--all")
	check("packed ref", root, head, "main")
	linked := filepath.Join(t.TempDir(), "linked")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "feature", linked)
	check("linked worktree", linked, gittest.Git(t, linked, "rev-parse", "HEAD"), "feature")
	gittest.Git(t, root, "checkout", "-q", "--detach")
	check("detached", root, head, "")
	gittest.Git(t, root, "checkout", "-q", "--orphan", "fresh")
	check("unborn", root, "", "fresh")
}
