package session

import (
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// A requirement such as v3.0's "Re-verify the branch before commit" names
// no command, so a shell run of `git branch --show-current` seen by the
// agent hooks met nothing: it was filed under the start phase whose text
// quotes that command, and the honest agent was blocked at the end with
// a manual claim as the only way on (field pass, real Claude Code).
// Which run meets such a requirement is toolneed.BranchCheck.

// currentBranchCheck reports whether the session's current phase has a
// branch-check requirement the command meets: such a run is that phase's,
// not the start phase's whose text quotes the command.
func currentBranchCheck(spec *protocolspec.Spec, s *Session, cmd string) bool {
	p, ok := spec.Phase(s.Phase)
	if !ok {
		return false
	}
	for _, r := range p.Requirements {
		if toolneed.BranchCheck(r, cmd) {
			return true
		}
	}
	return false
}

// branchCheckRun reports whether cmd meets a branch-check requirement of
// phase (toolneed.BranchCheck): its evidence then records the branch.
// A run bound to such a requirement (`run --requirement R -- sh -c "git
// branch --show-current && git switch -c other"`) counts for it whatever
// its line, so it records the branch too (round 24 second review: the
// chained switch was recorded on no branch and the commit on other
// passed).
func branchCheckRun(spec *protocolspec.Spec, phase, cmd, reqID string) bool {
	p, ok := spec.Phase(phase)
	if !ok {
		return false
	}
	for _, r := range p.Requirements {
		if toolneed.BranchCheck(r, cmd) || reqID != "" && r.ID == reqID && toolneed.AsksBranchCheck(r) {
			return true
		}
	}
	return false
}

// workingBranchCheck is the end phase whose branch-check requirement a run
// made while working meets ("" when none): the honest agent re-verifies
// the branch right before it commits, still working, and the run was
// filed under the start phase whose text quotes the command, so the end
// phase's "Re-verify the branch before commit" stayed open. Under Codex
// its transcript found the run; under Copilot nothing did, and the honest
// session was blocked at session end (round 24, TestCopilotHonestV3Task).
// The order against commits is still commitOrderGap's.
func workingBranchCheck(spec *protocolspec.Spec, s *Session, cmd string) string {
	if s.State != StateWorking {
		return ""
	}
	for i := range spec.Phases {
		p := &spec.Phases[i]
		if p.Section != protocolspec.SectionEnd {
			continue
		}
		for _, r := range p.Requirements {
			if toolneed.BranchCheck(r, cmd) {
				return p.ID
			}
		}
	}
	return ""
}

// logCheckRun reports whether cmd, run for phase (bound to reqID, or
// quoted by one of its requirements), is a requirement's review of the
// recent commits: it runs git log, and the requirement quotes git log.
func logCheckRun(spec *protocolspec.Spec, phase, cmd, reqID string) bool {
	if !toolneed.RunsLog(cmd) {
		return false
	}
	p, ok := spec.Phase(phase)
	if !ok {
		return false
	}
	for _, r := range p.Requirements {
		if toolneed.AsksLog(r) && (reqID == "" || r.ID == reqID) {
			return true
		}
	}
	return false
}
