package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/testcounts"
)

// countFlags: a file the template makes (the handoff) that states a pass
// count ("181 passed", "all 17 tests pass") no observed run of the
// session reported, hands off a result nobody saw. Only where some run's
// output reported counts: a runner that prints none (go test without -v)
// or a run outside the agent's shell leaves nothing to hold a count
// against. Counts the file held at the start are an earlier session's. A
// flag, not a block: a count may be of a CI run or a sum a reader checks
// (testcounts; 499 of 1,528 honest logs of a real team state counts).
func (e *Engine) countFlags(ctx context.Context, s *Session, f, body, earlier string, flag func(phase, req, msg string) *Violation) []*Violation {
	claims := testcounts.Claims(body)
	if len(claims) == 0 {
		return nil
	}
	old := map[int]bool{}
	for _, c := range testcounts.Claims(earlier) {
		old[c.N] = true
	}
	evs, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil
	}
	var seen []int
	for _, ev := range evs {
		if ev.Observed() {
			seen = append(seen, testcounts.FromRef(ev.Ref)...)
		}
	}
	if len(seen) == 0 {
		return nil
	}
	var bad []string
	for _, c := range testcounts.Unbacked(claims, seen) {
		if !old[c.N] {
			bad = append(bad, fmt.Sprintf("line %d %q", c.Line, c.Text))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return []*Violation{flag("", f, fmt.Sprintf("%s states pass counts no observed run of this session reported (%s; the runs reported %s): a result nobody saw; a reviewer reads it (a flag, not a block)",
		f, truncate(strings.Join(bad, ", "), 200), truncate(strings.Trim(fmt.Sprint(seen), "[]"), 80)))}
}
