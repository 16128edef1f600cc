package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestR61H349AmendRefusalSaysWhose: pre-commit refuses an amend of the
// commit an active session started from (round 61). A person amending
// their own commit in their terminal was told to "make the change a new
// commit on top", as if they were the agent: the step now says the amend
// is theirs, whose session it would be charged to, and how to amend
// without it. Forced through with the escape hatch, the commit lands and
// the recorded ESCAPE_HATCH no longer says "Nothing was committed"; the
// FOREIGN_AMEND stays.
func TestR61H349AmendRefusalSaysWhose(t *testing.T) {
	for _, tc := range []struct {
		name    string
		person  bool
		env     []string
		refused bool
	}{
		{"a person's amend", true, nil, true},
		{"the agent's amend, forced with the escape hatch", false, []string{"SESSIONGATE_BYPASS=review asked for one commit"}, false},
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
			id := r.startWorking(r.root)
			if tc.person {
				r.asPerson()
			}
			writeFile(t, filepath.Join(r.root, "a.txt"), "a, touched up\n")
			r.git("add", "a.txt")
			res := r.commit(r.root, tc.env, "--amend", "-q", "--no-edit")
			said := res.out + res.err
			if tc.refused {
				if res.code == 0 {
					t.Fatal("the amend was let through")
				}
				if !strings.Contains(said, "a person's") || !strings.Contains(said, id) || !strings.Contains(said, "sessiongate session end") {
					t.Errorf("the refusal of a person's amend does not say it is theirs, whose session, and how to amend:\n%s", said)
				}
				t.Logf("refusal:\n%s", said)
				return
			}
			if res.code != 0 {
				t.Fatalf("the escape hatch did not let the amend through: %s", said)
			}
			v := r.showProtected(id)
			if countCode(v, "FOREIGN_AMEND") != 1 {
				t.Errorf("the forced amend is not a FOREIGN_AMEND: %+v", v.Violations)
			}
			for _, x := range v.Violations {
				if x.Code == "ESCAPE_HATCH" && strings.Contains(x.Message, "Nothing was committed") {
					t.Errorf("the escape of a commit that landed says nothing was committed: %s", x.Message)
				}
			}
		})
	}
}
