package server

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/web"
)

func TestDashboardPagesRenderSeededData(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		name, path string
		want       []string
		not        []string
	}{
		{"overview", "/", []string{
			"Blocked start", "Live work on the dashboard", // running now
			"gate CONTEXT_RETRIEVAL fails: no tool_output evidence recorded", "Blocked by BLOCKING gate CONTEXT_RETRIEVAL:", // what blocks
			`<span class="card-n">126</span>`, `<span class="card-n">2</span><span class="card-l">running</span>`,
			"<svg", "Mar 16: 0% (0 of 1 ended session compliant)", "Mar 6: 100% (120 of 120 ended sessions compliant)", // chart
			"121 of 124", "SEQUENCE_RULE", "outside a session", // latest violations
		}, nil},
		{"sessions", "/sessions", []string{"126 sessions match", "showing 1–50", "Fix login bug", "Filler session 119", `rel="next"`},
			[]string{"Filler session 75"}},
		{"session", "/sessions/" + dashSID(1), []string{
			"Fix login bug", "Fixed the login bug; tests pass.", "main",
			`title="1111111111111111111111111111111111111111"`, `title="2222222222222222222222222222222222222222"`, // starting, ending commit
			`href="/protocol?sha=` + env.spec.SHA256 + `"`, // pinned protocol, linked
			"PASSED", "SKIPPED: recommended gate failed", "PENDING", "1 tool_output evidence", // timeline
			strings.Repeat("ab", 6), "812 bytes", // evidence reference
			`title="3333333333333333333333333333333333333333"`,    // commit linked by trailer
			"sha256:" + strings.Repeat("0f", 32),                  // snapshot id
			"tool:session_start", "No violation in this session.", // event log, violations
		}, []string{"RAW-BODY-MUST-NOT-SHOW", `hx-trigger="every 2s`, "terminate-box"}},
		{"active session", "/sessions/" + dashSID(6), []string{
			"Blocked start", `hx-trigger="every 2s`, "Live: this page follows the session.", "FAILED", "current",
			"SEQUENCE_RULE", "Terminate this session",
		}, nil},
		{"working session", "/sessions/" + dashSID(5), []string{"NOW", "by post-commit", `title="4444444444444444444444444444444444444444"`, "444444444444</code>"}, nil},
		{"forced session", "/sessions/" + dashSID(2), []string{"FORCED", "FORCED: in a hurry", "FORCED_ADVANCE", "HIGH"}, nil},
		{"terminated session", "/sessions/" + dashSID(4), []string{"TERMINATED", "Terminated:"}, []string{"Terminate this session"}},
		{"violations", "/violations", []string{"FORCED_ADVANCE", "SEQUENCE_RULE", "BYPASS", "CRITICAL", `href="/sessions/` + dashSID(2) + `"`}, nil},
		{"protocol", "/protocol", []string{"Context Retrieval", "CONTEXT_RETRIEVAL", "commit_since_start", "evidence only",
			"relies on recorded evidence only", "The agent MUST commit its changes.", "current", "Stored versions",
			"CONTEXT_RETRIEVAL.read-handoff-notes-record", "PLAN.write-plan"}, nil}, // requirement and checklist-row ids
		{"protocol by sha", "/protocol?sha=" + env.spec.SHA256, []string{"QA_VALIDATION", env.spec.SHA256[:12]}, nil},
		{"team", "/team", []string{
			"Bypasses in the last 7 days: 1", "git commit --no-verify outside a session", // the BYPASS 6 days ago
			`href="/sessions?repo=%2Fw%2Fdemo"`, "121 of 124", // the repository's row links to its sessions
			`<span class="muted">unknown</span>`, "Week of 2026-03-07", // seeded sessions carry no git identity
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := env.get(c.path, false)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", c.path, rec.Code, rec.Body)
			}
			body := rec.Body.String()
			if !strings.HasPrefix(body, "<!doctype html>") || !strings.Contains(body, "</html>") {
				t.Errorf("GET %s is not a full page", c.path)
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
}

func TestDashboardPartialsAndFullPages(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		path, fragment string
	}{
		{"/", `<div id="overview"`},
		{"/sessions?state=COMPLETE", `<section id="results"`},
		{"/sessions/" + dashSID(5), `<div id="live"`},
		{"/violations", `<section id="results"`},
		{"/protocol", `<div id="protocol"`},
	} {
		t.Run(c.path, func(t *testing.T) {
			full := env.get(c.path, false)
			part := env.get(c.path, true)
			restore := env.get(c.path, true, "HX-History-Restore-Request", "true")
			for name, rec := range map[string]*httptest.ResponseRecorder{"full": full, "partial": part, "history restore": restore} {
				if rec.Code != http.StatusOK {
					t.Fatalf("%s: status %d", name, rec.Code)
				}
				if got := rec.Header().Values("Vary"); !slices.Contains(got, "HX-Request") {
					t.Errorf("%s: Vary = %q, want HX-Request", name, got)
				}
				if !strings.Contains(rec.Body.String(), c.fragment) {
					t.Errorf("%s: missing %s", name, c.fragment)
				}
			}
			if !strings.HasPrefix(full.Body.String(), "<!doctype html>") || !strings.HasPrefix(restore.Body.String(), "<!doctype html>") {
				t.Error("a plain request and a history restore must get the whole page")
			}
			if b := part.Body.String(); strings.Contains(b, "<html") || strings.Contains(b, `<nav aria-label="Main"`) || !strings.HasPrefix(b, c.fragment) {
				t.Errorf("htmx request got more than the fragment: %.200s", b)
			}
		})
	}
}

// apiSessionIDs lists /api/sessions rows for a query.
func apiSessionIDs(t *testing.T, env *dashEnv, query string) ([]string, apiSessionList) {
	t.Helper()
	rec := env.get("/api/sessions?"+query, false)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/sessions?%s: %d %s", query, rec.Code, rec.Body)
	}
	var out apiSessionList
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(out.Sessions))
	for i, s := range out.Sessions {
		ids[i] = s.ID
	}
	return ids, out
}

