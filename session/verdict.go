package session

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// DecisionNothingChecked is the decision of a BLOCKING or REQUIRED phase
// whose gate ran and checked nothing (a linter that linted 0 files, a test
// run without tests): not a failure the agent can fix on the spot, so it
// does not block, but never a pass either, so the session is not clean.
const DecisionNothingChecked = "NOTHING_CHECKED"

// nothingCheckedMark ends the message of a check that ran and checked
// nothing (nothingCheckedStatus); checkedNothing reads it back.
const nothingCheckedMark = "nothing was checked, which is not a pass"

// checkedNothing reports whether a skipped gate skipped because a check
// ran and checked nothing, not because there was nothing to check (no
// matching file changed, no commit yet).
func checkedNothing(cs []CheckResult) bool {
	for _, c := range cs {
		if c.Status == StatusSkipped && strings.Contains(c.Message, nothingCheckedMark) {
			return true
		}
	}
	return false
}

// PhaseNotClean is the one rule every surface (CLI, MCP, dashboard,
// verify) applies to a phase result: why it keeps the session from being
// clean, or "" when it does not. A forced gate, a failing gate skipped
// because it could not block, and a mandatory gate that checked nothing
// are never clean. A mandatory phase skipped on a condition that was
// checked (CONDITION_NOT_MET), on a docs-only --skip-qa that was checked,
// or with nothing to check (no matching file changed) is clean; one
// marked not applicable is judged by its mark (PendingNA).
func PhaseNotClean(level, status, decision string) string {
	switch {
	case status == string(PhaseForced):
		return NotCleanForced
	case decision == DecisionNothingChecked && protocolspec.GateLevel(level).Mandatory() &&
		(status == string(PhaseSkipped) || status == string(PhasePassed)):
		// PASSED when another check of the gate passed beside it.
		return NotCleanNothingChecked
	case status != string(PhaseSkipped):
		return ""
	case strings.Contains(decision, "gate failed"):
		return NotCleanSkipped
	}
	return ""
}

// What PhaseNotClean says, each the start of a clause listing phases.
const (
	NotCleanForced         = "forced past failing gate(s)"
	NotCleanSkipped        = "failing gate(s) skipped:"
	NotCleanNothingChecked = "BLOCKING/REQUIRED gate(s) that checked nothing:"
)

// notCleanClauses groups the phases PhaseNotClean names by why, in a
// fixed order: "forced past failing gate(s) A", "failing gate(s) skipped: B".
func notCleanClauses(ps []PhaseResult) []string {
	by := map[string][]string{}
	for _, p := range ps {
		if why := ResultNotClean(p); why != "" {
			by[why] = append(by[why], p.PhaseID)
		}
	}
	var out []string
	for _, why := range []string{NotCleanForced, NotCleanSkipped, NotCleanNothingChecked} {
		if len(by[why]) > 0 {
			out = append(out, why+" "+strings.Join(by[why], ", "))
		}
	}
	return out
}

// Verdict is the one line a person (or an agent, over MCP) reads about a
// session: its state, and whatever keeps it from being clean (violations,
// phases PhaseNotClean names, not-applicable marks no person accepted).
// A session with any of them is never called clean.
func Verdict(v *StateView) string {
	s := v.Session
	not := NotCleanReasons(v)
	switch {
	case len(not) > 0:
		return fmt.Sprintf("%s, not clean: %s", s.State, strings.Join(not, "; "))
	case s.State == StateComplete:
		return fmt.Sprintf("%s: clean (every gate passed, no violations)", s.State)
	}
	return string(s.State)
}
