package server

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// rowVerdict is an ended session's verdict as the listings show it: the
// one decision (session.Clean), the phases and marks that keep it from
// being clean, and the line `session status` prints (session.Verdict).
type rowVerdict struct {
	clean    *bool
	notClean []string // "PHASE (why)", then "N/A pending acceptance (X)"
	line     string
}

// verdictOfRow reads what an ended session's verdict needs
// (session.VerdictView: phase results, violations, not-applicable marks);
// a running session has none yet. A dashboard without an engine reads
// phase results and violations only.
func (d *dashboard) verdictOfRow(ctx context.Context, s *session.Session) (rowVerdict, error) {
	if s.Active() {
		return rowVerdict{}, nil
	}
	var v *session.StateView
	if e := d.s.opts.Engine; e != nil {
		var err error
		if v, err = e.VerdictView(ctx, s); err != nil {
			return rowVerdict{}, fmt.Errorf("verdict of session %s: %w", s.ID, err)
		}
	} else {
		rs, err := d.store().PhaseResults(ctx, s.ID)
		if err != nil {
			return rowVerdict{}, fmt.Errorf("read the phase results of session %s: %w", s.ID, err)
		}
		vs, err := d.store().ListViolations(ctx, session.ViolationFilter{SessionID: s.ID, Limit: 1000})
		if err != nil {
			return rowVerdict{}, fmt.Errorf("read the violations of session %s: %w", s.ID, err)
		}
		v = &session.StateView{Session: s, Phases: rs, Violations: vs}
	}
	out := rowVerdict{clean: session.Clean(v), notClean: web.NotCleanPhases(v.Phases), line: session.Verdict(v)}
	for _, m := range session.PendingNA(v.NotApplicable) {
		out.notClean = append(out.notClean, "N/A pending acceptance ("+m.What()+")")
	}
	return out, nil
}