func TestSessionFilters(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		query string
		want  []int // seeded session numbers, newest first
	}{
		{"state=WORKING", []int{5}},
		{"state=active", []int{6, 5}},
		{"state=init,working", []int{6, 5}},
		{"state=TERMINATED&state=ABANDONED", []int{4, 3}},
		{"branch=feat/x", []int{2}},
		{"worktree=/w/demo-wt2", []int{6}},
		{"violations=yes", []int{6, 2}},
		{"violations=no&branch=main", []int{4, 3, 1}},
		{"q=login", []int{1}},
		{"q=" + url.QueryEscape("<script>"), []int{2}},
		{"q=LOGIN", []int{1}},
		{"from=2026-03-16&to=2026-03-17", []int{3, 2}},
		{"from=2026-03-18", []int{6, 5, 4}},
		{"to=2026-03-15&branch=main", []int{1}},
		{"from=2026-03-20T11:15:00Z", []int{6}},
		{"state=COMPLETE&branch=nope", nil},
	} {
		t.Run(c.query, func(t *testing.T) {
			ids, out := apiSessionIDs(t, env, c.query)
			var want []string
			for _, n := range c.want {
				want = append(want, dashSID(n))
			}
			if !slices.Equal(ids, want) {
				t.Errorf("ids = %v, want %v", ids, want)
			}
			if out.Total != len(want) {
				t.Errorf("total = %d, want %d", out.Total, len(want))
			}
			// The page shows the same rows.
			page := env.get("/sessions?"+c.query, true).Body.String()
			for _, id := range want {
				if !strings.Contains(page, `href="/sessions/`+id+`"`) {
					t.Errorf("page misses session %s", id)
				}
			}
			if len(want) == 0 && !strings.Contains(page, "No session matches these filters.") {
				t.Errorf("no empty state: %.300s", page)
			}
		})
	}
}

