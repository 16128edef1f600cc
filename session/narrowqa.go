package session

import (
	"context"
	"fmt"
	"sort"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/qaevidence"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// A narrowed pass after a failure is no QA: qaevidence/ decides it from
// the session's test runs; testRuns picks them from its evidence.

// testRuns are the test-suite runs sessiongate observed in evs, in the
// order they were recorded (ids grow as rows are written; times may
// tie). A run whose status is unknown (-1) is kept: it did not pass.
func testRuns(evs []Evidence) []qaevidence.Run {
	var obs []Evidence
	for _, e := range evs {
		if e.Origin == OriginObserved && e.ExitCode != nil && shellline.RunsTests(e.Command) {
			obs = append(obs, e)
		}
	}
	sort.SliceStable(obs, func(i, j int) bool { return obs[i].ID < obs[j].ID })
	runs := make([]qaevidence.Run, len(obs))
	for i, e := range obs {
		runs[i] = qaevidence.Run{Command: e.Command, Exit: *e.ExitCode, Status: e.Ref, At: e.CreatedAt}
	}
	return runs
}

// narrowedQA fails a QA phase's gate that passed on the agent's runs while
// a failing test-suite run of the session is unanswered. A phase whose
// gate runs a command of its own ran the suite itself and is not judged
// here.
//
// It also fails the phase when the last passing run saw other files than
// the tree holds now (staleRunCheck; at: "" for the work tree, "HEAD" at
// the end).
func (e *Engine) narrowedQA(ctx context.Context, s *Session, p *protocolspec.Phase, at string) (*CheckResult, error) {
	if p.Section != protocolspec.SectionEnd || !qaPhase(p, e.Config) || e.hasCommand(p) {
		return nil, nil
	}
	evs, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil, fmt.Errorf("load the session's test runs: %w", err)
	}
	if u := qaevidence.FirstUnanswered(testRuns(evs)); u != nil {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail, Message: u.Message(p.ID)}, nil
	}
	// Only a run of the whole suite is QA (suiteqa.go), and it must have
	// seen the tree as it is now.
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, err
	}
	runs, why, err := e.wholeRuns(ctx, repo, evs, p.ID)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 && why == "" {
		// A qa sub-agent the CLI does not have: the whole run the agent
		// made in any phase answers it, held to what it saw below
		// (unwitnessedqa.go).
		cr, set, err := e.unwitnessedDelegateQA(ctx, repo, s, p, evs)
		if cr != nil || err != nil {
			return cr, err
		}
		runs, why = set.runs, set.why
		if len(runs) > 0 && at == "" {
			// Its tree holds the untracked files; so must the one now.
			if at, err = workTreeTreeAll(ctx, repo); err != nil {
				return nil, fmt.Errorf("read the work tree's tree: %w", err)
			}
		}
	}
	if why != "" {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
			Message: fmt.Sprintf("%s: no passing run of the whole test suite: %s; a narrow run is for debugging, run the suite (no filter, every package or test folder of the project) and make it pass", p.ID, why)}, nil
	}
	// Each runner the work touched needs its own whole run (suiteqa.go).
	miss, taken, err := e.missingSuite(ctx, repo, s, runs)
	if err != nil {
		return nil, err
	}
	if miss != nil && miss.Family == testrun.ScriptFamily {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
			Message: fmt.Sprintf("%s: the session changed %s, which the test script %s exercises, and no passing whole run reached a test script that names it: a run of another script does not test it; run `%s` (or a suite that runs it) and make it pass", p.ID, miss.File, miss.Script, miss.Command())}, nil
	}
	if miss != nil && miss.Family == testrun.FolderFamily {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
			Message: fmt.Sprintf("%s: the session changed %s, inside %s, which has its own tests (`%s`), and no passing whole run was made there or above it: a run in another subproject does not test it; run `%s` and make it pass", p.ID, miss.File, miss.Root+"/", miss.Script, miss.Command())}, nil
	}
	if miss != nil {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail,
			Message: fmt.Sprintf("%s: the session changed %s, whose tests are another runner's suite (`%s`), and no passing whole run of it was recorded: a run of one runner's suite does not test another's; run `%s` and make it pass", p.ID, miss.File, miss.Command(), miss.Command())}, nil
	}
	// Every whole run taken must have seen the tree as it is now: the
	// newest, and the newest of each other suite the change needs.
	for _, run := range taken {
		cr, err := e.staleRunCheck(ctx, s, p, run, at)
		if cr != nil || err != nil {
			return cr, err
		}
	}
	return nil, nil
}
