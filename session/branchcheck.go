package session

import (
	"regexp"
	"strings"
	"sync"

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

// shownBranch is the branch a branch check's run showed, given the branch
// HEAD is on once it ended: head when its output names head (`git branch
// --show-current`, `git status`'s "On branch", `git status -sb`'s "## head...",
// `git branch`'s "* head"), "?" when the run printed something that does not
// (no branch can be named "?"). Lazy: `git branch --show-current && git
// switch -c other` in one run showed the old branch and was recorded on
// other, the branch the commit then went to (round 24 second review). A
// run whose output the hook did not pass (nil) keeps head.
func shownBranch(out []byte, head string) string {
	if len(out) == 0 || head == "" {
		return head
	}
	text := ansiRE().ReplaceAllString(string(out), "")
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], head)
		if j < 0 {
			break
		}
		a, b := i+j, i+j+len(head)
		before := a == 0 || !branchByte(text[a-1])
		after := b == len(text) || !branchByte(text[b]) || strings.HasPrefix(text[b:], "...")
		if before && after {
			return head
		}
		i = a + 1
	}
	return "?"
}

// branchByte: a byte that can continue a branch name in output.
func branchByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '/' || c == '.'
}

var ansiRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`) })

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
