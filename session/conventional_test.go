package session

import "testing"

// TestConventionalSubject: git's wrappers pass only around a conventional
// subject; typed by hand around anything ("fixup! wip", `Revert "stuff"`)
// they had passed every message (adversarial pass, issue 25).
func TestConventionalSubject(t *testing.T) {
	for _, tt := range []struct {
		subject string
		want    bool
	}{
		{"feat(scripts): greet takes a name", true},
		{"fix!: drop the flag", true},
		{"wip", false},
		{"fixup! feat(scripts): greet takes a name", true},
		{"squash! docs: usage", true},
		{"amend! fix: x", true},
		{"fixup! fixup! feat: x", true},
		{`Revert "docs: usage"`, true},
		{`Revert "Revert "docs: usage""`, true},
		{`Reapply "docs: usage"`, true},
		{"fixup! " + `Revert "docs: usage"`, true},
		{"fixup! wip", false},
		{"fixup! ", false},
		{`Revert "stuff"`, false},
		{`Revert "docs: usage`, false},
		{"squash! whatever lol", false},
	} {
		if got := conventionalSubject(tt.subject); got != tt.want {
			t.Errorf("conventionalSubject(%q) = %v, want %v", tt.subject, got, tt.want)
		}
	}
}

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
		if got := sessionCommit(tt.c, "s1"); got != tt.want {
			t.Errorf("%s: sessionCommit = %v, want %v", tt.name, got, tt.want)
		}
	}
}
