package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestR60H347ReviewAmendSaysWhatToDo: an honest agent addressing review in
// a new session amends the earlier session's last commit. That is a HIGH
// FOREIGN_AMEND that no later step clears (verify fails the branch), and
// before round 61 it was only found once made. pre-commit now refuses the
// amend of the commit the session started from, before anything is
// committed, and names the new commit on top; made anyway (hooks
// skipped), it is recorded as the BYPASS it then is. An amend of the session's own commit,
// and a new commit whose message speaks of --amend, are let through.
func TestR60H347ReviewAmendSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string // the review fix's commit
		ownLast bool     // the session commits once before the review fix
		refused bool     // pre-commit refuses the review fix
		want    int      // FOREIGN_AMEND violations after it
		bypass  bool     // a BYPASS is recorded (the hooks skipped)
	}{
		{"review fix amended into the earlier session's commit", []string{"--amend", "-q", "--no-edit"}, false, true, 0, false},
		{"the same, spelled --amen", []string{"--amen", "-q", "--no-edit"}, false, true, 0, false},
		{"the same, after git's own options", []string{"-c", "commit.verbose=false", "commit", "--amend", "-q", "--no-edit"}, false, true, 0, false},
		{"the same with the hooks skipped", []string{"--amend", "-q", "--no-edit", "--no-verify"}, false, false, 0, true},
		{"review fix as a new commit on top", []string{"-q", "-m", "fix: a as review asked"}, false, false, 0, false},
		{"a new commit whose message says --amend", []string{"-q", "-m", "fix: a, without --amend"}, false, false, 0, false},
		{"an amend of the session's own commit", []string{"--amend", "-q", "--no-edit"}, true, false, 0, false},
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
			if tc.ownLast {
				writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
				r.git("add", "b.txt")
				if res := r.commit(r.root, nil, "-q", "-m", "feat: add b"); res.code != 0 {
					t.Fatalf("commit: %s", res.err)
				}
			}
			before := r.git("rev-parse", "HEAD")
			writeFile(t, filepath.Join(r.root, "a.txt"), "a, as review asked\n")
			r.git("add", "a.txt")
			var res result
			if tc.args[0] == "-c" {
				res = r.run(r.root, nil, "git", tc.args...)
			} else {
				res = r.commit(r.root, nil, tc.args...)
			}
			switch {
			case tc.refused && res.code == 0:
				t.Fatalf("the amend of the commit the session started from was let through; HEAD %s -> %s", before, r.git("rev-parse", "HEAD"))
			case tc.refused && (!strings.Contains(res.err, "new commit on top") || !strings.Contains(res.err, "still records the amend as a FOREIGN_AMEND")):
				t.Errorf("refused without saying what to do instead: %s", res.err)
			case tc.refused && r.git("rev-parse", "HEAD") != before:
				t.Errorf("refused, but HEAD moved")
			case !tc.refused && res.code != 0:
				t.Fatalf("commit refused (a false block): %s", res.err)
			}
			r.sg(r.root, "session", "status", "--session", id)
			v := r.showProtected(id)
			if n := countCode(v, "FOREIGN_AMEND"); n != tc.want {
				t.Fatalf("%d FOREIGN_AMEND violations, want %d: %+v", n, tc.want, v.Violations)
			}
			if got := countCode(v, "BYPASS") > 0; got != tc.bypass {
				t.Errorf("BYPASS recorded: %v, want %v: %+v", got, tc.bypass, v.Violations)
			}
			for _, x := range v.Violations {
				if x.Code == "FOREIGN_AMEND" && !strings.Contains(x.Message, "new commit on top") {
					t.Errorf("FOREIGN_AMEND does not say what to do instead: %q", x.Message)
				}
			}
		})
	}
}
