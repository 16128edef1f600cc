package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55CRLFCloneAfterLFRecords (round 55, helper 329): a team's sessions
// ran on Linux (LF work trees); the records ref holds their protocol hash.
// A developer on Windows clones the repository (core.autocrlf=true: every
// text file CRLF in the work tree, LF in git), fetches the records ref and
// starts a session: a new database, so first use asks the records ref
// whether a session ran under the committed protocol and config. It
// compared only the CRLF bytes (the work tree's, and committedState keeps
// them for a CRLF checkout) with the recorded LF hashes and the files at
// the recorded start commits: "SESSION-PROTOCOL.md ... is committed but no
// person accepted it: no session on refs/sessiongate/records ran under it"
// (sessiongate.yaml too), and no honest session could start. The same
// clone with LF line ends starts. The twin: a word changed in the CRLF
// protocol is still refused.
func TestR55CRLFCloneAfterLFRecords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		edit    bool
		refused bool
	}{
		{"honest: the committed protocol, checked out CRLF", false, false},
		{"lazy: a word of the CRLF protocol changed", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := advProjectWorld(t, advProject{
				files: [][2]string{{"scripts/greet.sh", greetScript}, {"scripts/test.sh", strings.Replace(greetTest,
					"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)}},
			})
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if clean, said := w.advEndPhases(advEnd{}); !clean {
				t.Fatalf("the first, honest session did not end clean:\n%s", said)
			}
			// The Windows clone's checkout: every text file CRLF.
			w.git("config", "core.autocrlf", "true")
			for _, f := range []string{"SESSION-PROTOCOL.md", "sessiongate.yaml"} {
				if err := os.Remove(filepath.Join(w.root, f)); err != nil {
					t.Fatal(err)
				}
			}
			w.git("checkout", "--", "SESSION-PROTOCOL.md", "sessiongate.yaml")
			if !strings.Contains(w.read("SESSION-PROTOCOL.md"), "\r\n") {
				t.Fatal("core.autocrlf=true wrote no CRLF")
			}
			if tc.edit {
				w.write("SESSION-PROTOCOL.md", strings.Replace(w.read("SESSION-PROTOCOL.md"),
					"Run checks that cover the changed behavior.", "Checks are up to you.", 1))
			}
			freshDB26(w)
			r := w.sg("session", "start", "--objective", "Document the name argument")
			switch {
			case tc.refused && r.code == 0:
				t.Errorf("a changed protocol was trusted in a CRLF checkout:\n%s", r.text())
			case !tc.refused && r.code != 0:
				t.Errorf("honest start in a CRLF clone refused (exit %d):\n%s", r.code, r.text())
			}
		})
	}
}
