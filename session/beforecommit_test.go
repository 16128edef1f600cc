package session

import (
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestCommitOrderGap: a "before commit" requirement's evidence counts only
// when it came before a commit of its phase; the adversarial pass ran the
// branch check after committing and it counted.
func TestCommitOrderGap(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	zero := 0
	run := func(s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Requirement: "GIT_OPERATIONS.re-verify-branch-before", Origin: OriginObserved,
			Command: "git branch --show-current", ExitCode: &zero, CreatedAt: at(s)}
	}
	commit := func(phase string, s int) Evidence {
		return Evidence{Phase: phase, Kind: EvidenceCommitSHA, Origin: OriginObserved, Step: HookPostCommit, CreatedAt: at(s)}
	}
	one := 1
	shown := func(phase string, s int) Evidence {
		return Evidence{Phase: phase, Origin: OriginObserved, Command: "git branch --show-current", ExitCode: &zero, CreatedAt: at(s)}
	}
	failed := func(phase string, s int) Evidence {
		e := shown(phase, s)
		e.ExitCode = &one
		return e
	}
	listed := func(phase string, s int) Evidence {
		e := shown(phase, s)
		e.Command = "git branch --list zzz"
		return e
	}
	p := &protocolspec.Phase{ID: "GIT_OPERATIONS"}
	reverify := protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch before commit."}
	for _, tt := range []struct {
		name string
		r    protocolspec.Requirement
		evs  []Evidence
		gap  bool
	}{
		{"run, then commit", reverify, []Evidence{run(1), commit("GIT_OPERATIONS", 2)}, false},
		{"commit, then run", reverify, []Evidence{commit("GIT_OPERATIONS", 1), run(2)}, true},
		{"run, commit, run again", reverify, []Evidence{run(1), commit("GIT_OPERATIONS", 2), run(3)}, false},
		{"commit, run, commit", reverify, []Evidence{commit("GIT_OPERATIONS", 1), run(2), commit("GIT_OPERATIONS", 3)}, false},
		// The phase made no commit: the session's last one is judged when
		// another protocol phase made it (the adversarial pass committed in
		// HANDOFF, then re-verified in GIT_OPERATIONS).
		{"commit in an earlier phase, then run", reverify, []Evidence{commit("HANDOFF", 1), run(2)}, true},
		{"checked in the earlier phase before its commit", reverify, []Evidence{shown("HANDOFF", 1), commit("HANDOFF", 2), run(3)}, false},
		{"the start's check before the work's and the handoff's commits", reverify,
			[]Evidence{shown("BRANCH_CHECK", 1), commit("", 2), commit("HANDOFF", 3), run(4)}, true},
		{"checked after the work's commit, before the handoff's", reverify,
			[]Evidence{shown("BRANCH_CHECK", 1), commit("", 2), shown("HANDOFF", 3), commit("HANDOFF", 4), commit("HANDOFF", 5), run(6)}, false},
		{"a failed check is no check", reverify, []Evidence{failed("HANDOFF", 1), commit("HANDOFF", 2), run(3)}, true},
		{"another command is no check", reverify, []Evidence{listed("HANDOFF", 1), commit("HANDOFF", 2), run(3)}, true},
		{"last commit made while working", reverify, []Evidence{commit("", 1), run(2)}, false},
		{"no commit at all", reverify, []Evidence{run(1)}, false},
		{"a later phase's commit after the check", reverify, []Evidence{shown("HANDOFF", 1), commit("HANDOFF", 2), run(3), commit("RETROSPECTIVE", 4)}, false},
		{"a later phase's commit, and the earlier one unchecked", reverify, []Evidence{commit("HANDOFF", 1), run(2), commit("RETROSPECTIVE", 3)}, true},
		{"no order asked", protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch."},
			[]Evidence{commit("GIT_OPERATIONS", 1), run(2)}, false},
		{"after commit asks no such order", protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch after you commit."},
			[]Evidence{commit("GIT_OPERATIONS", 1), run(2)}, false},
		{"a claim after the commit", protocolspec.Requirement{ID: "GIT_OPERATIONS.fix", Text: "Fix what the checks report before you commit."},
			[]Evidence{commit("GIT_OPERATIONS", 1), {Phase: "GIT_OPERATIONS", Requirement: "GIT_OPERATIONS.fix", Kind: EvidenceToolOutput, CreatedAt: at(2)}}, true},
	} {
		got := commitOrderGap(p, tt.r, tt.evs, Config{sessionEvidence: tt.evs})
		if (got != "") != tt.gap {
			t.Errorf("%s: commitOrderGap = %q, want a gap: %v", tt.name, got, tt.gap)
		}
		if got != "" && !strings.Contains(got, "then commit") {
			t.Errorf("%s: the gap does not say what to do: %q", tt.name, got)
		}
	}
}

// TestStaleBranchCheck: a branch check's run is stale when the phase's
// commit is not on the branch it showed (c3's lazy pass 24: check on
// main, `git switch -c other`, commit there). Round 24 review (c8): it
// was judged against HEAD at the time of reading, so an honest agent that
// committed on the checked branch and then switched back (`git switch
// main` after pushing) had the check read as stale at the next gate.
func TestStaleBranchCheck(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	zero := 0
	check := func(branch string, s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Requirement: "GIT_OPERATIONS.re-verify-branch-before", Origin: OriginObserved,
			Command: "git branch --show-current", ExitCode: &zero, CreatedAt: at(s), Ref: "git branch --show-current, on branch " + branch}
	}
	commit := func(sha string, s int) Evidence {
		return Evidence{Phase: "GIT_OPERATIONS", Kind: EvidenceCommitSHA, Origin: OriginObserved, Step: HookPostCommit, CreatedAt: at(s), Ref: sha}
	}
	// Which branch holds which commit.
	holds := map[string]bool{"feature c1": true, "other c2": true, "main c0": true}
	p := &protocolspec.Phase{ID: "GIT_OPERATIONS"}
	reverify := protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch before commit."}
	for _, tt := range []struct {
		name string
		evs  []Evidence
		head string
		gap  bool
	}{
		{"lazy: checked feature, committed on other, HEAD on other", []Evidence{check("feature", 1), commit("c2", 2)}, "other", true},
		{"honest: checked feature, committed there, HEAD still there", []Evidence{check("feature", 1), commit("c1", 2)}, "feature", false},
		{"honest: checked feature, committed there, then switched to main", []Evidence{check("feature", 1), commit("c1", 2)}, "main", false},
		{"honest: checked, nothing committed yet, HEAD on the branch", []Evidence{check("feature", 1)}, "feature", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{sessionEvidence: tt.evs, headBranch: tt.head,
				branchHolds: func(branch, sha string) bool { return holds[branch+" "+sha] }}
			got := commitOrderGap(p, reverify, tt.evs, cfg)
			if (got != "") != tt.gap {
				t.Errorf("gap %q, want a gap: %v", got, tt.gap)
			}
		})
	}
}