func TestSessionPagination(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, c := range []struct {
		query string
		limit int
		total int
	}{
		{"", 50, 126},
		{"branch=bulk", 50, fillers},
		{"state=COMPLETE", 7, 122},
	} {
		t.Run(c.query, func(t *testing.T) {
			var all []string
			cursor := ""
			pages := 0
			for {
				q := c.query + "&limit=" + itoaT(c.limit)
				if cursor != "" {
					q += "&cursor=" + cursor
				}
				ids, out := apiSessionIDs(t, env, q)
				pages++
				if len(ids) > c.limit || (out.NextCursor != "" && len(ids) != c.limit) {
					t.Fatalf("page %d has %d rows (limit %d, next %q)", pages, len(ids), c.limit, out.NextCursor)
				}
				all = append(all, ids...)
				if out.NextCursor == "" {
					break
				}
				cursor = out.NextCursor
				if pages > 100 {
					t.Fatal("pagination does not end")
				}
			}
			if len(all) != c.total {
				t.Fatalf("walked %d rows in %d pages, want %d", len(all), pages, c.total)
			}
			seen := map[string]bool{}
			for _, id := range all {
				if seen[id] {
					t.Fatalf("session %s on two pages", id)
				}
				seen[id] = true
			}
			// Newest first across pages: compare with one big page.
			big, _ := apiSessionIDs(t, env, c.query+"&limit=200")
			if !slices.Equal(all, big) {
				t.Error("paged order differs from the single-page order")
			}
		})
	}

	// The HTML pager: follow "Older sessions" from the first page.
	first := env.get("/sessions", false).Body.String()
	next := regexp.MustCompile(`href="([^"]+)" hx-get="[^"]+" hx-target="#results" hx-swap="outerHTML" hx-push-url="true" rel="next"`).FindStringSubmatch(first)
	if next == nil {
		t.Fatal("first page has no Older link")
	}
	second := env.get(html.UnescapeString(next[1]), true)
	body := second.Body.String()
	if second.Code != http.StatusOK || !strings.Contains(body, "showing 51–100") || !strings.Contains(body, "⇤ Newest") {
		t.Fatalf("second page: %d %.400s", second.Code, body)
	}
	if push := second.Header().Get("HX-Push-Url"); !strings.HasPrefix(push, "/sessions?cursor=") || !strings.HasSuffix(push, "&back=0") {
		t.Errorf("HX-Push-Url = %q, want the canonical URL with the cursor and the way back", push)
	}
	// Older again, then Newer twice: back to page 2, then page 1.
	rel := func(body, r string) string {
		m := regexp.MustCompile(`href="([^"]+)" hx-get="[^"]+" hx-target="#results" hx-swap="outerHTML" hx-push-url="true" rel="` + r + `"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no %s link in %.300s", r, body)
		}
		return html.UnescapeString(m[1])
	}
	third := env.get(rel(body, "next"), true).Body.String()
	if !strings.Contains(third, "showing 101–126") {
		t.Fatalf("third page: %.300s", third)
	}
	back2 := env.get(rel(third, "prev"), true).Body.String()
	if !strings.Contains(back2, "showing 51–100") {
		t.Fatalf("Newer from page 3: %.300s", back2)
	}
	back1 := env.get(rel(back2, "prev"), true).Body.String()
	if !strings.Contains(back1, "showing 1–50") || strings.Contains(back1, `rel="prev"`) {
		t.Fatalf("Newer from page 2: %.300s", back1)
	}
	if rec := env.get("/sessions?back=nonsense", false); rec.Code != http.StatusBadRequest {
		t.Errorf("a forged back chain: %d, want 400", rec.Code)
	}
	if strings.Contains(body, "Filler session 119") {
		t.Error("the second page repeats a row of the first")
	}
}

func TestSessionsPushURLIsCanonical(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	rec := env.get("/sessions?state=COMPLETE&q=&branch=main&worktree=&violations=&from=&to=", true)
	if got, want := rec.Header().Get("HX-Push-Url"), "/sessions?branch=main&state=COMPLETE"; got != want {
		t.Errorf("HX-Push-Url = %q, want %q", got, want)
	}
	// The full page refills the form from the URL.
	page := env.get("/sessions?state=COMPLETE&branch=main&violations=no&from=2026-03-01", false).Body.String()
	for _, w := range []string{`value="COMPLETE" checked`, `name="branch" value="main"`, `value="no" selected`, `name="from" value="2026-03-01"`, "Clear filters"} {
		if !strings.Contains(page, w) {
			t.Errorf("form not refilled: missing %q", w)
		}
	}
}

func TestViolationFilters(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	codes := func(query string) ([]string, string) {
		t.Helper()
		rec := env.get("/api/violations?"+query, false)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /api/violations?%s: %d %s", query, rec.Code, rec.Body)
		}
		var out apiViolationList
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		var cs []string
		for _, v := range out.Violations {
			cs = append(cs, v.Code)
		}
		return cs, out.NextCursor
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", []string{"SEQUENCE_RULE", "FORCED_ADVANCE", "BYPASS"}},
		{"severity=HIGH", []string{"FORCED_ADVANCE"}},
		{"severity=critical,medium", []string{"SEQUENCE_RULE", "BYPASS"}},
		{"code=BYPASS", []string{"BYPASS"}},
		{"phase=CONTEXT_RETRIEVAL", []string{"SEQUENCE_RULE", "FORCED_ADVANCE"}},
		{"branch=main", []string{"SEQUENCE_RULE"}},
		{"branch=feat/x", []string{"FORCED_ADVANCE"}},
		{"from=2026-03-15&to=2026-03-19", []string{"FORCED_ADVANCE"}},
		{"code=NOPE", nil},
	} {
		t.Run(c.query, func(t *testing.T) {
			got, _ := codes(c.query)
			if !slices.Equal(got, c.want) {
				t.Errorf("codes = %v, want %v", got, c.want)
			}
			page := env.get("/violations?"+c.query, true).Body.String()
			for _, code := range c.want {
				if !strings.Contains(page, ">"+code+"<") {
					t.Errorf("page misses %s", code)
				}
			}
		})
	}
	// One row per page, three pages.
	var walked []string
	cursor := ""
	for i := 0; i < 5; i++ {
		q := "limit=1"
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		got, next := codes(q)
		walked = append(walked, got...)
		if cursor = next; cursor == "" {
			break
		}
	}
	if !slices.Equal(walked, []string{"SEQUENCE_RULE", "FORCED_ADVANCE", "BYPASS"}) {
		t.Errorf("paged violations = %v", walked)
	}
}

func TestBadInputIs4xx(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	unknown := "0badf00d-0000-4000-8000-000000000000"
	wrongCursor := encodeCursor(time.Unix(1, 0), "not-a-uuid", 0)
	for _, c := range []struct {
		path   string
		status int
		msg    string
	}{
		{"/sessions?state=BOGUS", 400, "unknown state"},
		{"/sessions?violations=maybe", 400, "bad violations filter"},
		{"/sessions?from=2026-13-01", 400, "bad from date"},
		{"/sessions?to=yesterday", 400, "bad to date"},
		{"/sessions?from=2026-03-10&to=2026-03-01", 400, "is after to"},
		{"/sessions?cursor=!!!", 400, "bad cursor"},
		{"/sessions?cursor=" + wrongCursor, 400, "bad cursor"},
		{"/sessions?q=" + strings.Repeat("x", 201), 400, "at most 200"},
		{"/sessions?branch=a%00b", 400, "control character"},
		{"/api/sessions?limit=0", 400, "bad limit"},
		{"/api/sessions?limit=1000", 400, "bad limit"},
		{"/api/sessions?state=nope", 400, "unknown state"},
		{"/violations?severity=URGENT", 400, "unknown severity"},
		{"/violations?code=a%20b", 400, "bad code"},
		{"/violations?phase=%3Cx%3E", 400, "bad phase"},
		{"/violations?cursor=" + encodeCursor(time.Unix(1, 0), "abc", 0), 400, "bad cursor"},
		{"/api/violations?from=never", 400, "bad from date"},
		{"/sessions/not-a-uuid", 400, "invalid session id"},
		{"/sessions/" + unknown, 404, "not found"},
		{"/api/sessions/not-a-uuid", 400, "invalid session id"},
		{"/api/sessions/" + unknown, 404, "not found"},
		{"/protocol?sha=xyz", 400, "bad sha"},
		{"/protocol?sha=" + strings.Repeat("0", 64), 404, "No protocol with sha256"},
		{"/static/nope.css", 404, "not found"},
	} {
		t.Run(c.path, func(t *testing.T) {
			for _, htmx := range []bool{false, true} {
				rec := env.get(c.path, htmx)
				if rec.Code != c.status {
					t.Fatalf("htmx=%v: status %d, want %d\n%.300s", htmx, rec.Code, c.status, rec.Body)
				}
				if !strings.Contains(rec.Body.String(), c.msg) {
					t.Errorf("htmx=%v: body does not say %q: %.300s", htmx, c.msg, rec.Body)
				}
				if strings.HasPrefix(c.path, "/api/") {
					var e apiError
					if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
						t.Errorf("API error is not JSON {error}: %s", rec.Body)
					}
				}
			}
		})
	}
}

// TestStoredTextIsEscaped: text from the database (objective, reason,
// evidence references, violation messages) is markup-escaped everywhere.
func TestStoredTextIsEscaped(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	raw := []string{`<script>alert("x")</script>`, "<b>stop</b>", "<img src=x", "<i>CONTEXT_RETRIEVAL</i>"}
	for _, path := range []string{"/", "/sessions", "/sessions?q=script", "/sessions/" + dashSID(2), "/sessions/" + dashSID(4),
		"/violations", "/api/sessions", "/api/sessions/" + dashSID(2), "/api/violations"} {
		for _, htmx := range []bool{false, true} {
			body := env.get(path, htmx).Body.String()
			for _, r := range raw {
				if strings.Contains(body, r) {
					t.Errorf("GET %s (htmx=%v) contains raw %q", path, htmx, r)
				}
			}
		}
	}
	if b := env.get("/sessions/"+dashSID(2), false).Body.String(); !strings.Contains(b, "Refactor parser &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("the objective is not shown escaped")
	}
	if b := env.get("/sessions/"+dashSID(4), false).Body.String(); !strings.Contains(b, "&lt;b&gt;stop&lt;/b&gt; now") {
		t.Error("the terminate reason is not shown escaped")
	}
}

func TestRawEvidenceBodiesNeverShown(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	for _, path := range []string{"/sessions/" + dashSID(1), "/api/sessions/" + dashSID(1)} {
		body := env.get(path, false).Body.String()
		if strings.Contains(body, "RAW-BODY") || strings.Contains(body, "UkFXLUJPRFk") { // nor base64 of it
			t.Errorf("GET %s shows a raw evidence body", path)
		}
		if !strings.Contains(body, strings.Repeat("ab", 6)) {
			t.Errorf("GET %s lacks the evidence hash", path)
		}
	}
	var det apiSessionDetail
	if err := json.Unmarshal(env.get("/api/sessions/"+dashSID(1), false).Body.Bytes(), &det); err != nil {
		t.Fatal(err)
	}
	if len(det.Evidence) != 2 || !slices.Equal(det.Commits, []string{"3333333333333333333333333333333333333333"}) || len(det.Snapshots) != 1 {
		t.Errorf("API detail: %d evidence, commits %v, %d snapshots", len(det.Evidence), det.Commits, len(det.Snapshots))
	}
}

func (env *dashEnv) post(path string, form url.Values, hdr ...string) *httptest.ResponseRecorder {
	env.t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Host = "127.0.0.1:7400"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	env.srv.Handler().ServeHTTP(rec, req)
	return rec
}

// A form posted from another origin (another site, or another port of
// localhost) is refused; the browser says so in Sec-Fetch-Site, older
// ones in Origin. A client that sends neither is no browser, so no CSRF.
func TestTerminateRefusesOtherOrigins(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	id := dashSID(5)
	path := "/sessions/" + id + "/terminate"
	state := func() *session.Session {
		s, err := env.db.GetSession(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		name   string
		form   url.Values
		hdr    []string
		status int
	}{
		{"cross-site fetch", url.Values{"reason": {"stop"}}, []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"same-site fetch (another port)", url.Values{"reason": {"stop"}}, []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"cross-site origin", url.Values{"reason": {"stop"}}, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"other local port", url.Values{"reason": {"stop"}}, []string{"Origin", "http://127.0.0.1:9999"}, http.StatusForbidden},
		{"no reason", url.Values{}, []string{"Sec-Fetch-Site", "same-origin"}, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := env.post(path, c.form, c.hdr...)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if s := state(); s.State != session.StateWorking || s.Terminated {
				t.Fatalf("session changed: %s terminated=%v", s.State, s.Terminated)
			}
		})
	}
	// Signing in is a form too: a page elsewhere cannot sign a browser in.
	if rec := env.post("/signin", url.Values{"token": {"x"}}, "Sec-Fetch-Site", "cross-site"); rec.Code != http.StatusForbidden {
		t.Errorf("cross-site sign-in: %d, want 403", rec.Code)
	}
	rec := env.post(path, url.Values{"reason": {"stuck <on> CI"}}, "Origin", "http://127.0.0.1:7400", "Sec-Fetch-Site", "same-origin")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/sessions/"+id {
		t.Fatalf("terminate: %d %q %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	s := state()
	if s.State != session.StateTerminated || !s.Terminated || s.TerminateReason != "stuck <on> CI" {
		t.Fatalf("after terminate: %+v", s)
	}
	page := env.get("/sessions/"+id, false).Body.String()
	if !strings.Contains(page, "stuck &lt;on&gt; CI") || strings.Contains(page, `hx-trigger="every 2s`) {
		t.Error("the page does not show the terminated session")
	}
	// Terminating twice, or an ended session, is a conflict; unknown ids 404.
	if rec := env.post(path, url.Values{"reason": {"again"}}); rec.Code != http.StatusConflict {
		t.Errorf("second terminate: %d, want 409", rec.Code)
	}
	if rec := env.post("/sessions/"+dashSID(1)+"/terminate", url.Values{"reason": {"x"}}); rec.Code != http.StatusConflict {
		t.Errorf("terminate a COMPLETE session: %d, want 409", rec.Code)
	}
	if rec := env.post("/sessions/0badf00d-0000-4000-8000-000000000000/terminate", url.Values{"reason": {"x"}}); rec.Code != http.StatusNotFound {
		t.Errorf("terminate unknown: %d, want 404", rec.Code)
	}
	if rec := env.post("/sessions/nope/terminate", url.Values{"reason": {"x"}}); rec.Code != http.StatusBadRequest {
		t.Errorf("terminate malformed id: %d, want 400", rec.Code)
	}
	// Nothing else mutates: other methods are refused.
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req := httptest.NewRequest(m, "/sessions/"+dashSID(6), nil)
		req.Host = "127.0.0.1:7400"
		rec := httptest.NewRecorder()
		env.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s /sessions/{id}: %d, want 405", m, rec.Code)
		}
	}
}

