package session

import (
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR60H347LateBranchCheckFix: an honest agent that ran "Re-verify the
// branch before commit" after committing was told to record a manual note
// ("fix: sessiongate session evidence ... --type manual"), which is as late
// as the run and never met it. The fix is the run, then a commit; the
// reason names the amend that recommits without a new change. A claim made
// late still reads open, and a run before the commit still meets it.
func TestR60H347LateBranchCheckFix(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	zero := 0
	const id = "GIT_OPERATIONS.re-verify-branch-before"
	run := func(s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Requirement: id, Origin: OriginObserved,
			Command: "git branch --show-current", ExitCode: &zero, CreatedAt: at(s)}
	}
	note := func(s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Requirement: id, Kind: EvidenceManual, SHA256: "n", CreatedAt: at(s)}
	}
	commit := func(s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Kind: EvidenceCommitSHA, Origin: OriginObserved, Step: HookPostCommit, CreatedAt: at(s)}
	}
	p := &protocolspec.Phase{ID: "GIT_OPERATIONS", Requirements: []protocolspec.Requirement{
		{ID: id, Level: protocolspec.LevelMust, Text: "Re-verify the branch before commit."}}}
	for _, tt := range []struct {
		name     string
		evs      []Evidence
		open     bool
		fix      StepAction // when open
		inReason string
	}{
		{"run after the commit", []Evidence{commit(1), run(2)}, true, StepRunObserved, "--amend"},
		{"run and a note after the commit", []Evidence{commit(1), run(2), note(3)}, true, StepRunObserved, "--amend"},
		{"run before the commit", []Evidence{run(1), commit(2)}, false, "", ""},
		{"a note alone never meets a branch check", []Evidence{commit(1), note(2)}, true, StepRunObserved, "needs observed evidence"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sts := requirementStatuses(p, tt.evs, Config{sessionEvidence: tt.evs})
			if len(sts) != 1 {
				t.Fatalf("%d statuses, want 1", len(sts))
			}
			st := sts[0]
			if (st.Status == ReqOpen) != tt.open {
				t.Fatalf("status %s (%s), want open: %v", st.Status, st.Reason, tt.open)
			}
			if !tt.open {
				return
			}
			if !strings.Contains(st.Reason, tt.inReason) {
				t.Errorf("reason %q does not say %q", st.Reason, tt.inReason)
			}
			if got := openFix(p, st); got.Action != tt.fix {
				t.Errorf("fix %s (%+v), want %s", got.Action, got, tt.fix)
			}
		})
	}
}
