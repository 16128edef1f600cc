package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// The dashboard's query parameters: parsed strictly, so a malformed filter
// is a 400 saying which parameter is wrong, never a silently wider list.

// badRequest is a client error; its message is shown to the user.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func badf(format string, a ...any) error { return &badRequest{msg: fmt.Sprintf(format, a...)} }

func isBadRequest(err error) bool {
	var b *badRequest
	return errors.As(err, &b)
}

const (
	pageSize    = 50
	maxAPILimit = 200
	maxQuery    = 200
	maxBranch   = 250
	maxWorktree = 4096
	maxIdentity = 200 // user, host (as stored: at most 200)
	maxRepo     = 4096
)

// Filter values are checked by hand, not by regexps: a bounded repetition
// such as {1,128} compiles to 128 copies at package init, which every hook
// process (the same binary) would pay.
var (
	codePattern  = charPattern{min: 1, max: 64, ok: isIdentByte}
	phasePattern = charPattern{min: 1, max: 128, ok: isIdentByte}
	shaPattern   = charPattern{min: 64, max: 64, ok: isLowerHexByte}
)

// charPattern matches strings of min to max bytes that each satisfy ok.
type charPattern struct {
	min, max int
	ok       func(byte) bool
}

func (p charPattern) MatchString(s string) bool {
	if len(s) < p.min || len(s) > p.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !p.ok(s[i]) {
			return false
		}
	}
	return true
}

// isIdentByte is [A-Za-z0-9_.:-].
func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-'
}