func TestSecurityHeadersAndNoInlineScript(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	inline := regexp.MustCompile(`<script(\s[^>]*)?>`)
	for _, path := range []string{"/", "/sessions", "/sessions/" + dashSID(6), "/violations", "/protocol", "/api/sessions", "/static/app.css", "/sessions/nope"} {
		rec := env.get(path, false)
		h := rec.Header()
		csp := h.Get("Content-Security-Policy")
		for _, w := range []string{"script-src 'self'", "frame-ancestors 'none'", "default-src 'none'"} {
			if !strings.Contains(csp, w) {
				t.Errorf("GET %s: CSP %q lacks %q", path, csp, w)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("GET %s: CSP allows inline or eval: %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", path)
		}
		if !slices.Contains(h.Values("Vary"), "HX-Request") {
			t.Errorf("GET %s: no Vary: HX-Request", path)
		}
		for _, m := range inline.FindAllStringSubmatch(rec.Body.String(), -1) {
			if !strings.Contains(m[1], "src=") {
				t.Errorf("GET %s: inline script %q", path, m[0])
			}
		}
		if strings.Contains(rec.Body.String(), " style=") {
			t.Errorf("GET %s: inline style attribute (blocked by the CSP)", path)
		}
	}
	// The Host guard covers the dashboard too.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = "evil.example"
	rec := httptest.NewRecorder()
	env.srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", rec.Code)
	}
}

