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
		{"no commit in the phase", reverify, []Evidence{commit("HANDOFF", 1), run(2)}, false},
		{"no order asked", protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch."},
			[]Evidence{commit("GIT_OPERATIONS", 1), run(2)}, false},
		{"after commit asks no such order", protocolspec.Requirement{ID: "GIT_OPERATIONS.re-verify-branch-before", Text: "Re-verify the branch after you commit."},
			[]Evidence{commit("GIT_OPERATIONS", 1), run(2)}, false},
		{"a claim after the commit", protocolspec.Requirement{ID: "GIT_OPERATIONS.fix", Text: "Fix what the checks report before you commit."},
			[]Evidence{commit("GIT_OPERATIONS", 1), {Phase: "GIT_OPERATIONS", Requirement: "GIT_OPERATIONS.fix", Kind: EvidenceToolOutput, CreatedAt: at(2)}}, true},
	} {
		got := commitOrderGap(p, tt.r, tt.evs)
		if (got != "") != tt.gap {
			t.Errorf("%s: commitOrderGap = %q, want a gap: %v", tt.name, got, tt.gap)
		}
		if got != "" && !strings.Contains(got, "then commit") {
			t.Errorf("%s: the gap does not say what to do: %q", tt.name, got)
		}
	}
}