func isLowerHexByte(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// sessionQuery is a parsed /sessions or /api/sessions request.
type sessionQuery struct {
	form   web.SessionFilterForm
	filter session.SessionFilter
	offset int      // rows on the pages before this one
	now    string   // "blocked" or "idle": running sessions in that condition now
	cursor string   // this page's cursor, "" on the first
	back   []string // the cursors of the pages before (dashboard_pager.go)
}

// parseSessionQuery reads the sessions filter. limit is the page size;
// allowLimit lets the API override it with ?limit=.
func parseSessionQuery(q url.Values, allowLimit bool) (sessionQuery, error) {
	var sq sessionQuery
	f := &sq.filter
	f.Limit = pageSize
	states, err := parseStates(q["state"])
	if err != nil {
		return sq, err
	}
	f.States, sq.form.States = states, states
	if f.Branch, err = textParam(q, "branch", maxBranch); err != nil {
		return sq, err
	}
	sq.form.Branch = f.Branch
	if f.Worktree, err = textParam(q, "worktree", maxWorktree); err != nil {
		return sq, err
	}
	sq.form.Worktree = f.Worktree
	if f.User, err = textParam(q, "user", maxIdentity); err != nil {
		return sq, err
	}
	if f.Host, err = textParam(q, "host", maxIdentity); err != nil {
		return sq, err
	}
	if f.Repo, err = textParam(q, "repo", maxRepo); err != nil {
		return sq, err
	}
	sq.form.User, sq.form.Host, sq.form.Repo = f.User, f.Host, f.Repo
	if f.Query, err = textParam(q, "q", maxQuery); err != nil {
		return sq, err
	}
	sq.form.Q = f.Query
	switch v := strings.ToLower(strings.TrimSpace(q.Get("violations"))); v {
	case "":
	case "yes", "true", "1":
		yes := true
		f.HasViolations, sq.form.Violations = &yes, "yes"
	case "no", "false", "0":
		no := false
		f.HasViolations, sq.form.Violations = &no, "no"
	default:
		return sq, badf("bad violations filter %q: use yes or no", clip(v))
	}
	switch v := strings.ToUpper(strings.TrimSpace(q.Get("severity"))); v {
	case "":
	case session.SeverityCritical, session.SeverityHigh, session.SeverityMedium, session.SeverityLow:
		f.Severity, sq.form.Severity = v, v
	default:
		return sq, badf("bad severity filter %q: use CRITICAL, HIGH, MEDIUM or LOW", clip(v))
	}
	if f.From, f.To, sq.form.From, sq.form.To, err = parseRange(q); err != nil {
		return sq, err
	}
	switch v := strings.ToLower(strings.TrimSpace(q.Get("now"))); v {
	case "", "blocked", "idle":
		sq.now, sq.form.Now = v, v
	default:
		return sq, badf("bad now filter %q: use blocked or idle", clip(v))
	}
	if c := q.Get("cursor"); c != "" {
		t, id, off, err := decodeCursor(c)
		if err != nil {
			return sq, err
		}
		if err := session.ValidateID(id); err != nil {
			return sq, badf("bad cursor: it does not name a session; start again from the first page")
		}
		f.BeforeTime, f.BeforeID, sq.offset, sq.cursor = t, id, off, c
	}
	if sq.back, err = parseBack(q); err != nil {
		return sq, err
	}
	if allowLimit {
		if f.Limit, err = parseLimit(q); err != nil {
			return sq, err
		}
	}
	return sq, nil
}

// parseStates accepts repeated or comma-separated state names in any case;
// "active" stands for INIT, WORKING and ENDING.
func parseStates(vals []string) ([]session.State, error) {
	var out []session.State
	add := func(s session.State) {
		for _, have := range out {
			if have == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			s := session.State(strings.ToUpper(strings.TrimSpace(s)))
			switch {
			case s == "":
			case s == "ACTIVE":
				add(session.StateInit)
				add(session.StateWorking)
				add(session.StateEnding)
			case web.Checked(web.AllStates, s):
				add(s)
			default:
				return nil, badf("unknown state %q: use %s or active", clip(string(s)), session.StateNames())
			}
		}
	}
	return out, nil
}

// violationQuery is a parsed /violations or /api/violations request.
type violationQuery struct {
	form   web.ViolationFilterForm
	filter session.ViolationFilter
	offset int
	cursor string   // this page's cursor, "" on the first
	back   []string // the cursors of the pages before (dashboard_pager.go)
}

func parseViolationQuery(q url.Values, allowLimit bool) (violationQuery, error) {
	var vq violationQuery
	f := &vq.filter
	f.Limit = pageSize
	for _, v := range q["severity"] {
		for _, s := range strings.Split(v, ",") {
			s = strings.ToUpper(strings.TrimSpace(s))
			if s == "" || web.Checked(f.Severities, s) {
				continue
			}
			if !web.Checked(web.AllSeverities, s) {
				return vq, badf("unknown severity %q: use %s", clip(s), strings.Join(web.AllSeverities, ", "))
			}
			f.Severities = append(f.Severities, s)
		}
	}
	vq.form.Severities = f.Severities
	if c := strings.TrimSpace(q.Get("code")); c != "" {
		if !codePattern.MatchString(c) {
			return vq, badf("bad code %q: letters, digits and _ . : - only, at most 64", clip(c))
		}
		c = strings.ToUpper(c) // codes are upper case: any case matches
		f.Code, vq.form.Code = c, c
	}
	if p := strings.TrimSpace(q.Get("phase")); p != "" {
		if !phasePattern.MatchString(p) {
			return vq, badf("bad phase %q: a phase id has letters, digits and _ . : - only", clip(p))
		}
		f.Phase, vq.form.Phase = p, p
	}
	var err error
	if f.Branch, err = textParam(q, "branch", maxBranch); err != nil {
		return vq, err
	}
	vq.form.Branch = f.Branch
	if f.User, err = textParam(q, "user", maxIdentity); err != nil {
		return vq, err
	}
	if f.Host, err = textParam(q, "host", maxIdentity); err != nil {
		return vq, err
	}
	if f.Repo, err = textParam(q, "repo", maxRepo); err != nil {
		return vq, err
	}
	vq.form.User, vq.form.Host, vq.form.Repo = f.User, f.Host, f.Repo
	if f.From, f.To, vq.form.From, vq.form.To, err = parseRange(q); err != nil {
		return vq, err
	}
	if c := q.Get("cursor"); c != "" {
		t, id, off, err := decodeCursor(c)
		if err != nil {
			return vq, err
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil || n <= 0 {
			return vq, badf("bad cursor: it does not name a violation; start again from the first page")
		}
		f.BeforeTime, f.BeforeID, vq.offset, vq.cursor = t, n, off, c
	}
	if vq.back, err = parseBack(q); err != nil {
		return vq, err
	}
	if allowLimit {
		if f.Limit, err = parseLimit(q); err != nil {
			return vq, err
		}
	}
	return vq, nil
}

// textParam returns a trimmed free-text parameter, refusing control
// characters and overlong values.
func textParam(q url.Values, name string, max int) (string, error) {
	v := strings.TrimSpace(q.Get(name))
	if len(v) > max {
		return "", badf("%s is %d bytes: at most %d", name, len(v), max)
	}
	if !utf8.ValidString(v) {
		return "", badf("%s is not valid UTF-8", name)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return "", badf("%s contains a control character", name)
	}
	return v, nil
}

// parseRange reads from and to: a UTC day (YYYY-MM-DD, both ends included)
// or an RFC 3339 instant (from included, to excluded).
func parseRange(q url.Values) (from, to time.Time, fromS, toS string, err error) {
	fromS, toS = strings.TrimSpace(q.Get("from")), strings.TrimSpace(q.Get("to"))
	if fromS != "" {
		if from, _, err = parseDay(fromS, "from"); err != nil {
			return
		}
	}
	if toS != "" {
		var day bool
		if to, day, err = parseDay(toS, "to"); err != nil {
			return
		}
		if day {
			to = to.Add(24 * time.Hour) // the whole day
		}
	}
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		err = badf("from (%s) is after to (%s)", fromS, toS)
	}
	return
}

func parseDay(s, name string) (time.Time, bool, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, true, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), false, nil
	}
	return time.Time{}, false, badf("bad %s date %q: use YYYY-MM-DD (or an RFC 3339 time)", name, clip(s))
}