func TestAPITokenRequiredWhenSet(t *testing.T) {
	env := newDashEnv(t, "s3cret")
	env.seed()
	for _, c := range []struct {
		path, auth string
		status     int
	}{
		{"/api/sessions", "", http.StatusUnauthorized},
		{"/api/sessions", "Bearer wrong", http.StatusUnauthorized},
		{"/api/sessions", "Basic czNjcmV0", http.StatusUnauthorized},
		{"/api/sessions", "Bearer s3cret", http.StatusOK},
		{"/api/sessions/" + dashSID(1), "", http.StatusUnauthorized},
		{"/api/sessions/" + dashSID(1), "Bearer s3cret", http.StatusOK},
		{"/api/violations", "", http.StatusUnauthorized},
		{"/api/violations", "Bearer s3cret", http.StatusOK},
		{"/sessions", "", http.StatusUnauthorized},
		{"/sessions", "Bearer s3cret", http.StatusOK},
		{"/", "", http.StatusUnauthorized},
		{"/violations", "", http.StatusUnauthorized},
		{"/protocol", "", http.StatusUnauthorized},
		{"/sessions/" + dashSID(1), "", http.StatusUnauthorized},
		{"/signin", "", http.StatusOK},
		{"/static/app.css", "", http.StatusOK},
	} {
		var hdr []string
		if c.auth != "" {
			hdr = []string{"Authorization", c.auth}
		}
		rec := env.get(c.path, false, hdr...)
		if rec.Code != c.status {
			t.Errorf("GET %s with %q: %d, want %d", c.path, c.auth, rec.Code, c.status)
		}
		if rec.Code == http.StatusUnauthorized && rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("GET %s: 401 without WWW-Authenticate", c.path)
		}
	}
}

