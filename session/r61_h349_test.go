package session

import "testing"

// TestR61H349BehaviourClaimed: a feat, fix or perf commit the session
// reverted claims no behaviour, so its comment-only change is read as
// work, not as none (helper 349: the honest field session that reverted
// its own feat: and committed a comment as docs: failed HANDOFF).
func TestR61H349BehaviourClaimed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		subjects []string
		want     bool
	}{
		{"a feature", []string{"feat(scripts): greet takes a name"}, true},
		{"docs only", []string{"docs(scripts): say what greet prints"}, false},
		{"a feature reverted by git revert", []string{"feat(scripts): greet with emphasis", `Revert "feat(scripts): greet with emphasis"`, "docs(scripts): say what greet prints"}, false},
		{"a feature reverted as revert:", []string{"feat(scripts): greet with emphasis", "revert: feat(scripts): greet with emphasis"}, false},
		{"another feature stays", []string{"feat(scripts): greet with emphasis", `Revert "feat(scripts): greet with emphasis"`, "fix(scripts): greet quotes the name"}, true},
		{"a revert of something else", []string{"feat(scripts): greet takes a name", `Revert "feat(scripts): greet with emphasis"`}, true},
	} {
		if got := behaviourClaimed(tc.subjects); got != tc.want {
			t.Errorf("%s: behaviourClaimed = %v, want %v", tc.name, got, tc.want)
		}
	}
}
