package main

import (
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// verdict is the one line a person reads after a session ends: the
// engine's rule (session.Verdict), which MCP session_end, `session show`
// and the dashboard share, so no surface calls clean what another does not.
func verdict(v *session.StateView) string { return session.Verdict(v) }

// viewWithVerdict is a session's view as JSON with its verdict beside it
// (`session status --json`, `session show --json`): clean absent while it
// runs, and the reasons and line the text output prints.
type viewWithVerdict struct {
	*session.StateView
	Clean    *bool    `json:"clean,omitempty"`
	NotClean []string `json:"not_clean,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
}

func withVerdict(v *session.StateView) viewWithVerdict {
	out := viewWithVerdict{StateView: v}
	if !v.Session.Active() {
		out.Clean, out.NotClean, out.Verdict = session.Clean(v), session.NotCleanReasons(v), verdict(v)
	}
	return out
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
