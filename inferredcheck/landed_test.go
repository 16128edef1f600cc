package inferredcheck

import (
	"strings"
	"testing"
)

// TestLandedOnDefault: the session's commits on the local default branch
// fail, naming the first and the way back; none pass.
func TestLandedOnDefault(t *testing.T) {
	if r := LandedOnDefault("main", nil); r.Status != Pass {
		t.Errorf("nothing held: %v %s", r.Status, r.Message)
	}
	r := LandedOnDefault("main", []CommitSubject{{SHA: "0123456789abcdef", Subject: "feat: a"}, {SHA: "fedcba9876543210", Subject: "feat: b"}})
	if r.Status != Fail || !strings.Contains(r.Message, "2 commit(s)") || !strings.Contains(r.Message, "git branch -f main fedcba987654^") {
		t.Errorf("held: %v %s", r.Status, r.Message)
	}
}
