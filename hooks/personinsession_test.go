package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPersonCommitInSessionSaysWhy (round 61, helper 351, F3): while an
// agent's session is active in the worktree, a commit that git's
// environment and ancestry take for a person's is still the session's
// (rule 1 of docs/security.md, "People beside agents": an agent that runs
// env -i under setsid, nohup, tmux, systemd-run or at looks the same, so
// taking it out of the session would take that agent out of its gates).
// It keeps the session's Session-Id; refused by a gate, it now says why
// and how a person commits as themself (another worktree, or after the
// session), where before it named only the agent's gate. The agent's own
// refused commit gets no such line.
func TestPersonCommitInSessionSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name           string
		person, inInit bool
	}{
		{"a person, start gates pending", true, true},
		{"the agent, start gates pending", false, true},
		{"a person, the session's pre-commit check fails", true, false},
		{"the agent, the session's pre-commit check fails", false, false},
	} {
		person := tc.person
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			body := "a note\n"
			if tc.inInit {
				r.sg(r.root, "session", "start", "--objective", "test the hooks") // INIT: pre-commit refuses commits
			} else {
				r.startWorking(r.root)
				body = "FORBIDDEN\n" // testProtocol's pre-commit check fails on it
			}
			if person {
				r.asPerson()
			}
			writeFile(t, filepath.Join(r.root, "note.txt"), body)
			r.git("add", "note.txt")
			res := r.commit(r.root, nil, "-m", "a quick note")
			if res.code != 1 {
				t.Fatalf("commit: exit %d, want 1\n%s", res.code, res.err)
			}
			says := strings.Contains(res.err, "git worktree add") && strings.Contains(res.err, "whoever runs git")
			if says != person {
				t.Errorf("refusal names the person's ways out: %v, want %v\n%s", says, person, res.err)
			}
		})
	}
	// The route stays closed: a person-looking commit in a working
	// session is stamped with the session's id, as a detached agent's is.
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	r.asPerson()
	writeFile(t, filepath.Join(r.root, "note.txt"), "a note\n")
	r.git("add", "note.txt")
	if res := r.commit(r.root, nil, "-m", "a quick note"); res.code != 0 {
		t.Fatalf("commit: exit %d\n%s", res.code, res.err)
	}
	if msg := r.git("log", "-1", "--format=%B"); !strings.Contains(msg, "Session-Id: "+id) {
		t.Errorf("a person-looking commit in the session lost the session's trailer:\n%s", msg)
	}
}
