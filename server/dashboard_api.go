package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// The JSON mirror of the dashboard, for scripts. Same filters as the pages;
// pagination by the opaque next_cursor. Evidence bodies and snapshot
// payloads are never included: hashes and references only.

type apiError struct {
	Error string `json:"error"`
}

type apiSessionRow struct {
	*session.Session
	ViolationCount int `json:"violation_count"`
	// NotClean names the phases that keep an ended session from being
	// clean, as the sessions list shows them (session.PhaseNotClean);
	// Clean is the verdict of an ended session: COMPLETE, no violation and
	// no such phase, absent for a running session.
	NotClean []string `json:"not_clean,omitempty"`
	Clean    *bool    `json:"clean,omitempty"`
	// Verdict is the line `session status` prints (session.Verdict).
	Verdict string `json:"verdict,omitempty"`
}

// apiRow is one row of /api/sessions from the row the sessions list shows,
// so the two agree on what is clean.
func apiRow(r web.SessionRow) apiSessionRow {
	// The decision is session.Clean's (pending N/A marks too), read with
	// the row.
	return apiSessionRow{Session: r.Session, ViolationCount: r.Violations, NotClean: r.NotClean, Clean: r.Clean, Verdict: r.VerdictLine}
}

type apiSessionList struct {
	Sessions []apiSessionRow `json:"sessions"`
	// Total counts the matches over all pages. A broad objective search
	// is not counted to the end: then TotalExact is false and at least
	// Total sessions match (-1: unknown).
	Total      int    `json:"total"`
	TotalExact bool   `json:"total_exact"`
	NextCursor string `json:"next_cursor"`
}

type apiSnapshot struct {
	Seq        int64     `json:"seq"`
	SnapshotID string    `json:"snapshot_id"`
	CreatedAt  time.Time `json:"created_at"`
}

type apiPosition struct {
	Phase   string `json:"phase"`
	Blocked bool   `json:"blocked"`
	// Block is what blocks it: "gate" (a failing BLOCKING or REQUIRED
	// gate, named in BlockedBy) or "policy" (a sequence rule refused the
	// last call); "" when nothing does.
	Block     string `json:"block,omitempty"`
	BlockedBy string `json:"blocked_by,omitempty"`
	Reason    string `json:"reason"`
	// Carried are earlier sessions' violations still active here: while
	// there is one, force is refused.
	Carried []session.Violation `json:"carried_violations"`
}

type apiSessionDetail struct {
	Session        *session.Session      `json:"session"`
	Expired        bool                  `json:"expired"`
	ViolationCount int                   `json:"violation_count"`
	Position       *apiPosition          `json:"position,omitempty"`
	PhaseResults   []session.PhaseResult `json:"phase_results"`
	Evidence       []session.Evidence    `json:"evidence"`
	Violations     []session.Violation   `json:"violations"`
	Commits        []string              `json:"commits"`
	Events         []session.Event       `json:"events"`
	EventCount     int64                 `json:"event_count"`
	EventsComplete bool                  `json:"events_complete"` // false: only the newest are listed
	Snapshots      []apiSnapshot         `json:"snapshots"`
	// Clean, NotClean and Verdict are the session's verdict as `session
	// status` gives it (session.Clean, NotCleanReasons, Verdict); clean is
	// absent while the session runs.
	Clean    *bool    `json:"clean,omitempty"`
	NotClean []string `json:"not_clean,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
}

type apiViolationList struct {
	Violations []session.Violation `json:"violations"`
	NextCursor string              `json:"next_cursor"`
}

func (d *dashboard) apiFail(c echo.Context, err error) error {
	switch {
	case isBadRequest(err), isInvalidID(err):
		return c.JSON(http.StatusBadRequest, apiError{Error: err.Error()})
	case isNotFound(err):
		return c.JSON(http.StatusNotFound, apiError{Error: err.Error()})
	}
	d.s.opts.Logger.Error("dashboard api", "path", c.Request().URL.Path, "err", err)
	return c.JSON(http.StatusInternalServerError, apiError{Error: "internal error: see the server log"})
}

func (d *dashboard) apiSessions(c echo.Context) error {
	ctx := c.Request().Context()
	sq, err := parseSessionQuery(c.QueryParams(), true)
	if err != nil {
		return d.apiFail(c, err)
	}
	page, next, err := d.listSessions(ctx, sq)
	if err != nil {
		return d.apiFail(c, err)
	}
	out := apiSessionList{Sessions: make([]apiSessionRow, len(page.rows)), Total: page.total, TotalExact: page.exact, NextCursor: next}
	for i, r := range page.rows {
		out.Sessions[i] = apiRow(r)
	}
	return c.JSON(http.StatusOK, out)
}

func (d *dashboard) apiSession(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	if err := session.ValidateID(id); err != nil {
		return d.apiFail(c, err)
	}
	det, err := d.sessionDetail(ctx, id)
	if err != nil {
		return d.apiFail(c, err)
	}
	rs, err := d.store().PhaseResults(ctx, id)
	if err != nil {
		return d.apiFail(c, err)
	}
	out := apiSessionDetail{
		Session: det.Session, Expired: det.Expired, ViolationCount: len(det.Violations),
		PhaseResults: nonNil(rs), Evidence: nonNil(det.Evidence), Violations: nonNil(det.Violations),
		Commits: []string{}, Events: nonNil(det.Events), EventCount: det.EventCount,
		EventsComplete: det.EventsFrom <= 1, Snapshots: []apiSnapshot{},
	}
	if !det.Session.Active() {
		v := &session.StateView{Session: det.Session, Phases: rs, Violations: det.Violations, NotApplicable: det.NotApplicable}
		out.Clean, out.NotClean, out.Verdict = session.Clean(v), session.NotCleanReasons(v), session.Verdict(v)
	}
	if det.Session.Active() {
		out.Position = &apiPosition{Phase: det.Position.Phase, Blocked: det.Position.Blocked, Block: string(det.Position.Block),
			BlockedBy: det.Position.BlockedBy, Reason: det.Position.Reason, Carried: nonNil(det.Position.Carried)}
	}
	for _, e := range det.Commits {
		out.Commits = append(out.Commits, e.Ref)
	}
	for _, s := range det.Snapshots {
		out.Snapshots = append(out.Snapshots, apiSnapshot{Seq: s.Seq, SnapshotID: s.SnapshotID, CreatedAt: s.CreatedAt})
	}
	return c.JSON(http.StatusOK, out)
}

func (d *dashboard) apiViolations(c echo.Context) error {
	vq, err := parseViolationQuery(c.QueryParams(), true)
	if err != nil {
		return d.apiFail(c, err)
	}
	rows, next, err := d.listViolations(c.Request().Context(), vq)
	if err != nil {
		return d.apiFail(c, err)
	}
	return c.JSON(http.StatusOK, apiViolationList{Violations: rows, NextCursor: next})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
