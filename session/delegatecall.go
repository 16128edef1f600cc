package session

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/delegate"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/transcript"
)

// delegateEvidence is the evidence a sub-agent call gives r, if it runs
// the sub-agent r names and did not fail.
func delegateEvidence(r protocolspec.Requirement, c transcript.Call) (Evidence, bool) {
	name := delegate.Name(r)
	if name == "" || c.Failed || !strings.EqualFold(c.Agent, name) {
		return Evidence{}, false
	}
	zero := 0
	return Evidence{Kind: EvidenceToolOutput, Origin: OriginTranscript, SHA256: c.InputSHA256,
		Ref: truncate(fmt.Sprintf("%s %s (call %s)", c.Tool, c.Agent, c.ID), 200), ExitCode: &zero}, true
}

// delegateNeeds says why a claim does not count for a requirement to run
// a sub-agent while Claude Code's transcript is known ("" when it does).
func delegateNeeds(info transcriptInfo, r protocolspec.Requirement) string {
	name := delegate.Name(r)
	// A broken transcript cannot show the call any more; that break is a
	// HIGH TRANSCRIPT_CHANGED violation of its own, and claims count again.
	if name == "" || info.agent != transcript.Claude || info.broken != "" {
		return ""
	}
	if !delegate.Defined(info.worktree, name) && (info.definedAtStart == nil || !info.definedAtStart(name)) {
		return ""
	}
	return fmt.Sprintf("the agent's %s transcript shows no run of the %s sub-agent: %s; a claim or a file does not count while the agent's transcript is known",
		info.agent, name, delegate.Tool(name))
}