var versionAttr = regexp.MustCompile(`data-version="([0-9a-f]+)"`)

func TestLivePollAnswers204UntilSomethingChanges(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	id := dashSID(5)
	m := versionAttr.FindStringSubmatch(env.get("/sessions/"+id, false).Body.String())
	if m == nil {
		t.Fatal("no data-version on the session page")
	}
	poll := "/sessions/" + id + "?v=" + m[1]
	if rec := env.get(poll, true); rec.Code != http.StatusNoContent {
		t.Fatalf("unchanged poll: %d, want 204", rec.Code)
	}
	// A new event (what every engine call appends) changes the version.
	err := env.db.Update(context.Background(), func(w session.Writer) error {
		return w.AppendEvent(context.Background(), &session.Event{SessionID: id, Token: "tool:record_evidence", CreatedAt: env.now})
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := env.get(poll, true)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "tool:record_evidence") {
		t.Fatalf("changed poll: %d %.300s", rec.Code, rec.Body)
	}
	if n := versionAttr.FindStringSubmatch(rec.Body.String()); n == nil || n[1] == m[1] {
		t.Error("the version did not change")
	}
	// Once the session ends, the answer stops the polling and drops the form.
	if _, err := env.engine.Terminate(context.Background(), id, "done"); err != nil {
		t.Fatal(err)
	}
	body := env.get(poll, true).Body.String()
	if strings.Contains(body, `hx-trigger="every 2s`) || !strings.Contains(body, `<div id="terminate-box" hx-swap-oob="true"></div>`) {
		t.Errorf("ended session still polls or keeps its form: %.400s", body)
	}
}

func TestStaticAssets(t *testing.T) {
	env := newDashEnv(t, "")
	for _, c := range []struct {
		name, ctype, want string
	}{
		{"app.css", "text/css; charset=utf-8", ".badge"},
		{"app.js", "text/javascript; charset=utf-8", "htmx:sendError"},
		{"htmx.min.js", "text/javascript; charset=utf-8", `version:"` + web.HTMXVersion + `"`},
		{"htmx.LICENSE", "text/plain; charset=utf-8", "Zero-Clause BSD"},
		{"favicon.svg", "image/svg+xml", "<svg"},
	} {
		rec := env.get("/static/"+c.name, false)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != c.ctype || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %q, want %q with %q", c.name, rec.Code, rec.Header().Get("Content-Type"), c.ctype, c.want)
			continue
		}
		etag := rec.Header().Get("ETag")
		if again := env.get("/static/"+c.name, false, "If-None-Match", etag); again.Code != http.StatusNotModified {
			t.Errorf("%s: If-None-Match: %d, want 304", c.name, again.Code)
		}
		tagged := env.get(web.Asset(c.name), false)
		if !strings.Contains(tagged.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("%s: tagged URL not cached for good: %q", c.name, tagged.Header().Get("Cache-Control"))
		}
	}
	if page := env.get("/", false).Body.String(); !strings.Contains(page, `src="`+web.Asset("htmx.min.js")+`"`) {
		t.Error("the layout does not load the vendored htmx")
	}
}

