package server

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/session"
)

// Export of the current filter: /sessions/export and /violations/export
// with the list's own filters and format=csv or format=json. Rows are read
// in keyset pages and written as they come, newest first, up to exportMax
// rows (the last CSV line, or the JSON "truncated" field, says when more
// matched).

const exportMax = 10_000

// exportPage is how many rows one read fetches (a variable so a test can
// make the pages small).
var exportPage = 500

func exportFormat(c echo.Context) (string, error) {
	switch f := c.QueryParam("format"); f {
	case "csv", "json":
		return f, nil
	case "":
		return "csv", nil
	default:
		return "", badf("bad format %q: use csv or json", clip(f))
	}
}

func exportHeaders(c echo.Context, name, format string) {
	h := c.Response().Header()
	if format == "csv" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	h.Set("Content-Disposition", `attachment; filename="sessiongate-`+name+`.`+format+`"`)
	h.Set("Cache-Control", "no-store")
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func (d *dashboard) exportSessions(c echo.Context) error {
	ctx := c.Request().Context()
	format, err := exportFormat(c)
	if err != nil {
		return d.apiFail(c, err)
	}
	q := c.QueryParams()
	q.Del("cursor") // an export covers the whole filter, not one page
	sq, err := parseSessionQuery(q, false)
	if err != nil {
		return d.apiFail(c, err)
	}
	f := sq.filter
	f.Limit = exportPage
	exportHeaders(c, "sessions", format)
	c.Response().WriteHeader(http.StatusOK)
	w := c.Response()
	var cw *csv.Writer
	enc := json.NewEncoder(w)
	if format == "csv" {
		cw = csv.NewWriter(w)
		_ = cw.Write([]string{"id", "state", "objective", "branch", "worktree", "user_email", "host", "created_at", "ended_at", "last_activity", "violations", "terminate_reason", "clean", "verdict"})
	} else {
		_, _ = w.Write([]byte(`{"sessions":[`))
	}
	n, truncated := 0, false
	for {
		var list []*session.Session
		if sq.now != "" {
			// Running sessions blocked or idle now: one read, no pages.
			page, _, err := d.sessionsNow(ctx, sq)
			if err != nil {
				return err
			}
			for _, r := range page.rows {
				list = append(list, r.Session)
			}
		} else if list, err = d.store().ListSessions(ctx, f); err != nil {
			return err // headers are sent: the body ends short
		}
		ids := make([]string, len(list))
		for i, s := range list {
			ids[i] = s.ID
		}
		counts := map[string]int{}
		if d.agg != nil {
			if counts, err = d.agg.ViolationCounts(ctx, ids); err != nil {
				return err
			}
		}
		// The verdict every other listing gives (session.Clean,
		// session.Verdict): the page's in one batch.
		verdicts, err := d.verdictsOfRows(ctx, list)
		if err != nil {
			return err // headers are sent: the body ends short
		}
		for _, s := range list {
			if n == exportMax {
				truncated = true
				break
			}
			rv := verdicts[s.ID]
			if cw != nil {
				clean := ""
				if rv.clean != nil {
					clean = strconv.FormatBool(*rv.clean)
				}
				_ = cw.Write([]string{s.ID, string(s.State), s.Objective, s.Branch, s.Worktree, s.UserEmail, s.Host,
					rfc3339(s.CreatedAt), rfc3339(s.EndedAt), rfc3339(s.LastActivity), strconv.Itoa(counts[s.ID]), s.TerminateReason, clean, rv.line})
			} else {
				if n > 0 {
					_, _ = w.Write([]byte(","))
				}
				_ = enc.Encode(apiSessionRow{Session: s, ViolationCount: counts[s.ID], NotClean: rv.notClean, Clean: rv.clean, Verdict: rv.line})
			}
			n++
		}
		if truncated || len(list) < f.Limit || sq.now != "" {
			break
		}
		last := list[len(list)-1]
		f.BeforeTime, f.BeforeID = last.CreatedAt, last.ID
	}
	return endExport(w, cw, n, truncated)
}

func (d *dashboard) exportViolations(c echo.Context) error {
	ctx := c.Request().Context()
	format, err := exportFormat(c)
	if err != nil {
		return d.apiFail(c, err)
	}
	q := c.QueryParams()
	q.Del("cursor")
	vq, err := parseViolationQuery(q, false)
	if err != nil {
		return d.apiFail(c, err)
	}
	f := vq.filter
	f.Limit = exportPage
	exportHeaders(c, "violations", format)
	c.Response().WriteHeader(http.StatusOK)
	w := c.Response()
	var cw *csv.Writer
	enc := json.NewEncoder(w)
	if format == "csv" {
		cw = csv.NewWriter(w)
		_ = cw.Write([]string{"id", "created_at", "severity", "code", "phase", "requirement", "message", "session_id", "window", "decay_runs"})
	} else {
		_, _ = w.Write([]byte(`{"violations":[`))
	}
	n, truncated := 0, false
	for {
		list, err := d.store().ListViolations(ctx, f)
		if err != nil {
			return err
		}
		for _, v := range list {
			if n == exportMax {
				truncated = true
				break
			}
			if cw != nil {
				_ = cw.Write([]string{strconv.FormatInt(v.ID, 10), rfc3339(v.CreatedAt), v.Severity, v.Code, v.Phase, v.Requirement,
					v.Message, v.SessionID, v.Window, strconv.Itoa(v.DecayRuns)})
			} else {
				if n > 0 {
					_, _ = w.Write([]byte(","))
				}
				_ = enc.Encode(v)
			}
			n++
		}
		if truncated || len(list) < f.Limit {
			break
		}
		last := list[len(list)-1]
		f.BeforeTime, f.BeforeID = last.CreatedAt, last.ID
	}
	return endExport(w, cw, n, truncated)
}

// endExport closes the CSV or JSON body; a truncated export says so.
func endExport(w http.ResponseWriter, cw *csv.Writer, n int, truncated bool) error {
	if cw != nil {
		if truncated {
			_ = cw.Write([]string{"# truncated at " + strconv.Itoa(n) + " rows: narrow the filter"})
		}
		cw.Flush()
		return cw.Error()
	}
	_, err := w.Write([]byte(`],"count":` + strconv.Itoa(n) + `,"truncated":` + strconv.FormatBool(truncated) + "}\n"))
	return err
}

// exportURLs are the CSV and JSON export links of a filtered list URL.
func exportURLs(listURL, path string) (csvURL, jsonURL string) {
	base := path + "/export"
	if i := indexByte(listURL, '?'); i >= 0 {
		base += listURL[i:] + "&"
	} else {
		base += "?"
	}
	return base + "format=csv", base + "format=json"
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
