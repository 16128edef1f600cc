package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShallowCIRevert: verify's revert rule in a shallow CI clone
// (`fetch-depth: 1`). The honest session reverts a commit on main 100
// commits below the range's base: verify's deepening of the range did not
// reach it, so its patch could not be read and the honest revert FAILed
// (exit 1, "holds nothing it replays"; round 20 left it open). verify now deepens the
// clone; when it cannot fetch, it stops with exit 2 (environment) and
// names `fetch-depth: 0`. The lazy twin (a hooks-off commit reverted twice)
// still fails with exit 1 in the same clone.
func TestShallowCIRevert(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	t.Parallel()
	cases := []struct {
		name      string
		published bool
		sk        skip
		depth     string // the clone's --depth (fetch-depth)
		offline   bool   // origin is unreachable when verify runs
		code      int
		want      string
	}{
		{name: "honest revert of main's commit, depth 1", published: true, depth: "1", code: 0, want: "exactly, a commit from before the range"},
		{name: "honest revert, depth 50", published: true, depth: "50", code: 0, want: "exactly, a commit from before the range"},
		{name: "honest revert, depth 10, remote unreachable", published: true, depth: "10", offline: true, code: 2, want: "fetch-depth: 0"},
		{name: "lazy: hooks-off commit reverted twice, depth 1", sk: skipV3Reland, depth: "1", code: 1, want: "FAIL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			v3RevertRepo(w, c.published, c.sk)
			w.skip = c.sk
			w.agent = &cliAgent{w: w}
			target := "HEAD"
			if c.published {
				// main moves on: 100 commits after the one the session
				// reverts, more than verify's first deepening (64) of the
				// range fetches below its base.
				target = w.git("rev-parse", "HEAD")
				w.git("switch", "-q", "main")
				w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "chore: main moves on")
				w.exec(w.root, "", "sh", "-c", "for i in $(seq 99); do git -c core.hooksPath=/dev/null commit -q --allow-empty -m \"chore: main moves on $i\" || exit 1; done")
				w.git("push", "-q", "--no-verify", "origin", "main")
				w.base = w.git("rev-parse", "HEAD")
				w.git("switch", "-q", "fix/readme-title")
				w.git("merge", "-q", "--ff-only", "main")
			}
			v3RevertFlowOf(w, c.sk, target)
			branch := w.git("rev-parse", "--abbrev-ref", "HEAD")
			tip := w.git("rev-parse", "HEAD")
			w.exec(w.root, "", "git", "push", "-q", "--no-verify", "origin", branch, "refs/sessiongate/records:refs/sessiongate/records")
			dir := filepath.Dir(w.root)
			ci := filepath.Join(dir, "ci")
			// As actions/checkout with fetch-depth: N does it.
			w.gitIn(dir, "clone", "-q", "--depth", c.depth, "--branch", branch, "file://"+filepath.Join(dir, "origin.git"), ci)
			// As action.yml fetches the records ref: without --depth.
			w.gitIn(ci, "fetch", "-q", "--no-tags", "origin", "+refs/sessiongate/records:refs/sessiongate/records")
			w.gitIn(ci, "checkout", "-q", "--detach", tip)
			if c.offline {
				w.gitIn(ci, "remote", "set-url", "origin", "file://"+filepath.Join(dir, "gone.git"))
			}
			r := w.exec(ci, "", binary, "verify", w.base+".."+tip)
			t.Logf("verify: exit %d\n%s", r.code, r.text())
			if r.code != c.code || !strings.Contains(r.text(), c.want) {
				t.Fatalf("verify in a depth-%s clone: exit %d, want %d with %q:\n%s", c.depth, r.code, c.code, c.want, r.text())
			}
		})
	}
}