func TestEmptyStatesSayWhatToDo(t *testing.T) {
	env := newDashEnv(t, "")
	for _, c := range []struct{ path, want string }{
		{"/", "No sessions yet."},
		{"/", "sessiongate install"},
		{"/sessions", "No sessions yet."},
		{"/violations", "No violations recorded."},
	} {
		if body := env.get(c.path, false).Body.String(); !strings.Contains(body, c.want) {
			t.Errorf("GET %s: missing %q", c.path, c.want)
		}
	}
}

func itoaT(n int) string { return web.Itoa(n) }

// TestDashboardTeamAPI: /api/team is the same overview as JSON.
func TestDashboardTeamAPI(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	rec := env.get("/api/team", false)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/team: %d\n%s", rec.Code, rec.Body)
	}
	var o session.TeamOverview
	if err := json.Unmarshal(rec.Body.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Repos) != 1 || o.Repos[0].Key != "/w/demo" || o.Repos[0].Ended != 124 || o.Repos[0].Compliant != 121 ||
		o.BypassTotal != 1 || len(o.Bypasses) != 1 || o.Bypasses[0].Code != session.CodeBypass {
		t.Errorf("/api/team: %+v", o)
	}
}

// TestDashboardReadModelIsExplicit: the dashboard's aggregates come from
// Options.ReadModel, so an engine whose store is wrapped (logging,
// metrics) keeps the chart and the counts; before, the server asserted
// the engine's store to its aggregates and a wrapper silently lost them.
func TestDashboardReadModelIsExplicit(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	wrapped := struct{ session.Store }{env.db}
	engine := session.NewEngine(wrapped, session.Config{}, nil)
	engine.Now = func() time.Time { return env.now }
	env.srv = New(Options{Engine: engine, ReadModel: env.db, Version: "test"})
	body := env.get("/", false).Body.String()
	for _, want := range []string{"<svg", "Mar 6: 100% (120 of 120 ended sessions compliant)", `<span class="card-n">126</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("overview over a wrapped store lacks %q", want)
		}
	}
	if rec := env.get("/api/team", false); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"bypass_total_last_week":1`) {
		t.Errorf("/api/team over a wrapped store: %d %s", rec.Code, rec.Body)
	}
}

