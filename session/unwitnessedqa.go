package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/delegate"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
	"github.com/sessiongate/sessiongate/transcript"
)

// unwitnessedDelegateQA fails a QA phase that routes to a sub-agent
// ("MUST invoke the qa agent") under an agent CLI whose hooks observe its
// shell but that has no sub-agent a transcript could show (Codex,
// Copilot, Gemini), when no passing test run was observed and the session
// changed files the project's tests exercise. Claude Code's transcript
// shows the sub-agent's run (delegateNeeds); elsewhere only a report file
// was left to prove it, and a lazy agent under the real Codex CLI wrote
// one by hand, never ran the tests, and ended COMPLETE, clean (round 25,
// c4, TestCodexLazyV1222SkipsTests). The qa agent runs the tests; the
// honest agent does what it would, in its own shell, where the hooks see
// it. "" and nil when the phase is not such a phase or a run was seen.
func (e *Engine) unwitnessedDelegateQA(ctx context.Context, repo Repo, s *Session, p *protocolspec.Phase, evs []Evidence) (*CheckResult, error) {
	name := ""
	for _, r := range p.OwedRequirements() {
		if n := delegate.Name(r); n != "" {
			name = n
			break
		}
	}
	if name == "" {
		return nil, nil
	}
	agent := hookAgent(evs)
	if agent == "" || agent == transcript.Claude {
		return nil, nil // no agent hooks (a claim is all there is), or the transcript shows the sub-agent
	}
	tl, ok := repo.(TreeLister)
	if !ok {
		return nil, nil
	}
	files, err := tl.TreeFiles(ctx, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("list the files at HEAD: %w", err)
	}
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return nil, fmt.Errorf("list the files the session changed: %w", err)
	}
	needs := append(testrun.SuitesNeeded(ctx, repo, "HEAD", files, changed, e.isDoc), testrun.ScriptNeeds(ctx, repo, "HEAD", s.StartCommit, files, changed, e.isDoc)...)
	if len(needs) == 0 {
		return nil, nil
	}
	n := needs[0]
	return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
		Message: fmt.Sprintf("%s: the %s sub-agent's run cannot be seen under %s (it has no such sub-agent), and no passing test run was observed though the session changed %s: a report is no QA; run the tests the %s agent runs (`%s`) in the session and make them pass", p.ID, name, agent, n.File, name, n.Command())}, nil
}

// hookAgent is the agent CLI whose hooks observed the session's shell
// runs (their evidence's Source), "" when none did.
func hookAgent(evs []Evidence) string {
	for i := len(evs) - 1; i >= 0; i-- {
		switch src := evs[i].Source; src {
		case transcript.Claude, transcript.Codex, transcript.Copilot, transcript.Gemini:
			if evs[i].Origin == OriginObserved {
				return src
			}
		}
	}
	return ""
}
