package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestTokenGuardsEveryRoute plays an attacker without the token against a
// server started with one: no page, API call, MCP call or mutation gets
// through, even from the same origin; a browser signs in once
// and gets a cookie that is not the token.
func TestTokenGuardsEveryRoute(t *testing.T) {
	env := newDashEnv(t, "s3cret")
	env.seed()
	id := dashSID(5)
	do := func(method, path, body string, hdr ...string) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Host = "127.0.0.1:7400"
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		env.srv.Handler().ServeHTTP(rec, req)
		return rec
	}
	if page := do("GET", "/sessions/"+id, "", "Authorization", "Bearer s3cret"); page.Code != 200 {
		t.Fatalf("authorized session page: %d", page.Code)
	}
	mcpBody := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"session_start","arguments":{"objective":"x"}}}`
	for _, c := range []struct {
		name, method, path, body string
		hdr                      []string
		status                   int
	}{
		{"overview", "GET", "/", "", nil, 401},
		{"overview, browser", "GET", "/", "", []string{"Accept", "text/html"}, 303},
		{"session page", "GET", "/sessions/" + id, "", nil, 401},
		{"api", "GET", "/api/sessions", "", nil, 401},
		{"api, wrong token", "GET", "/api/sessions", "", []string{"Authorization", "Bearer s3cre"}, 401},
		{"api, lower-case scheme", "GET", "/api/sessions", "", []string{"Authorization", "bearer s3cret"}, 200},
		{"mcp", "POST", "/mcp", mcpBody, []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, 401},
		{"terminate from the same origin", "POST", "/sessions/" + id + "/terminate", url.Values{"reason": {"x"}}.Encode(), []string{"Sec-Fetch-Site", "same-origin"}, 401},
		{"terminate, forged cookie", "POST", "/sessions/" + id + "/terminate", url.Values{"reason": {"x"}}.Encode(), []string{"Cookie", authCookie + "=s3cret"}, 401},
		{"sign-in page", "GET", "/signin", "", nil, 200},
		{"static asset", "GET", "/static/app.css", "", nil, 200},
		{"sign in with a wrong token", "POST", "/signin", "token=nope", nil, 401},
	} {
		rec := do(c.method, c.path, c.body, c.hdr...)
		if rec.Code != c.status {
			t.Errorf("%s: %s %s = %d, want %d: %s", c.name, c.method, c.path, rec.Code, c.status, rec.Body.String())
		}
	}
	if s, _ := env.db.GetSession(t.Context(), id); s == nil || !s.Active() {
		t.Fatal("a request without the token terminated the session")
	}
	// A browser signs in, is sent back where it was going, and the cookie
	// it gets works and is not the token.
	rec := do("POST", "/signin", "token=s3cret&next="+url.QueryEscape("/sessions?state=active"))
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/sessions?state=active" {
		t.Fatalf("sign in: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	cookie := rec.Result().Cookies()
	if len(cookie) != 1 || cookie[0].Name != authCookie || cookie[0].Value == "s3cret" || !cookie[0].HttpOnly || cookie[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", cookie)
	}
	if got := do("GET", "/sessions", "", "Cookie", authCookie+"="+cookie[0].Value); got.Code != 200 {
		t.Fatalf("with the cookie: %d", got.Code)
	}
	// Each of these is off-site once a browser reads it (tabs and newlines
	// dropped, a backslash read as a slash).
	for _, next := range []string{"//evil.example/x", "/%09/evil.example/", "/%0a/evil.example/", "/%0d/evil.example/",
		"/%5Cevil.example", "/%5C%5Cevil.example", "/%20/evil.example", "https://evil.example/", "/%7f/evil.example", "javascript:alert(1)"} {
		if got := do("POST", "/signin", "token=s3cret&next="+next); got.Header().Get("Location") != "/" {
			t.Fatalf("open redirect for next=%s: %q", next, got.Header().Get("Location"))
		}
	}
	if got := do("POST", "/signin", "token=s3cret&next="+url.QueryEscape("/violations?q=a%2Fb")); got.Header().Get("Location") != "/violations?q=a%2Fb" {
		t.Fatalf("a local path with an escaped query: %q", got.Header().Get("Location"))
	}
}