// TestDashboardTeamNamesPeople: /team lists the commits made without a
// session by their git author, a person's work apart from an agent's, and
// an out-of-session bypass says so instead of "unknown".
func TestDashboardTeamNamesPeople(t *testing.T) {
	env := newDashEnv(t, "")
	env.seed()
	ctx := context.Background()
	at := func(d time.Duration) string { return env.now.Add(-d).UTC().Format(time.RFC3339Nano) }
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		aw := w.(session.ActorWriter)
		for _, a := range []snapshot.CommitActor{
			{Commit: strings.Repeat("a", 40), Actor: snapshot.ActorPerson, Kind: snapshot.KindAdoption, Author: "Pat Maintainer <pat@example.com>", At: at(3 * time.Hour)},
			{Commit: strings.Repeat("b", 40), Actor: snapshot.ActorPerson, Kind: snapshot.KindCommit, Author: "Pat Maintainer <pat@example.com>", At: at(2 * time.Hour)},
			{Commit: strings.Repeat("c", 40), Actor: snapshot.ActorAgent, Agent: "claude", Kind: snapshot.KindCommit, Author: "Pat Maintainer <pat@example.com>", At: at(time.Hour)},
			{Commit: strings.Repeat("d", 40), Actor: snapshot.ActorPerson, Kind: snapshot.KindCommit, Author: "Sam <sam@example.com>", At: at(40 * 24 * time.Hour)}, // before the period
		} {
			if err := aw.AddCommitActor(ctx, repo.ID, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	body := env.get("/team", false).Body.String()
	for _, want := range []string{"Commits without a session", "Pat Maintainer &lt;pat@example.com&gt;", "no session: its author is under commits without a session"} {
		if !strings.Contains(body, want) {
			t.Errorf("/team lacks %q", want)
		}
	}
	if strings.Contains(body, "Sam &lt;sam@example.com&gt;") {
		t.Error("/team lists a commit from before its period")
	}
	var o session.TeamOverview
	if err := json.Unmarshal(env.get("/api/team", false).Body.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Commits) != 1 || o.Commits[0].Author != "Pat Maintainer <pat@example.com>" || o.Commits[0].Person != 1 || o.Commits[0].Adoptions != 1 ||
		o.Commits[0].Agent != 1 || len(o.Commits[0].Agents) != 1 || o.Commits[0].Agents[0] != "claude" || o.Commits[0].Repos[0] != "/w/demo" {
		t.Errorf("/api/team commits: %+v", o.Commits)
	}
}
