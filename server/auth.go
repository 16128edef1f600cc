package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/web"
)

// authCookie holds a random key of this server process, given out by the
// sign-in page in exchange for the token; the token itself never reaches a
// cookie, and a restart signs every browser out.
const authCookie = "sessiongate_auth"

// auth guards every route with the --token-file token when one is set:
// pages, the API, /mcp and mutations alike. Clients send
// "Authorization: Bearer TOKEN"; a browser signs in once at /signin.
type auth struct {
	want      [32]byte // sha256 of the token
	cookieKey string
}

func newAuth(token string) *auth {
	if token == "" {
		return nil
	}
	return &auth{want: sha256.Sum256([]byte(token)), cookieKey: newToken()}
}

// tokenOK compares digests so neither the token's content nor its length
// leaks through timing.
func (a *auth) tokenOK(got string) bool {
	g := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(g[:], a.want[:]) == 1
}

func (a *auth) authorized(r *http.Request) bool {
	if tok, ok := parseBearer(r.Header.Get("Authorization")); ok {
		return a.tokenOK(tok)
	}
	if c, err := r.Cookie(authCookie); err == nil {
		return subtle.ConstantTimeCompare([]byte(c.Value), []byte(a.cookieKey)) == 1
	}
	return false
}

// middleware lets through the sign-in page and static assets (no data) and
// requests with the token or the sign-in cookie. A browser asking for a page
// is sent to /signin; anything else gets 401.
func (a *auth) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	if a == nil {
		return next
	}
	return func(c echo.Context) error {
		r := c.Request()
		p := c.Path()
		if p == "/signin" || strings.HasPrefix(p, "/static/") || a.authorized(r) {
			return next(c)
		}
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") {
			return c.Redirect(http.StatusSeeOther, "/signin?next="+url.QueryEscape(r.URL.RequestURI()))
		}
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="sessiongate"`)
		return c.String(http.StatusUnauthorized, "unauthorized: send Authorization: Bearer <token> (the token in the file given to sessiongate serve --token-file), or sign in at /signin\n")
	}
}

// localPath keeps a post-sign-in redirect on this server.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		return "/"
	}
	// Browsers drop tabs and newlines from a URL and read a backslash as a
	// slash, so "/\t/evil.example/" or "/\\evil.example" is "//evil.example/":
	// off-site. No control character, space or backslash is ever part of a
	// path this dashboard links to.
	for i := 0; i < len(next); i++ {
		if c := next[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	return next
}

func (d *dashboard) signInForm(c echo.Context) error {
	return d.html(c, http.StatusOK, web.SignIn(d.page("Sign in", ""), localPath(c.QueryParam("next")), ""))
}

func (d *dashboard) signIn(c echo.Context) error {
	a := d.s.auth
	if a == nil {
		return c.Redirect(http.StatusSeeOther, "/")
	}
	r := c.Request()
	r.Body = http.MaxBytesReader(c.Response(), r.Body, 8<<10)
	next := localPath(c.FormValue("next"))
	if !a.tokenOK(strings.TrimSpace(c.FormValue("token"))) {
		return d.html(c, http.StatusUnauthorized, web.SignIn(d.page("Sign in", ""), next, "That is not the token of this server."))
	}
	c.SetCookie(&http.Cookie{Name: authCookie, Value: a.cookieKey, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return c.Redirect(http.StatusSeeOther, next)
}
