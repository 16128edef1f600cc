package server

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/web"
)

// TestDashboardListsAndErrors: the 404 page in the layout, gzip, lenient
// half-typed dates on the pages (strict in the API), code and phase in
// any case, the violations count.
func TestDashboardListsAndErrors(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		name, path string
		htmx       bool
		status     int
		want, not  []string
	}{
		{"unknown page", "/no/such/page", false, 404, []string{"<!doctype html>", `<nav aria-label="Main">`, "Page not found", "/no/such/page"}, nil},
		{"unknown page, htmx", "/nope", true, 404, []string{`class="error-box"`, "Page not found"}, []string{"<!doctype html>"}},
		{"unknown API path", "/api/nope", false, 404, []string{`{"error":"not found: /api/nope"}`}, []string{"<html"}},
		{"half-typed date on the page", "/sessions?from=2026-03&state=COMPLETE", false, 200,
			[]string{`from &#34;2026-03&#34; is not a full date (YYYY-MM-DD) yet, so it is left out`, "sessions match"}, nil},
		{"half-typed date in the API", "/api/sessions?from=2026-03", false, 400, []string{"bad from date"}, nil},
		{"half-typed to date with a dash", "/violations?to=2026-03-", false, 200, []string{`to &#34;2026-03-&#34; is not a full date`}, nil},
		{"a complete wrong date stays an error", "/sessions?from=2026-13-45", false, 400, []string{"bad from date"}, nil},
		{"a word stays an error", "/violations?to=yesterday", false, 400, []string{"bad to date"}, nil},
		{"code in any case", "/violations?code=forced_advance", false, 200, []string{"1 violation matches", `<option value="FORCED_ADVANCE" selected>`}, nil},
		{"phase in any case", "/violations?phase=context_retrieval", false, 200,
			[]string{"2 violations match", `<option value="CONTEXT_RETRIEVAL" selected>`}, nil},
		{"sessions with a violation of a severity", "/sessions?severity=high", false, 200,
			[]string{`<option value="HIGH" selected>`, "1 session matches"}, nil},
		{"a violation outside any session is no session's", "/sessions?severity=CRITICAL", false, 200,
			[]string{"No session matches these filters."}, nil},
		{"a severity that is not one", "/api/sessions?severity=bad", false, 400, []string{"bad severity filter"}, nil},
		{"violations count, objective and branch", "/violations", false, 200, []string{"3 violations match", "Blocked start</div>", "feat/x</div>"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := env.get(c.path, c.htmx)
			body := rec.Body.String()
			if rec.Code != c.status {
				t.Fatalf("GET %s: %d, want %d\n%.400s", c.path, rec.Code, c.status, body)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: missing %q", c.path, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(body, n) {
					t.Errorf("GET %s: should not contain %q", c.path, n)
				}
			}
		})
	}

	t.Run("405 stays 405", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodDelete, "/sessions/"+dashSID(1), nil)
		req.Host = "127.0.0.1:7400"
		rec := httptest.NewRecorder()
		env.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("DELETE a session page: %d, want 405", rec.Code)
		}
	})

	t.Run("gzip", func(t *testing.T) {
		for _, path := range []string{"/", "/sessions", "/api/sessions", "/static/htmx.min.js?v=" + web.AssetTag("htmx.min.js"), "/static/app.css"} {
			plain := env.get(path, false)
			rec := env.get(path, false, "Accept-Encoding", "gzip")
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Errorf("GET %s with Accept-Encoding gzip: Content-Encoding %q", path, rec.Header().Get("Content-Encoding"))
				continue
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != plain.Body.Len() || rec.Body.Len() >= plain.Body.Len() {
				t.Errorf("GET %s: %d bytes gzipped to %d, unzipped %d", path, plain.Body.Len(), rec.Body.Len(), len(got))
			}
		}
		// A poll that changed nothing stays an empty 204.
		page := env.get("/", false).Body.String()
		_, rest, _ := strings.Cut(page, `hx-get="/?v=`)
		v, _, _ := strings.Cut(rest, `"`)
		rec := env.get("/?v="+v, true, "Accept-Encoding", "gzip")
		if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 || rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("unchanged poll with gzip: %d, %d bytes, encoding %q", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Encoding"))
		}
	})
}

