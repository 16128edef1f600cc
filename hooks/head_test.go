package hooks

import (
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
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
		commit, branch, ok := gitrepo.ReadHeadFiles(r.gitDir, r.commonDir)
		if !ok || commit != wantCommit || branch != wantBranch {
			t.Errorf("%s: ReadHeadFiles = %q %q %v, git says %q %q", name, commit, branch, ok, wantCommit, wantBranch)
		}
	}
	head := gitT(t, root, "rev-parse", "HEAD")
	check("loose ref", root, head, "main")
	gitT(t, root, "pack-refs", "--all")
	check("packed ref", root, head, "main")
	linked := filepath.Join(t.TempDir(), "linked")
	gitT(t, root, "worktree", "add", "-q", "-b", "feature", linked)
	check("linked worktree", linked, gitT(t, linked, "rev-parse", "HEAD"), "feature")
	gitT(t, root, "checkout", "-q", "--detach")
	check("detached", root, head, "")
	gitT(t, root, "checkout", "-q", "--orphan", "fresh")
	check("unborn", root, "", "fresh")
}
