package verify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestVerifyRecheckedClaims: what a record claims about git (its start
// and end commits, that a commit_since_start gate passed, the branch) is
// decided again from git; a record whose claims git contradicts fails,
// naming the claim. The session block is outside the snapshot ids, so
// these edits keep the ids recomputing: only git can tell.
func TestVerifyRecheckedClaims(t *testing.T) {
	tests := []struct {
		name          string
		session       func(m map[string]any, base, head string)
		branch, defBr string
		want          string // "" = passes
	}{
		{name: "honest, CI on the branch the record names", branch: "main", defBr: "main"},
		{name: "honest, no branch from the CI"},
		{name: "start commit moved to the work commit", session: func(m map[string]any, _, head string) {
			m["start_commit"] = head
		}, want: "but this commit is not after that commit"},
		{name: "end commit moved back to the start", session: func(m map[string]any, base, _ string) {
			m["end_commit"] = base
		}, want: "phase GIT_OPERATIONS passed commit_since_start, but git holds no commit after the start commit"},
		{name: "a start commit git does not have", session: func(m map[string]any, _, _ string) {
			m["start_commit"] = "0123456789abcdef0123456789abcdef01234567"
		}, want: "start_commit 0123456789ab is not a commit of this repository"},
		{name: "an end commit that does not descend from the start", session: func(m map[string]any, base, head string) {
			m["start_commit"], m["end_commit"] = head, base
		}, want: "which does not descend from its start commit"},
		{name: "branch main for work on a feature branch", branch: "feature", defBr: "main",
			want: "the record says the session ran on branch main, but its commits reach CI from branch feature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			head := gittest.Git(t, dir, "rev-parse", "HEAD")
			if tc.session != nil {
				replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) { tc.session(m["session"].(map[string]any), base, head) }))
			}
			bl := &verify.Baseline{Rev: base, ProtocolPath: "P.md", Protocol: []byte(protocol)}
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref, Baseline: bl, Branch: tc.branch, DefaultBranch: tc.defBr})
			if err != nil {
				t.Fatal(err)
			}
			problems := strings.Join(rep.Commits[0].Problems, "\n")
			if tc.want == "" {
				if !rep.OK {
					t.Fatalf("an honest record failed:\n%s", problems)
				}
				return
			}
			if rep.OK || !strings.Contains(problems, tc.want) || !strings.Contains(problems, "claim contradicted by git") {
				t.Fatalf("want a failure naming %q:\n%s", tc.want, problems)
			}
		})
	}
}