// TestDashboardExport: the current filter as CSV and JSON, every page of
// it (read in keyset pages, here of 7 rows), linked from the list.
func TestDashboardExport(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	defer func(n int) { exportPage = n }(exportPage)
	exportPage = 7
	page := env.get("/sessions?branch=bulk", false).Body.String()
	if !strings.Contains(page, `href="/sessions/export?branch=bulk&amp;format=csv"`) || !strings.Contains(page, `href="/sessions/export?branch=bulk&amp;format=json"`) {
		t.Fatal("the sessions list does not link the export of its filter")
	}
	rec := env.get("/sessions/export?branch=bulk&format=csv", false)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("CSV export: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	r := csv.NewReader(rec.Body)
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != fillers+1 || rows[0][0] != "id" || rows[1][1] != "COMPLETE" || rows[1][3] != "bulk" {
		t.Fatalf("CSV export: %d rows (want %d and a header), first %v", len(rows), fillers+1, rows[:2])
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		if seen[row[0]] {
			t.Fatalf("session %s exported twice", row[0])
		}
		seen[row[0]] = true
	}
	var js struct {
		Sessions []struct {
			ID             string `json:"id"`
			ViolationCount int    `json:"violation_count"`
		} `json:"sessions"`
		Count     int  `json:"count"`
		Truncated bool `json:"truncated"`
	}
	rec = env.get("/sessions/export?branch=feat/x&format=json", false)
	if err := json.Unmarshal(rec.Body.Bytes(), &js); err != nil {
		t.Fatalf("JSON export: %v\n%s", err, rec.Body)
	}
	if js.Count != 1 || len(js.Sessions) != 1 || js.Sessions[0].ID != dashSID(2) || js.Sessions[0].ViolationCount != 1 || js.Truncated {
		t.Errorf("JSON export of feat/x: %+v", js)
	}
	rec = env.get("/violations/export?severity=critical&format=csv", false)
	if rows, err := csv.NewReader(rec.Body).ReadAll(); err != nil || len(rows) != 2 || rows[1][3] != "BYPASS" {
		t.Errorf("violations CSV export: %v %v", rows, err)
	}
	if rec := env.get("/sessions/export?format=xml", false); rec.Code != 400 {
		t.Errorf("unknown export format: %d, want 400", rec.Code)
	}
}

// TestSessionsNowFilter: running sessions blocked now or idle, judged as
// their pages judge them.
func TestSessionsNowFilter(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		path      string
		want, not []string
	}{
		// Session 6 sits on a failed BLOCKING gate; session 5 is WORKING (nothing blocks it).
		{"/sessions?now=blocked", []string{"1 session matches", `href="/sessions/` + dashSID(6) + `"`, "blocked now", `<option value="blocked" selected>`},
			[]string{`href="/sessions/` + dashSID(5) + `"`}},
		// Both ran their last call 29 and 59 minutes before the clock.
		{"/sessions?now=idle", []string{"2 sessions match", `href="/sessions/` + dashSID(5) + `"`, `href="/sessions/` + dashSID(6) + `"`, "idle 59m00s"}, nil},
		{"/sessions?now=idle&branch=feat/live", []string{"1 session matches", `href="/sessions/` + dashSID(5) + `"`}, nil},
		{"/sessions?now=blocked&state=COMPLETE", []string{"No session matches these filters."}, nil},
	} {
		rec := env.get(c.path, false)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", c.path, rec.Code)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: missing %q", c.path, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(body, n) {
				t.Errorf("GET %s: should not contain %q", c.path, n)
			}
		}
	}
	if rec := env.get("/sessions?now=sleepy", false); rec.Code != 400 {
		t.Errorf("unknown now filter: %d, want 400", rec.Code)
	}
}
