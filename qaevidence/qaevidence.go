// Package qaevidence decides, from a session's test runs alone, whether
// a QA phase may rest on them: a narrowed pass after a failure is no QA
// (issue 25). `go test ./...` failed, then `go test -run TestAdd ./pkg`
// passed, and the QA phase took the narrow pass. Once a test-suite run
// failed, only a later run that covers at least what the failing one
// covered (the same command or a broader one: no -run/-k/-skip/--filter or
// test name it lacked, no fewer packages or paths;
// shellline.TestRun.Narrowing) and passed answers it. Narrow runs to
// debug stay free: a full run that passes afterwards answers them too.
//
// It needs no session: session/narrowqa.go picks the runs sessiongate
// observed from the session's evidence and calls it; which run is the
// whole suite, and whether it saw the tree as it is, read the repository
// and stay there (suiteqa.go, freshqa.go).
package qaevidence

import (
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/shellline"
)

// Run is one test-suite run sessiongate observed.
type Run struct {
	Command string
	// Exit is its exit code; below 0 its status is unknown (`go test
	// ./... | tail`, a filter that matched nothing, untracked inputs),
	// which counts as a run that did not pass: hiding the failure behind
	// a pipe does not free the narrow run that follows.
	Exit int
	// Status says why the status is unknown (the evidence's reference).
	Status string
	At     time.Time
}

// Unanswered is a failing test-suite run no later passing run covers.
type Unanswered struct {
	Run  Run
	Test shellline.TestRun // the failing run's scope
	// LastPass is the latest passing run of the same runner after it
	// ("" when none), and Short why it falls short.
	LastPass, Short string
}

// FirstUnanswered returns the earliest failing run of runs (in the order
// they were recorded) that no later passing run covers; nil when every
// failure is answered.
func FirstUnanswered(runs []Run) *Unanswered {
	for i, f := range runs {
		if f.Exit == 0 {
			continue
		}
		for _, ft := range shellline.TestRuns(f.Command) {
			u := &Unanswered{Run: f, Test: ft}
			answered := false
			for _, p := range runs[i+1:] {
				if p.Exit != 0 {
					continue
				}
				for _, pt := range shellline.TestRuns(p.Command) {
					why := pt.Narrowing(ft)
					if why == "" {
						answered = true
						break
					}
					if pt.Runner == ft.Runner {
						u.LastPass, u.Short = p.Command, why
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

// Message says, for phase, which failing run is unanswered and what
// would answer it.
func (u *Unanswered) Message(phase string) string {
	cut := func(s string, n int) string { return shorten.Bytes(s, n, "...") }
	how := fmt.Sprintf("failed (exit %d", u.Run.Exit)
	if u.Run.Exit < 0 {
		how = "did not pass (its status is unknown: " + cut(u.Run.Status, 80)
	}
	s := fmt.Sprintf("%s: `%s` %s, at %s) and no later passing run covers it", phase, cut(u.Run.Command, 100),
		how, u.Run.At.UTC().Format(time.TimeOnly))
	if u.LastPass != "" {
		s += fmt.Sprintf(" (the later pass `%s` has %s)", cut(u.LastPass, 100), u.Short)
	}
	return s + fmt.Sprintf(": a narrower run passing proves only its part; run `%s` (or a broader run) and make it pass", cut(u.Run.Command, 100))
}
