package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestR60H347ReviewAmendSaysWhatToDo: an honest agent addressing review in
// a new session amends the earlier session's last commit. That is a HIGH
// FOREIGN_AMEND that no later step clears (verify fails the branch), and
// the violation said what happened but not what to do instead; it now
// names the new commit on top. A fixup commit on top is no violation.
func TestR60H347ReviewAmendSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		amend bool
		want  int
	}{
		{"review fix amended into the earlier session's commit", true, 1},
		{"review fix as a new commit on top", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			first := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "feat: add a"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
			r.sg(r.root, "session", "evidence", "--session", first, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
			r.sg(r.root, "session", "end", "--session", first, "--summary", "done")
			id := r.startWorking(r.root) // the review's session supersedes the first
			writeFile(t, filepath.Join(r.root, "a.txt"), "a, as review asked\n")
			r.git("add", "a.txt")
			args := []string{"-q", "-m", "fix: a as review asked"}
			if tc.amend {
				args = []string{"--amend", "-q", "--no-edit"}
			}
			if res := r.commit(r.root, nil, args...); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
			r.sg(r.root, "session", "status", "--session", id)
			v := r.showProtected(id)
			if n := countCode(v, "FOREIGN_AMEND"); n != tc.want {
				t.Fatalf("%d FOREIGN_AMEND violations, want %d: %+v", n, tc.want, v.Violations)
			}
			for _, x := range v.Violations {
				if x.Code == "FOREIGN_AMEND" && !strings.Contains(x.Message, "new commit on top") {
					t.Errorf("FOREIGN_AMEND does not say what to do instead: %q", x.Message)
				}
			}
		})
	}
}
