package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPersonsProtocolCommitNotCharged: while an agent's session runs, a
// person edits the protocol and commits it before running `protocol
// accept`. The commit is refused (accept first), but the refusal is not a
// PROTECTED_CHANGE on the agent's session: the commit is the person's
// (no agent in its environment or ancestry, no agent shell call pending in
// the store). The twin: the agent's own commit of the same edit is still
// charged to its session. After the person accepts, the commit lands.
func TestPersonsProtocolCommitNotCharged(t *testing.T) {
	for _, tc := range []struct {
		name    string
		person  bool
		charged int
	}{
		{"a person's commit", true, 0},
		{"the agent's commit", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			if tc.person {
				r.asPerson()
			}
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
			r.git("add", "SESSION-PROTOCOL.md")
			before := r.head(r.root)
			res := r.commit(r.root, nil, "-m", "protocol: relax")
			if res.code != 1 || !strings.Contains(res.err, "protocol accept") {
				t.Fatalf("commit: exit %d, want 1 naming protocol accept\n%s", res.code, res.err)
			}
			if r.head(r.root) != before {
				t.Fatal("the commit landed before the change was accepted")
			}
			if n := countCode(r.showProtected(id), "PROTECTED_CHANGE"); n != tc.charged {
				t.Fatalf("%d PROTECTED_CHANGE violations on the agent's session, want %d\n%s", n, tc.charged, res.err)
			}
			if tc.person && !strings.Contains(res.err, "not recorded against session") {
				t.Errorf("the refusal does not say why the session is not charged:\n%s", res.err)
			}
		})
	}
}
