package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/delegate"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
	"github.com/sessiongate/sessiongate/transcript"
)

// unwitnessedDelegateQA judges a QA phase that routes to a sub-agent
// ("MUST invoke the qa agent") under an agent CLI whose hooks observe its
// shell but that has no sub-agent a transcript could show (Codex,
// Copilot, Gemini), when the session changed files the project's tests
// exercise. Claude Code's transcript shows the sub-agent's run
// (delegateNeeds); elsewhere only a report file was left to prove it, and
// a lazy agent under the real Codex CLI wrote one by hand, never ran the
// tests, and ended COMPLETE, clean (round 25, c4,
// TestCodexLazyV1222SkipsTests). The qa agent runs the tests; the honest
// agent does what it would, in its own shell, where the hooks see it,
// in any phase (it often runs them while working, then writes the report).
//
// Any passing run was enough at first; round 25 c10 played two that
// were not through the real CLIs: a run made before the code was broken,
// and `sh -n scripts/test.sh`, which runs no check
// (TestCodexLazyV1222StaleRun, TestCodexLazyV1222RunsNothing). So the
// runs it returns are the session's passing whole-suite runs of any
// phase that recorded the tree they saw (newest first), and why the
// newest falls short; narrowedQA holds them to the suites the change
// needs and to the tree committed (staleRunCheck), as a QA-phase run is.
// A nil result and no runs when the phase is not such a phase.
func (e *Engine) unwitnessedDelegateQA(ctx context.Context, repo Repo, s *Session, p *protocolspec.Phase, evs []Evidence) (*CheckResult, wholeSet, error) {
	name := ""
	for _, r := range p.OwedRequirements() {
		if n := delegate.Name(r); n != "" {
			name = n
			break
		}
	}
	if name == "" {
		return nil, wholeSet{}, nil
	}
	agent := hookAgent(evs)
	if agent == "" {
		// No agent hooks: a claim is all there is. Claude Code's
		// transcript shows the sub-agent was called, not what it did: a
		// qa sub-agent told to "reply PASS and run nothing" met the phase
		// (round 56, helper 333, TestR56ClaudeQASubAgentRunsNothing). Its
		// own Bash calls reach the hooks (agent_id), so an honest qa
		// run is observed as under the other CLIs.
		return nil, wholeSet{}, nil
	}
	tl, ok := repo.(TreeLister)
	if !ok {
		return nil, wholeSet{}, nil
	}
	files, err := tl.TreeFiles(ctx, "HEAD")
	if err != nil {
		return nil, wholeSet{}, fmt.Errorf("list the files at HEAD: %w", err)
	}
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return nil, wholeSet{}, fmt.Errorf("list the files the session changed: %w", err)
	}
	needs := append(testrun.SuitesNeeded(ctx, repo, "HEAD", files, changed, e.isDoc), testrun.ScriptNeeds(ctx, repo, "HEAD", s.StartCommit, files, changed, e.isDoc)...)
	if len(needs) == 0 {
		return nil, wholeSet{}, nil
	}
	all, why, err := e.wholeRuns(ctx, repo, evs, "")
	if err != nil {
		return nil, wholeSet{}, err
	}
	// A run that recorded no tree cannot show what it tested; one outside
	// the QA phase was not judged as a QA run when recorded, so what the
	// session changed in what it runs is judged here (a test script
	// rewritten to print a pass count, TestCodexLazyV1222WeakScript).
	var runs []*Evidence
	weak := ""
	for _, r := range all {
		if sawTree(r.Ref) == "" {
			continue
		}
		if r.Phase != p.ID {
			w, err := e.weakRun(ctx, repo, s, r.Command)
			if err != nil {
				return nil, wholeSet{}, err
			}
			if w != "" {
				if weak == "" {
					weak = fmt.Sprintf("the passing run (`%s`) proves less: %s", truncate(r.Command, 100), w)
				}
				continue
			}
		}
		runs = append(runs, r)
	}
	if len(runs) > 0 || why != "" {
		return nil, wholeSet{runs, why}, nil
	}
	n := needs[0]
	seen := "no passing test run was observed"
	switch {
	case weak != "":
		seen = weak
	case len(all) > 0 && strings.Contains(all[0].Ref, noTreeHidden):
		seen = fmt.Sprintf("the passing run (`%s`) recorded no tree: git would commit other content than the tests read (its record names the files; undo the update-index flag or clean filter, then run the tests again)", truncate(all[0].Command, 100))
	case len(all) > 0:
		seen = fmt.Sprintf("the passing run (`%s`) recorded no tree it saw", truncate(all[0].Command, 100))
	}
	cannot := fmt.Sprintf("the %s sub-agent's run cannot be seen under %s (it has no such sub-agent)", name, agent)
	if agent == transcript.Claude {
		cannot = fmt.Sprintf("a call of the %s sub-agent shows it was asked, not that it tested (its Bash calls reach the hooks)", name)
	}
	return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
		Message: fmt.Sprintf("%s: %s, and %s though the session changed %s: a report is no QA; run the tests the %s agent runs (`%s`) in the session and make them pass", p.ID, cannot, seen, n.File, name, n.Command())}, wholeSet{}, nil
}

// weakRun says why a passing test run made outside the QA phase proves
// less, judged as a QA-phase run is when recorded (observed.go), from
// the files alone: what `make test` or the test script runs is the
// project's, not weakened, skips none the start ran, and the change's new
// tests check something. "" when it holds.
func (e *Engine) weakRun(ctx context.Context, repo Repo, s *Session, cmd string) (string, error) {
	if why, err := testrun.WeakScript(ctx, repo, s.StartCommit, cmd); why != "" || err != nil {
		return why, err
	}
	cs, err := e.inputChanges(ctx, repo, s, cmd, false)
	if err != nil {
		return "", err
	}
	if weak, _ := testrun.SplitChanges(cs); len(weak) > 0 {
		return "what it runs changed in this session so that it proves less (" + truncate(strings.Join(weak, "; "), 300) + ")", nil
	}
	skips, err := testrun.SkipsAddedIn(ctx, repo, s.StartCommit, testrun.RunEnv(nil, cmd))
	if err != nil {
		return "", err
	}
	if len(skips) > 0 {
		return "the session's change skips tests the start ran (" + truncate(strings.Join(skips, "; "), 300) + ")", nil
	}
	return weakNewTests(ctx, repo, s)
}

// workTreeTreeAll is the tree of the work tree's tracked and untracked
// files (gitrepo WorkTreeTreeAll), the tracked ones only where the repo
// cannot say.
func workTreeTreeAll(ctx context.Context, repo Repo) (string, error) {
	if r, ok := repo.(interface {
		WorkTreeTreeAll(context.Context) (string, error)
	}); ok {
		return r.WorkTreeTreeAll(ctx)
	}
	return repo.WorkTreeTree(ctx)
}

// wholeSet is what wholeRuns found: the whole runs, newest first, and why
// the newest run falls short when none is whole.
type wholeSet struct {
	runs []*Evidence
	why  string
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
