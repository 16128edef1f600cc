package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// runsProtocol is a start phase of n requirements only an observed run
// meets (the phase is listed under observed: in the config).
func runsProtocol(n int) string {
	var b strings.Builder
	b.WriteString("# P\n\n## Session Start\n\n### Phase 1: Checks (BLOCKING)\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d. The agent MUST run check-%c.\n", i, 'a'+i-1)
	}
	b.WriteString("\n## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: evidence manual -->\n")
	return b.String()
}

// TestGateGivesEveryOpenFix: a blocked gate's next steps gave the fix of
// its first open observed-run requirement only (the hooks and `status`
// named them all), so an agent fixed one, was blocked again on the next,
// and so on. Every open requirement's fix is given now, in the
// protocol's order, at most three, then "and N more" pointing to
// `sessiongate session status`. The honest twin: running what the steps
// name moves the session on. (The 3- and 5-requirement rows failed on the
// old code: one step.)
func TestGateGivesEveryOpenFix(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	for _, c := range []struct {
		reqs     int
		wantRuns int
		more     string
	}{
		{1, 1, ""},
		{3, 3, ""},
		{5, 3, "and 2 more"},
	} {
		t.Run(fmt.Sprintf("%d requirements", c.reqs), func(t *testing.T) {
			e := newEnv(t, runsProtocol(c.reqs))
			e.engine.Config.ObservedPhases = []string{"CHECKS"}
			id := e.start("every fix")
			res := e.advance(id)
			if res.Blocked == nil {
				t.Fatalf("not blocked: %+v", res)
			}
			var runs []string
			more := ""
			for _, s := range res.NextSteps {
				switch s.Action {
				case session.StepRunObserved:
					runs = append(runs, s.Requirement)
				case session.StepBlockedReason:
					if strings.Contains(s.Why, "more") {
						more = s.Why
					}
				}
			}
			if len(runs) != c.wantRuns || more != c.more {
				t.Fatalf("next steps name runs %q and %q, want %d runs and %q: %+v", runs, more, c.wantRuns, c.more, res.NextSteps)
			}
			// In the protocol's order: the order status lists them in.
			for i, r := range runs {
				if want := res.Blocked.OpenRequirements[i].ID; r != want {
					t.Errorf("run %d is for %s, want %s (the protocol's order): %q", i, r, want, runs)
				}
			}
			// Honest twin: the runs the steps and status name pass the gate.
			for i := 0; i < c.reqs; i++ {
				open := res.Blocked.OpenRequirements
				if len(open) == 0 {
					break
				}
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "CHECKS", Requirement: open[0].ID, Source: session.SourceRun, Command: fmt.Sprintf("./check-%c", 'a'+i), ExitCode: 0}); err != nil {
					t.Fatal(err)
				}
				if res = e.advance(id); res.Blocked == nil {
					break
				}
			}
			if res.Blocked != nil || res.State != session.StateWorking {
				t.Fatalf("following the fixes did not pass the gate: %+v", res)
			}
		})
	}
}
