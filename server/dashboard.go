package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// The dashboard: server-rendered pages (templ + htmx) and a JSON mirror
// under /api. Only POST /sessions/{id}/terminate changes anything.

// contentSecurityPolicy allows only this server's own scripts, styles and
// requests: no inline script, no eval, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ReadModel is what the dashboard reads beyond session.Reader: the
// aggregates both stores keep (store/dashboard.go, postgres/dashboard.go).
// It is passed in Options, not found by asserting on the engine's store,
// so a store wrapped for logging or metrics keeps its chart.
type ReadModel interface {
	ComplianceByDay(ctx context.Context, from, to time.Time) ([]session.DayCompliance, error)
	CountSessionsByState(ctx context.Context) (*session.SessionCounts, error)
	ViolationCounts(ctx context.Context, ids []string) (map[string]int, error)
	// ViolationSeverities counts each session's violations per severity.
	ViolationSeverities(ctx context.Context, ids []string) (map[string]map[string]int, error)
	LastEventSeq(ctx context.Context, sessionID string) (int64, error)
	ListProtocols(ctx context.Context, limit int) ([]session.ProtocolVersion, error)
	DashboardSessions(ctx context.Context, f session.SessionFilter) (*session.SessionPage, error)
	TeamActivity(ctx context.Context, from, to, lastWeek time.Time, limit int) (*session.TeamActivity, error)
}

type dashboard struct {
	s   *Server
	agg ReadModel // nil without Options.ReadModel: counts fall back, no chart
	// carry caches carried violations per session (dashboard_carried.go).
	carry carriedCache
	// cop refuses a form posted from another origin (Sec-Fetch-Site, else
	// Origin against Host): the browser says where a form came from, so
	// no token is needed.
	cop *http.CrossOriginProtection
}

func registerDashboard(s *Server, e *echo.Echo) {
	d := &dashboard{s: s, cop: http.NewCrossOriginProtection()}
	if s.opts.Engine != nil {
		d.agg = s.opts.ReadModel
	}
	sec := d.secure
	// Pages, assets and the JSON API are gzip-compressed when the client
	// accepts it (htmx alone is 52 KB, 16 KB compressed); /mcp is left
	// alone (its event streams must flush as they go), and small answers
	// (a 204 poll, a redirect) are sent as they are.
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 1024,
		Skipper: func(c echo.Context) bool {
			return strings.HasPrefix(c.Request().URL.Path, MCPPath)
		},
	}))
	// An unknown address gets a page in the layout (JSON under /api and
	// /mcp); a wrong method on a known one keeps echo's 405.
	prev := e.HTTPErrorHandler
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		var he *echo.HTTPError
		if errors.As(err, &he) && he.Code == http.StatusNotFound && !c.Response().Committed {
			if err := sec(d.notFound)(c); err == nil {
				return
			}
		}
		prev(err, c)
	}
	e.GET("/", d.overview, sec)
	e.GET("/sessions", d.sessions, sec)
	e.GET("/sessions/export", d.exportSessions, sec)
	e.GET("/violations/export", d.exportViolations, sec)
	e.GET("/sessions/:id", d.session, sec)
	e.POST("/sessions/:id/terminate", d.terminate, sec, d.sameOrigin)
	e.GET("/violations", d.violations, sec)
	e.GET("/protocol", d.protocol, sec)
	e.GET("/team", d.team, sec)
	e.GET("/static/:name", d.static, sec)
	e.GET("/signin", d.signInForm, sec)
	e.POST("/signin", d.signIn, sec, d.sameOrigin)
	api := e.Group("/api", sec)
	api.GET("/sessions", d.apiSessions)
	api.GET("/sessions/:id", d.apiSession)
	api.GET("/violations", d.apiViolations)
	api.GET("/team", d.apiTeam)
}

func newToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error()) // never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// secure sets the headers every dashboard answer carries. Vary: HX-Request
// because a URL answers with a full page or a fragment depending on it.
func (d *dashboard) secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Add("Vary", "HX-Request")
		if d.s.opts.Engine == nil && !strings.HasPrefix(c.Path(), "/static/") {
			return c.String(http.StatusServiceUnavailable, "dashboard unavailable: the server runs without a session engine\n")
		}
		return next(c)
	}
}