func parseLimit(q url.Values) (int, error) {
	s := q.Get("limit")
	if s == "" {
		return pageSize, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxAPILimit {
		return 0, badf("bad limit %q: a number from 1 to %d", clip(s), maxAPILimit)
	}
	return n, nil
}

// A cursor is the keyset position after a page's last row, plus how many
// rows came before, so a page can say "51–100". It is opaque to clients:
// base64url of "nanos_id_offset".
func encodeCursor(t time.Time, id string, offset int) string {
	raw := strconv.FormatInt(t.UnixNano(), 10) + "_" + id + "_" + strconv.Itoa(offset)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeCursor(c string) (time.Time, string, int, error) {
	bad := badf("bad cursor %q: use the next_cursor or Older link the previous page gave", clip(c))
	if len(c) > 200 {
		return time.Time{}, "", 0, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", 0, bad
	}
	parts := strings.Split(string(raw), "_")
	if len(parts) != 3 {
		return time.Time{}, "", 0, bad
	}
	n, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, "", 0, bad
	}
	off, err := strconv.Atoi(parts[2])
	if err != nil || off < 0 {
		return time.Time{}, "", 0, bad
	}
	return time.Unix(0, n).UTC(), parts[1], off, nil
}

// sessionsURL renders a filter (and an optional cursor) back into a URL
// with only the parameters that are set.
func sessionsURL(base string, f web.SessionFilterForm, cursor string) string {
	v := url.Values{}
	for _, s := range f.States {
		v.Add("state", string(s))
	}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("q", f.Q)
	set("branch", f.Branch)
	set("worktree", f.Worktree)
	set("user", f.User)
	set("host", f.Host)
	set("repo", f.Repo)
	set("violations", f.Violations)
	set("severity", f.Severity)
	set("now", f.Now)
	set("from", f.From)
	set("to", f.To)
	set("cursor", cursor)
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

func violationsURL(base string, f web.ViolationFilterForm, cursor string) string {
	v := url.Values{}
	for _, s := range f.Severities {
		v.Add("severity", s)
	}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("code", f.Code)
	set("phase", f.Phase)
	set("branch", f.Branch)
	set("user", f.User)
	set("host", f.Host)
	set("repo", f.Repo)
	set("from", f.From)
	set("to", f.To)
	set("cursor", cursor)
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// clip keeps echoed user input short in error messages.
func clip(s string) string { return web.Truncate(s, 40) }

// dropHalfDates removes from and to values that are only the beginning of
// a YYYY-MM-DD date (a half-typed "2026-03" or "2026-03-"), for the HTML
// pages: the list is shown without that bound and a notice says so,
// instead of an error page. A complete but wrong date ("2026-13-45") or
// another word stays a 400 naming the parameter, as does everything in
// the JSON API.
func dropHalfDates(q url.Values) (url.Values, string) {
	var notes []string
	for _, name := range []string{"from", "to"} {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			continue
		}
		if _, _, err := parseDay(v, name); err != nil && halfDate(v) {
			if notes == nil {
				q = cloneValues(q)
			}
			q.Del(name)
			notes = append(notes, fmt.Sprintf("%s %q is not a full date (YYYY-MM-DD) yet, so it is left out", name, clip(v)))
		}
	}
	if notes == nil {
		return q, ""
	}
	return q, strings.Join(notes, "; ") + "."
}

// halfDate reports whether s is a proper prefix of the YYYY-MM-DD layout:
// digits where the layout has digits, dashes where it has dashes.
func halfDate(s string) bool {
	const layout = "dddd-dd-dd"
	if len(s) == 0 || len(s) >= len(layout) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if layout[i] == 'd' && (s[i] < '0' || s[i] > '9') || layout[i] == '-' && s[i] != '-' {
			return false
		}
	}
	return true
}

func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}
