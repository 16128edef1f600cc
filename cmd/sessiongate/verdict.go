package main

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// verdict is the one line a person reads after a session ends: its state,
// and whatever keeps it from being clean (violations, failing gates that
// were skipped or forced). A session with either is never called clean.
func verdict(v *session.StateView) string {
	s := v.Session
	var not []string
	if n := len(v.Violations); n > 0 {
		var kinds []string
		seen := map[string]bool{}
		for _, vi := range v.Violations {
			k := vi.Severity + " " + vi.Code
			if !seen[k] {
				seen[k] = true
				kinds = append(kinds, k)
			}
		}
		not = append(not, fmt.Sprintf("%d violation(s) (%s)", n, strings.Join(kinds, ", ")))
	}
	var skipped, forced []string
	for _, p := range v.Phases {
		switch {
		case p.Status == session.PhaseForced:
			forced = append(forced, p.PhaseID)
		case p.Status == session.PhaseSkipped && strings.Contains(p.Decision, "gate failed"):
			skipped = append(skipped, p.PhaseID)
		}
	}
	if len(forced) > 0 {
		not = append(not, "forced past failing gate(s) "+strings.Join(forced, ", "))
	}
	if len(skipped) > 0 {
		not = append(not, "failing gate(s) skipped: "+strings.Join(skipped, ", "))
	}
	if pending := session.PendingNA(v.NotApplicable); len(pending) > 0 {
		not = append(not, naPendingLine(pending))
	}
	switch {
	case len(not) > 0:
		return fmt.Sprintf("%s, not clean: %s", s.State, strings.Join(not, "; "))
	case s.State == session.StateComplete:
		return fmt.Sprintf("%s: clean (every gate passed, no violations)", s.State)
	}
	return string(s.State)
}

// severityCount is the VIOLATIONS cell of `session list`: the count and
// the worst severity ("2 HIGH"), from counts per severity.
func severityCount(bySeverity map[string]int) string {
	n, worst := 0, ""
	for sev, k := range bySeverity {
		n += k
		if k > 0 && severityRank(sev) > severityRank(worst) {
			worst = sev
		}
	}
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("%d %s", n, worst)
}

func severityRank(s string) int {
	switch s {
	case session.SeverityCritical:
		return 4
	case session.SeverityHigh:
		return 3
	case session.SeverityMedium:
		return 2
	case session.SeverityLow:
		return 1
	}
	return 0
}
