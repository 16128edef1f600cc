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

// verdictsOfRows reads the verdicts of a page's ended sessions in one
// batch (session.Reader.SessionVerdictInputs: phase results, violations,
// not-applicable marks), by session id; a running session has none yet.
// A dashboard without an engine reads no marks (it has no protocol to
// judge them by).
func (d *dashboard) verdictsOfRows(ctx context.Context, ss []*session.Session) (map[string]rowVerdict, error) {
	out := map[string]rowVerdict{}
	var views map[string]*session.StateView
	if e := d.s.opts.Engine; e != nil {
		var err error
		if views, err = e.VerdictViews(ctx, ss); err != nil {
			return nil, fmt.Errorf("verdicts of the listed sessions: %w", err)
		}
	} else {
		var ended []string
		for _, s := range ss {
			if !s.Active() {
				ended = append(ended, s.ID)
			}
		}
		in, err := d.store().SessionVerdictInputs(ctx, ended)
		if err != nil {
			return nil, fmt.Errorf("verdicts of the listed sessions: %w", err)
		}
		views = map[string]*session.StateView{}
		for _, s := range ss {
			if vi := in[s.ID]; vi != nil && !s.Active() {
				views[s.ID] = &session.StateView{Session: s, Phases: vi.Phases, Violations: vi.Violations}
			}
		}
	}
	for id, v := range views {
		rv := rowVerdict{clean: session.Clean(v), notClean: web.NotCleanPhases(v.Phases), line: session.Verdict(v)}
		for _, m := range session.PendingNA(v.NotApplicable) {
			rv.notClean = append(rv.notClean, "N/A pending acceptance ("+m.What()+")")
		}
		out[id] = rv
	}
	return out, nil
}