// sameOrigin refuses a form posted from another origin, even another port
// of localhost (net/http.CrossOriginProtection), and bounds its body.
func (d *dashboard) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		r.Body = http.MaxBytesReader(c.Response(), r.Body, 16<<10)
		if err := d.cop.Check(r); err != nil {
			return d.fail(c, http.StatusForbidden, "Forbidden",
				"This form was sent from another site or port: "+err.Error()+".", "Open the dashboard itself and submit the form there.")
		}
		return next(c)
	}
}

// partial reports whether to answer with the fragment htmx swaps rather
// than a whole page. A history restore (back button after a cache miss)
// needs the whole page.
func partial(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// html renders a component into a buffer first, so a failing render is a
// clean 500 rather than half a page.
func (d *dashboard) html(c echo.Context, status int, comp templ.Component) error {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := comp.Render(c.Request().Context(), buf); err != nil {
		d.s.opts.Logger.Error("dashboard: render", "path", c.Request().URL.Path, "err", err)
		return c.String(http.StatusInternalServerError, "internal error: rendering failed; see the server log\n")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(status, buf.Bytes())
}

func (d *dashboard) page(title, nav string) web.Page {
	return web.Page{Title: title, Nav: nav, Version: d.s.opts.Version}
}

// fail answers with an error page (or fragment, for htmx).
func (d *dashboard) fail(c echo.Context, status int, title, msg, hint string) error {
	e := web.ErrorPage{Status: status, Title: title, Message: msg, Hint: hint}
	if partial(c) {
		return d.html(c, status, web.ErrorView(e))
	}
	return d.html(c, status, web.ErrorFull(d.page(title, ""), e))
}

// failErr maps an error to 400, 404 or 500.
func (d *dashboard) failErr(c echo.Context, err error) error {
	switch {
	case isBadRequest(err):
		return d.fail(c, http.StatusBadRequest, "Bad request", err.Error(), "Fix the address or clear the filters.")
	case errors.Is(err, session.ErrInvalidID):
		return d.fail(c, http.StatusBadRequest, "Bad session id", err.Error(), "")
	case errors.Is(err, session.ErrNotFound):
		return d.fail(c, http.StatusNotFound, "Not found", err.Error(), "It may have been deleted; the Sessions page lists what the database holds.")
	case errors.Is(err, context.Canceled):
		return err
	}
	d.s.opts.Logger.Error("dashboard", "path", c.Request().URL.Path, "err", err)
	return d.fail(c, http.StatusInternalServerError, "Internal error", "The dashboard could not load this page.", "The server log has the details.")
}

func (d *dashboard) store() session.Store { return d.s.opts.Engine.Store }

func (d *dashboard) now() time.Time {
	if e := d.s.opts.Engine; e != nil && e.Now != nil {
		return e.Now().UTC()
	}
	return time.Now().UTC()
}

// static serves the embedded assets. URLs carry a content tag (?v=), so a
// tagged request may be cached for good; others revalidate by ETag.
func (d *dashboard) static(c echo.Context) error {
	name := c.Param("name")
	tag := web.AssetTag(name)
	if tag == "" || strings.Contains(name, "/") {
		return c.String(http.StatusNotFound, "not found\n")
	}
	b, err := fs.ReadFile(web.Static, name)
	if err != nil {
		return c.String(http.StatusNotFound, "not found\n")
	}
	h := c.Response().Header()
	etag := `"` + tag + `"`
	h.Set("ETag", etag)
	if c.QueryParam("v") == tag {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if c.Request().Header.Get("If-None-Match") == etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, contentType(name), b)
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "text/plain; charset=utf-8"
}

// notFound answers an unknown address: a page in the layout for a person,
// JSON for /api and /mcp clients.
func (d *dashboard) notFound(c echo.Context) error {
	p := c.Request().URL.Path
	if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, MCPPath) {
		return c.JSON(http.StatusNotFound, map[string]string{"error": "not found: " + clip(p)})
	}
	return d.fail(c, http.StatusNotFound, "Page not found", "There is no page at "+clip(p)+".",
		"The Overview, Sessions, Violations and Protocol pages are in the menu above.")
}

func isInvalidID(err error) bool { return errors.Is(err, session.ErrInvalidID) }
func isNotFound(err error) bool  { return errors.Is(err, session.ErrNotFound) }
