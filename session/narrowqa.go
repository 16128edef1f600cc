package session

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// A narrowed pass after a failure is no QA (issue 25): `go test ./...`
// failed, then `go test -run TestAdd ./pkg` passed, and the QA phase took
// the narrow pass. Once a test-suite run failed in the session, only a
// later run that covers at least what the failing one covered (the same
// command or a broader one: no -run/-k/-skip/--filter or test name it
// lacked, no fewer packages or paths; shellline.TestRun.Narrowing) and
// passed answers it. Narrow runs to debug stay free: a full run that
// passes afterwards answers them too.

// unansweredFailure is a failing test-suite run no later passing run covers.
type unansweredFailure struct {
	run  Evidence
	test shellline.TestRun // the failing run's scope
	// lastPass is the latest passing run of the same runner after it
	// ("" when none), and why it falls short.
	lastPass, short string
}

// firstUnanswered returns the earliest failing test-suite run among the
// session's observed evidence that no later passing run covers.
func firstUnanswered(evs []Evidence) *unansweredFailure {
	var runs []Evidence
	for _, e := range evs {
		// A run whose status is unknown (-1: `go test ./... | tail`, a
		// filter that matched nothing, untracked inputs) counts as one that
		// did not pass: hiding the failure behind a pipe does not free the
		// narrow run that follows.
		if e.Origin == OriginObserved && e.ExitCode != nil && shellline.RunsTests(e.Command) {
			runs = append(runs, e)
		}
	}
	// Recorded order: ids grow as rows are written (times may tie).
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	for i, f := range runs {
		if *f.ExitCode == 0 {
			continue
		}
		for _, ft := range shellline.TestRuns(f.Command) {
			u := &unansweredFailure{run: f, test: ft}
			answered := false
			for _, p := range runs[i+1:] {
				if *p.ExitCode != 0 {
					continue
				}
				for _, pt := range shellline.TestRuns(p.Command) {
					why := pt.Narrowing(ft)
					if why == "" {
						answered = true
						break
					}
					if pt.Runner == ft.Runner {
						u.lastPass, u.short = p.Command, why
					}
				}
				if answered {
					break
				}
			}
			if !answered {
				return u
			}
		}
	}
	return nil
}

// message says which failing run is unanswered and what would answer it.
func (u *unansweredFailure) message(phase string) string {
	how := fmt.Sprintf("failed (exit %d", *u.run.ExitCode)
	if *u.run.ExitCode < 0 {
		how = "did not pass (its status is unknown: " + truncate(u.run.Ref, 80)
	}
	s := fmt.Sprintf("%s: `%s` %s, at %s) and no later passing run covers it", phase, truncate(u.run.Command, 100),
		how, u.run.CreatedAt.UTC().Format(time.TimeOnly))
	if u.lastPass != "" {
		s += fmt.Sprintf(" (the later pass `%s` has %s)", truncate(u.lastPass, 100), u.short)
	}
	return s + fmt.Sprintf(": a narrower run passing proves only its part; run `%s` (or a broader run) and make it pass", truncate(u.run.Command, 100))
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
	if u := firstUnanswered(evs); u != nil {
		return &CheckResult{Kind: protocolspec.CheckEvidence, Arg: "test run", Status: StatusFail, Message: u.message(p.ID)}, nil
	}
	// Only a run of the whole suite is QA (suiteqa.go), and it must have
	// seen the tree as it is now.
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, err
	}
	runs, why, err := e.wholeRuns(ctx, repo, evs, p.ID, false)
	if err != nil {
		return nil, err
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
