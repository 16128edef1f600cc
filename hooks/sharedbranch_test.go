package hooks_test

import (
	"path/filepath"
	"testing"
)

// TestSharedBranchWorktreeCommit: two worktrees of one repository on one
// branch (`git worktree add -f`), a session in each. A commit the second
// worktree's session made through its hooks moved the first worktree's
// HEAD too, and the first session's reconciliation recorded it as its own
// CRITICAL BYPASS (round 22, c8's trick 5). A commit another session of
// the same database recorded is that session's: it is judged there. The
// lazy twin: the same commit made with the hooks off and recorded by no
// session is still the first session's BYPASS.
func TestSharedBranchWorktreeCommit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		session bool   // the second worktree has a session of its own
		flag    string // commit flag in the second worktree
		bypassA int    // BYPASS on the first worktree's session
		bypassB int    // BYPASS on the second's
	}{
		{"second session's hooked commit", true, "", 0, 0},
		// --no-verify still runs post-commit: the second session's BYPASS.
		{"second session's --no-verify commit", true, "--no-verify", 0, 1},
		// Lazy: no session there, the hooks off: no one else's, the first session's BYPASS.
		{"hooks off in a worktree without a session", false, "hooks-off", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			wt := filepath.Join(filepath.Dir(r.root), "shared")
			r.git("worktree", "add", "-q", "-f", wt, "main")
			wt = r.gitIn(wt, "rev-parse", "--show-toplevel")
			aID := r.startWorking(r.root)
			bID := ""
			if tc.session {
				bID = r.startWorking(wt)
			}
			writeFile(t, filepath.Join(wt, "b.txt"), "from b\n")
			r.gitIn(wt, "add", "b.txt")
			switch tc.flag {
			case "hooks-off":
				r.gitIn(wt, "-c", "core.hooksPath=/dev/null", "commit", "-qm", "b's work")
			default:
				args := []string{"-m", "b's work"}
				if tc.flag != "" {
					args = append(args, tc.flag)
				}
				if res := r.commit(wt, nil, args...); res.code != 0 {
					t.Fatalf("commit in the second worktree: %s", res.err)
				}
			}
			// The first worktree's session reconciles at its next hook or gate.
			r.sg(r.root, "session", "status")
			writeFile(t, filepath.Join(r.root, "a.txt"), "from a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-m", "a's work"); res.code != 0 {
				t.Fatalf("commit in the first worktree: %s", res.err)
			}
			count := func(id string) int {
				n := 0
				for _, v := range r.show(id).Violations {
					if v.Code == "BYPASS" {
						n++
					}
				}
				return n
			}
			if got := count(aID); got != tc.bypassA {
				t.Errorf("first session: %d BYPASS, want %d:\n%s", got, tc.bypassA, r.sg(r.root, "session", "show", aID))
			}
			if bID != "" {
				if got := count(bID); got != tc.bypassB {
					t.Errorf("second session: %d BYPASS, want %d:\n%s", got, tc.bypassB, r.sg(r.root, "session", "show", bID))
				}
			}
		})
	}
}
