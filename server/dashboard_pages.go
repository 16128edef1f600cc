package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

const (
	overviewActive     = 20  // running sessions listed on the overview
	overviewViolations = 8   // latest violations on the overview
	complianceDays     = 30  // days in the compliance chart
	eventsShown        = 200 // newest events on a session page
)

var activeStates = []session.State{session.StateInit, session.StateWorking, session.StateEnding}

// ---- overview ----

func (d *dashboard) overview(c echo.Context) error {
	o, err := d.overviewData(c.Request().Context())
	if err != nil {
		return d.failErr(c, err)
	}
	o.Version = overviewVersion(o)
	if partial(c) {
		// The poll sends the version it shows: while nothing changed the
		// answer is 204 and htmx leaves the page (focus, selection, open
		// tables, scroll) alone.
		if c.QueryParam("v") == o.Version {
			return c.NoContent(http.StatusNoContent)
		}
		return d.html(c, http.StatusOK, web.OverviewContent(o))
	}
	return d.html(c, http.StatusOK, web.OverviewPage(d.page("Overview", "overview"), o))
}

// overviewVersion is a short hash of everything the overview shows.
func overviewVersion(o web.Overview) string {
	h := sha256.New()
	o.Version = ""
	for i := range o.Active {
		o.Active[i].Now = time.Time{}
	}
	if err := json.NewEncoder(h).Encode(o); err != nil {
		return "" // never matches: the page is sent whole
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func (d *dashboard) overviewData(ctx context.Context) (web.Overview, error) {
	var o web.Overview
	st := d.store()
	if err := d.counts(ctx, &o.Counts); err != nil {
		return o, err
	}
	active, err := st.ListSessions(ctx, session.SessionFilter{States: activeStates, Limit: overviewActive + 1})
	if err != nil {
		return o, err
	}
	if len(active) > overviewActive {
		active, o.MoreActive = active[:overviewActive], true
	}
	now := d.now()
	for _, s := range active {
		rs, err := st.PhaseResults(ctx, s.ID)
		if err != nil {
			return o, err
		}
		spec, _ := d.s.opts.Engine.SpecFor(ctx, s.ProtocolSHA) // nil: the position says less
		recent, err := st.LastEvents(ctx, s.ID, recentEvents)
		if err != nil {
			return o, err
		}
		a := web.ActiveSession{Session: s, Position: positionOf(s, spec, rs, recent, nil), Expired: s.Expired(now), Now: now}
		if marks, err := d.s.opts.Engine.NotApplicableMarks(ctx, s.ID); err == nil {
			a.NAPending = len(session.PendingNA(marks))
		}
		o.Active = append(o.Active, a)
	}
	if o.Chart, err = d.chart(ctx, now); err != nil {
		return o, err
	}
	if o.Violations, err = st.ListViolations(ctx, session.ViolationFilter{Limit: overviewViolations}); err != nil {
		return o, err
	}
	return o, nil
}

func (d *dashboard) counts(ctx context.Context, out *web.Counts) error {
	if d.agg == nil {
		// A store without the aggregate reads: count state by state.
		for _, st := range web.AllStates {
			n, err := d.store().CountSessions(ctx, session.SessionFilter{States: []session.State{st}})
			if err != nil {
				return err
			}
			setCount(out, st, n)
		}
		return nil
	}
	cs, err := d.agg.CountSessionsByState(ctx)
	if err != nil {
		return err
	}
	for st, n := range cs.ByState {
		setCount(out, session.State(st), n)
	}
	out.WithViolations, out.Violations = cs.WithViolations, cs.Violations
	return nil
}

func setCount(c *web.Counts, state session.State, n int) {
	c.Total += n
	switch state {
	case session.StateInit, session.StateWorking, session.StateEnding:
		c.Active += n
	case session.StateComplete:
		c.Complete += n
	case session.StateAbandoned:
		c.Abandoned += n
	case session.StateTerminated:
		c.Terminated += n
	}
}

// chart returns the last complianceDays UTC days, today included, with
// empty days filled in.
func (d *dashboard) chart(ctx context.Context, now time.Time) (web.Chart, error) {
	var ch web.Chart
	today := now.UTC().Truncate(24 * time.Hour)
	from := today.AddDate(0, 0, -(complianceDays - 1))
	byDay := map[time.Time]web.ChartDay{}
	if d.agg != nil {
		days, err := d.agg.ComplianceByDay(ctx, from, today.AddDate(0, 0, 1))
		if err != nil {
			return ch, err
		}
		for _, x := range days {
			byDay[x.Day] = web.ChartDay{Day: x.Day, Ended: x.Ended, Compliant: x.Compliant}
		}
	}
	for day := from; !day.After(today); day = day.AddDate(0, 0, 1) {
		x, ok := byDay[day]
		if !ok {
			x = web.ChartDay{Day: day}
		}
		ch.Days = append(ch.Days, x)
	}
	return ch, nil
}

// ---- sessions list ----

func (d *dashboard) sessions(c echo.Context) error {
	q, notice := dropHalfDates(c.QueryParams())
	sq, err := parseSessionQuery(q, false)
	if err != nil {
		return d.failErr(c, err)
	}
	data, err := d.sessionsData(c.Request().Context(), sq)
	if err != nil {
		return d.failErr(c, err)
	}
	data.Notice = notice
	if partial(c) {
		// The canonical URL (only the filters that are set) goes into the
		// address bar instead of the form's every empty field.
		c.Response().Header().Set("HX-Push-Url", withBack(sessionsURL("/sessions", sq.form, sq.cursor), sq.back))
		return d.html(c, http.StatusOK, web.SessionsResults(data))
	}
	return d.html(c, http.StatusOK, web.SessionsPage(d.page("Sessions", "sessions"), data))
}

func (d *dashboard) sessionsData(ctx context.Context, sq sessionQuery) (web.Sessions, error) {
	data := web.Sessions{Filter: sq.form}
	page, next, err := d.listSessions(ctx, sq)
	if err != nil {
		return data, err
	}
	data.Rows, data.Total, data.TotalExact = page.rows, page.total, page.exact
	data.ExportCSV, data.ExportJSON = exportURLs(sessionsURL("/sessions", sq.form, ""), "/sessions")
	data.NextURL, data.PrevURL, data.FirstURL = pageLinks(func(cur string) string { return sessionsURL("/sessions", sq.form, cur) },
		sq.cursor, next, sq.back)
	if len(data.Rows) > 0 {
		data.PageStart = sq.offset + 1
	} else if !sq.form.Active() && sq.filter.BeforeTime.IsZero() {
		data.Empty = true
	}
	return data, nil
}

type sessionRows struct {
	rows  []web.SessionRow
	total int  // -1: unknown
	exact bool // false: at least total match
}

// listSessions fetches one page plus one row, to know whether an older
// page exists, the total, and the page's violation counts.
func (d *dashboard) listSessions(ctx context.Context, sq sessionQuery) (sessionRows, string, error) {
	if sq.now != "" {
		return d.sessionsNow(ctx, sq)
	}
	var out sessionRows
	f := sq.filter
	f.Limit++
	var list []*session.Session
	if d.agg != nil {
		page, err := d.agg.DashboardSessions(ctx, f)
		if err != nil {
			return out, "", err
		}
		list, out.total, out.exact = page.Sessions, page.Total, page.TotalExact
	} else {
		var err error
		if list, err = d.store().ListSessions(ctx, f); err != nil {
			return out, "", err
		}
		if out.total, err = d.store().CountSessions(ctx, sq.filter); err != nil {
			return out, "", err
		}
		out.exact = true
	}
	next := ""
	if len(list) > sq.filter.Limit {
		list = list[:sq.filter.Limit]
		last := list[len(list)-1]
		next = encodeCursor(last.CreatedAt, last.ID, sq.offset+len(list))
	}
	counts := map[string]int{}
	if d.agg != nil && len(list) > 0 {
		ids := make([]string, len(list))
		for i, s := range list {
			ids[i] = s.ID
		}
		var err error
		if counts, err = d.agg.ViolationCounts(ctx, ids); err != nil {
			return out, "", err
		}
	}
	// Severities only for the sessions that have a violation: the list
	// shows the worst one, so a violated session never looks clean.
	var sevs map[string]map[string]int
	if d.agg != nil {
		var violated []string
		for _, s := range list {
			if counts[s.ID] > 0 {
				violated = append(violated, s.ID)
			}
		}
		var err error
		if sevs, err = d.agg.ViolationSeverities(ctx, violated); err != nil {
			return out, "", err
		}
	}
	// What each ended session skipped, at a glance, and whether it is
	// clean: the page's verdicts in one batch, not three reads a row.
	verdicts, err := d.verdictsOfRows(ctx, list)
	if err != nil {
		return out, "", err
	}
	vanished, err := d.cliVanishedOfRows(ctx, list)
	if err != nil {
		return out, "", err
	}
	out.rows = make([]web.SessionRow, len(list))
	for i, s := range list {
		out.rows[i] = web.SessionRow{Session: s, Violations: counts[s.ID], CLIVanished: vanished[s.ID]}
		if sv, ok := sevs[s.ID]; ok {
			out.rows[i].Severities = web.SeverityCounts(sv)
		}
		if rv, ok := verdicts[s.ID]; ok {
			out.rows[i].NotClean, out.rows[i].Clean, out.rows[i].VerdictLine = rv.notClean, rv.clean, rv.line
		}
	}
	return out, next, nil
}

// idleAfter is how long without activity makes a running session idle
// for the "idle" filter.
const idleAfter = 15 * time.Minute

// maxNow bounds the running sessions the blocked/idle filters look at.
const maxNow = 500

// sessionsNow lists the running sessions (within the other filters) that
// are blocked now or idle for idleAfter: what blocks a session is read the
// way its page reads it (positionOf), so the filter and the page agree.
// One page, no cursor.
func (d *dashboard) sessionsNow(ctx context.Context, sq sessionQuery) (sessionRows, string, error) {
	var out sessionRows
	f := sq.filter
	f.BeforeTime, f.BeforeID, f.Limit = time.Time{}, "", maxNow
	f.States = nil
	for _, st := range activeStates {
		if len(sq.filter.States) == 0 || slices.Contains(sq.filter.States, st) {
			f.States = append(f.States, st)
		}
	}
	if len(f.States) == 0 {
		return out, "", nil
	}
	var list []*session.Session
	var err error
	if d.agg != nil {
		page, err := d.agg.DashboardSessions(ctx, f)
		if err != nil {
			return out, "", err
		}
		list = page.Sessions
	} else if list, err = d.store().ListSessions(ctx, f); err != nil {
		return out, "", err
	}
	now := d.now()
	for _, s := range list {
		row := web.SessionRow{Session: s, Idle: web.Between(s.LastActivity, now)}
		switch sq.now {
		case "idle":
			if row.Idle < idleAfter {
				continue
			}
		case "blocked":
			rs, err := d.store().PhaseResults(ctx, s.ID)
			if err != nil {
				return out, "", err
			}
			recent, err := d.store().LastEvents(ctx, s.ID, recentEvents)
			if err != nil {
				return out, "", err
			}
			spec, _ := d.s.opts.Engine.SpecFor(ctx, s.ProtocolSHA)
			if !positionOf(s, spec, rs, recent, nil).Blocked {
				continue
			}
			row.Blocked = true
		}
		out.rows = append(out.rows, row)
	}
	if d.agg != nil && len(out.rows) > 0 {
		ids := make([]string, len(out.rows))
		for i, r := range out.rows {
			ids[i] = r.Session.ID
		}
		counts, err := d.agg.ViolationCounts(ctx, ids)
		if err != nil {
			return out, "", err
		}
		for i := range out.rows {
			out.rows[i].Violations = counts[out.rows[i].Session.ID]
		}
	}
	out.total, out.exact = len(out.rows), true
	return out, "", nil
}

// ---- one session ----

func (d *dashboard) session(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	if err := session.ValidateID(id); err != nil {
		return d.failErr(c, err)
	}
	if partial(c) {
		// A poll sends the version it shows; answer 204 (htmx swaps
		// nothing) until something changed.
		if v := c.QueryParam("v"); v != "" {
			cur, _, err := d.sessionVersion(ctx, id)
			if err != nil {
				return d.failErr(c, err)
			}
			if cur == v {
				return c.NoContent(http.StatusNoContent)
			}
		}
	}
	det, err := d.sessionDetail(ctx, id)
	if err != nil {
		return d.failErr(c, err)
	}
	if partial(c) {
		if det.Session.Active() {
			return d.html(c, http.StatusOK, web.SessionLive(det))
		}
		return d.html(c, http.StatusOK, templ.Join(web.SessionLive(det), web.TerminateOOB()))
	}
	return d.html(c, http.StatusOK, web.SessionPage(d.page("Session "+web.ShortID(id), "sessions"), det))
}

// sessionVersion is a short hash of everything a session page shows that
// can change: the session row, its newest event and its violation count.
func (d *dashboard) sessionVersion(ctx context.Context, id string) (string, *session.Session, error) {
	s, err := d.store().GetSession(ctx, id)
	if err != nil {
		return "", nil, err
	}
	var seq int64
	var nv int
	if d.agg != nil {
		if seq, err = d.agg.LastEventSeq(ctx, id); err != nil {
			return "", nil, err
		}
		vc, err := d.agg.ViolationCounts(ctx, []string{id})
		if err != nil {
			return "", nil, err
		}
		nv = vc[id]
	} else {
		evs, err := d.store().LastEvents(ctx, id, 1)
		if err != nil {
			return "", nil, err
		}
		if len(evs) > 0 {
			seq = evs[0].Seq
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%s|%d|%d|%d|%t|%s|%s|%d|%d", s.State, s.Phase, s.EndCommit, s.LastActivity.UnixNano(),
		s.EndedAt.UnixNano(), s.ExpiresAt.UnixNano(), s.Terminated, s.Summary, s.NextNotes, seq, nv)
	return hex.EncodeToString(h.Sum(nil)[:8]), s, nil
}

func (d *dashboard) sessionDetail(ctx context.Context, id string) (web.SessionDetail, error) {
	var det web.SessionDetail
	st := d.store()
	version, s, err := d.sessionVersion(ctx, id)
	if err != nil {
		return det, err
	}
	det.Session, det.Version, det.Now = s, version, d.now()
	det.Expired = s.Active() && s.Expired(det.Now)
	rs, err := st.PhaseResults(ctx, id)
	if err != nil {
		return det, err
	}
	if det.Evidence, err = st.ListEvidence(ctx, id); err != nil {
		return det, err
	}
	if det.Violations, err = st.ListViolations(ctx, session.ViolationFilter{SessionID: id, Limit: 1000}); err != nil {
		return det, err
	}
	if det.Events, err = st.LastEvents(ctx, id, eventsShown); err != nil {
		return det, err
	}
	if len(det.Events) > 0 {
		det.EventsFrom = det.Events[0].Seq
		det.EventCount = det.Events[len(det.Events)-1].Seq
	}
	if det.Snapshots, err = st.ListSnapshots(ctx, id); err != nil {
		return det, err
	}
	vanished, err := st.EventsWith(ctx, id, session.CLIVanishedTokens()...)
	if err != nil {
		return det, fmt.Errorf("read the session's vanished agent CLIs: %w", err)
	}
	det.CLIVanished = session.VanishedShown(vanished)
	for _, e := range det.Evidence {
		if e.Kind == session.EvidenceCommitSHA || e.Kind == session.EvidenceBypassCommit {
			det.Commits = append(det.Commits, e)
		}
	}
	var spec *protocolspec.Spec
	if s.ProtocolSHA != "" {
		spec, err = d.s.opts.Engine.SpecFor(ctx, s.ProtocolSHA)
		if err != nil {
			det.SpecError = "sha256 " + web.ShortSHA(s.ProtocolSHA) + " is not stored"
			if !errors.Is(err, session.ErrNotFound) {
				det.SpecError = err.Error()
			}
			spec = nil
		}
	}
	spec = d.withConfigCommands(s, spec)
	det.Position = positionOf(s, spec, rs, det.Events, det.Violations)
	if s.Active() {
		// Force is refused while a violation of an earlier session is
		// carried (docs/policy.md): say so before the agent tries.
		if det.Position.Carried, err = d.carried(ctx, s); err != nil {
			return det, err
		}
	}
	det.Timeline, det.OtherEvidence = timeline(s, spec, rs, det.Evidence)
	if spec != nil {
		// Marks waiting for a person (notapplicable.go): never a clean verdict.
		if det.NotApplicable, err = d.s.opts.Engine.NotApplicableMarks(ctx, id); err != nil {
			det.NotApplicable = nil
		}
		markPendingNA(det.Timeline, det.NotApplicable)
	}
	if det.Supersedes, err = d.superseded(ctx, s); err != nil {
		return det, err
	}
	det.Fixes = fixes(s, det.Position, det.Timeline)
	return det, nil
}

// superseded lists the sessions s replaced: starting a session abandons
// the running one of the same worktree with the summary "superseded by
// session <id>", so they are among the few sessions of that worktree
// started just before s (one indexed read).
func (d *dashboard) superseded(ctx context.Context, s *session.Session) ([]string, error) {
	if s.Worktree == "" {
		return nil, nil
	}
	prev, err := d.store().ListSessions(ctx, session.SessionFilter{Worktree: s.Worktree, To: s.CreatedAt, Limit: 5})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range prev {
		if web.SupersededBy(p) == s.ID {
			out = append(out, p.ID)
		}
	}
	return out, nil
}

// ---- terminate ----

func (d *dashboard) terminate(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	if err := session.ValidateID(id); err != nil {
		return d.failErr(c, err)
	}
	reason := strings.TrimSpace(c.FormValue("reason"))
	if reason == "" {
		return d.fail(c, http.StatusBadRequest, "Reason required", "Say why the session is terminated; the reason is kept with it.", "Go back and fill in the reason.")
	}
	if len(reason) > 500 {
		return d.fail(c, http.StatusBadRequest, "Reason too long", "The reason is "+strconv.Itoa(len(reason))+" bytes; keep it under 500.", "")
	}
	s, err := d.store().GetSession(ctx, id)
	if err != nil {
		return d.failErr(c, err)
	}
	if !s.Active() {
		return d.fail(c, http.StatusConflict, "Session already ended",
			"Session "+web.ShortID(id)+" is "+string(s.State)+"; only a running session can be terminated.", "")
	}
	if _, err := d.s.opts.Engine.Terminate(ctx, id, reason); err != nil {
		if errors.Is(err, session.ErrTerminated) {
			return d.fail(c, http.StatusConflict, "Session already terminated", err.Error(), "")
		}
		return d.failErr(c, err)
	}
	d.s.opts.Logger.Info("dashboard: session terminated", "session", id)
	return c.Redirect(http.StatusSeeOther, "/sessions/"+id)
}

// ---- violations ----

func (d *dashboard) violations(c echo.Context) error {
	q, notice := dropHalfDates(c.QueryParams())
	vq, err := parseViolationQuery(q, false)
	if err != nil {
		return d.failErr(c, err)
	}
	phases := d.phaseIDs(c.Request().Context())
	for _, id := range phases {
		// Phase ids match in any case: the protocol's spelling is used.
		if vq.filter.Phase != "" && strings.EqualFold(id, vq.filter.Phase) {
			vq.filter.Phase, vq.form.Phase = id, id
		}
	}
	rows, next, err := d.listViolations(c.Request().Context(), vq)
	if err != nil {
		return d.failErr(c, err)
	}
	data := web.Violations{Filter: vq.form, Rows: rows, Notice: notice, Phases: phases, PageStart: vq.offset + 1}
	data.ExportCSV, data.ExportJSON = exportURLs(violationsURL("/violations", vq.form, ""), "/violations")
	if data.Sessions, err = d.violationSessions(c.Request().Context(), rows); err != nil {
		return d.failErr(c, err)
	}
	data.NextURL, data.PrevURL, data.FirstURL = pageLinks(func(cur string) string { return violationsURL("/violations", vq.form, cur) },
		vq.cursor, next, vq.back)
	if partial(c) {
		c.Response().Header().Set("HX-Push-Url", withBack(violationsURL("/violations", vq.form, vq.cursor), vq.back))
		return d.html(c, http.StatusOK, web.ViolationsResults(data))
	}
	return d.html(c, http.StatusOK, web.ViolationsPage(d.page("Violations", "violations"), data))
}

func (d *dashboard) listViolations(ctx context.Context, vq violationQuery) ([]session.Violation, string, error) {
	f := vq.filter
	f.Limit++
	rows, err := d.store().ListViolations(ctx, f)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(rows) > vq.filter.Limit {
		rows = rows[:vq.filter.Limit]
		last := rows[len(rows)-1]
		next = encodeCursor(last.CreatedAt, strconv.FormatInt(last.ID, 10), vq.offset+len(rows))
	}
	if rows == nil {
		rows = []session.Violation{}
	}
	return rows, next, nil
}

// violationSessions reads the sessions of a page of violations (at most
// pageSize point reads), for their objective and branch.
func (d *dashboard) violationSessions(ctx context.Context, rows []session.Violation) (map[string]*session.Session, error) {
	out := map[string]*session.Session{}
	for _, v := range rows {
		if v.SessionID == "" || out[v.SessionID] != nil {
			continue
		}
		s, err := d.store().GetSession(ctx, v.SessionID)
		if errors.Is(err, session.ErrNotFound) {
			continue // deleted since: the row keeps its id
		}
		if err != nil {
			return nil, err
		}
		out[v.SessionID] = s
	}
	return out, nil
}

// phaseIDs are the current protocol's phase ids, for the phase dropdown;
// none when no protocol loads.
func (d *dashboard) phaseIDs(ctx context.Context) []string {
	if d.s.opts.LoadSpec == nil {
		return nil
	}
	spec, err := d.s.opts.LoadSpec(ctx)
	if err != nil || spec == nil {
		return nil
	}
	out := make([]string, len(spec.Phases))
	for i, p := range spec.Phases {
		out[i] = p.ID
	}
	return out
}

// ---- protocol ----

func (d *dashboard) protocol(c echo.Context) error {
	ctx := c.Request().Context()
	var data web.Protocol
	sha := c.QueryParam("sha")
	var spec *protocolspec.Spec
	switch {
	case sha != "":
		if !shaPattern.MatchString(sha) {
			return d.failErr(c, badf("bad sha %q: a protocol version is 64 lower-case hex digits (its sha256)", clip(sha)))
		}
		var err error
		if spec, err = d.s.opts.Engine.SpecFor(ctx, sha); err != nil {
			if errors.Is(err, session.ErrNotFound) {
				return d.fail(c, http.StatusNotFound, "Protocol version not found",
					"No protocol with sha256 "+sha+" is stored.", "The Protocol page lists the stored versions.")
			}
			return d.failErr(c, err)
		}
		data.SHA = sha
	case d.s.opts.LoadSpec != nil:
		var err error
		if spec, err = d.s.opts.LoadSpec(ctx); err != nil {
			data.Error = "The protocol could not be loaded: " + err.Error() + ". Fix it (sessiongate protocol lint) or create one with sessiongate init."
		} else {
			data.SHA = spec.SHA256
		}
	default:
		data.Error = "This server was started without a protocol. Run sessiongate serve inside a repository with a SESSION-PROTOCOL.md (sessiongate init writes one)."
	}
	if spec != nil {
		data.Spec = spec
		data.Coverage = spec.Coverage()
		data.Lint = append(append([]protocolspec.Warning{}, spec.Warnings...), protocolspec.Lint(spec)...)
		slices.SortStableFunc(data.Lint, func(a, b protocolspec.Warning) int { return a.Line - b.Line })
		if d.s.opts.LoadSpec != nil {
			if cur, err := d.s.opts.LoadSpec(ctx); err == nil && cur.SHA256 == data.SHA {
				data.Current = true
			}
		}
	}
	if d.agg != nil {
		vs, err := d.agg.ListProtocols(ctx, 50)
		if err != nil {
			return d.failErr(c, err)
		}
		for _, v := range vs {
			data.Versions = append(data.Versions, web.ProtocolVersion{SHA256: v.SHA256, Name: v.Name, CreatedAt: v.CreatedAt, Sessions: v.Sessions})
		}
	}
	if partial(c) {
		return d.html(c, http.StatusOK, web.ProtocolContent(data))
	}
	return d.html(c, http.StatusOK, web.ProtocolPage(d.page("Protocol", "protocol"), data))
}

// withConfigCommands shows a session of the repository serve runs in with
// the checks its gates run: a command sessiongate.yaml sets for a phase in
// place of what it replaces (session.GateChecks). Sessions of other
// repositories (a team database) show the protocol's checks; their results
// name the commands that ran.
func (d *dashboard) withConfigCommands(s *session.Session, spec *protocolspec.Spec) *protocolspec.Spec {
	eng, repo := d.s.opts.Engine, d.s.opts.Repo
	if spec == nil || eng == nil || repo == nil || len(eng.Config.Commands) == 0 {
		return spec
	}
	if s.Worktree != repo.Root() && s.Worktree != repo.MainRoot() {
		return spec
	}
	cp := *spec
	cp.Phases = slices.Clone(spec.Phases)
	for i := range cp.Phases {
		cp.Phases[i].Checks = session.GateChecks(&cp.Phases[i], eng.Config.Commands)
	}
	return &cp
}
