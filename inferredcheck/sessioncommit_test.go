package inferredcheck

import "testing"

// TestSessionCommit: a commit off the first-parent line is the session's
// only with its trailer; a bare one there came in with a merge.
func TestSessionCommit(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    CommitSubject
		want bool
	}{
		{"first parent, this session", CommitSubject{SessionID: "s1", FirstParent: true}, true},
		{"first parent, no trailer", CommitSubject{FirstParent: true}, true},
		{"first parent, another session", CommitSubject{SessionID: "s2", FirstParent: true}, false},
		{"merged in, this session", CommitSubject{SessionID: "s1"}, true},
		{"merged in, no trailer", CommitSubject{}, false},
		{"merged in, another session", CommitSubject{SessionID: "s2"}, false},
	} {
		if got := SessionCommit(tt.c, "s1"); got != tt.want {
			t.Errorf("%s: SessionCommit = %v, want %v", tt.name, got, tt.want)
		}
	}
}
