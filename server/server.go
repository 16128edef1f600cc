// Package server is sessiongate's HTTP side: one echo server on 127.0.0.1
// carrying the MCP endpoint at /mcp (stateless Streamable HTTP) and the
// dashboard. The same *mcp.Server also runs over stdio.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// Options wire the server to the engine.
type Options struct {
	Engine *session.Engine
	// ReadModel is the dashboard's aggregate reads, from the same database
	// as the engine's store (main passes the store it opened).
	ReadModel ReadModel
	// Repo is the worktree sessions start in (session_start's default).
	Repo session.Repo
	// LoadSpec returns the current protocol (through the engine's cache).
	LoadSpec func(ctx context.Context) (*protocolspec.Spec, error)
	// Protocol returns the current protocol document as it is on disk (its
	// display name and bytes), served as the sessiongate://protocol resource.
	Protocol func(ctx context.Context) (name string, content []byte, err error)
	// Token, when set, is required on every route but /signin and /static:
	// "Authorization: Bearer TOKEN", or the cookie /signin gives a browser.
	Token   string
	Version string
	Logger  *slog.Logger
	// BeforeEnd runs before MCP session_end ends a session
	// (mcpserver.Options.BeforeEnd).
	BeforeEnd func(ctx context.Context)
	// MCP, when set, is the MCP server mounted at /mcp instead of
	// mcpserver.New(opts.mcpOptions()) (embedding with extra tools; the benchmark's ping).
	MCP *mcp.Server
}

// Server is the echo server with /mcp and the dashboard.
type Server struct {
	opts Options
	echo *echo.Echo
	auth *auth // nil without a token
}

// New builds the HTTP server. Every request passes the Host/Origin guard
// (DNS-rebinding protection, MCP spec) before any route.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Pre(guard)
	s := &Server{opts: opts, echo: e, auth: newAuth(opts.Token)}
	e.Use(s.auth.middleware)
	registerDashboard(s, e)
	registerMCP(s, e)
	return s
}

// Handler is the whole HTTP handler, for tests and embedding.
func (s *Server) Handler() http.Handler { return s.echo }

// Serve listens on addr until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// Headers past 64 KiB get 431; nothing sessiongate serves needs more.
	hs := &http.Server{Handler: s.echo, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// Listen opens addr, refusing a non-loopback address unless allowed: the
// server has no authentication beyond the optional token.
func Listen(addr string, allowRemote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("bad --addr %q: %w", addr, err)
	}
	if !allowRemote && !isLoopbackHost(host) {
		return nil, fmt.Errorf("refusing to listen on %s: only loopback addresses (127.0.0.1, [::1], localhost) are allowed", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// guard refuses a non-loopback Host (DNS rebinding) and any Origin other
// than this server's own, with 403, before routing.
func guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !isLoopbackHost(host) {
			return c.String(http.StatusForbidden, "forbidden: Host must be a loopback address (DNS-rebinding protection)\n")
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			// Same origin only: another local port is another site.
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, r.Host) {
				return c.String(http.StatusForbidden, "forbidden: cross-site Origin\n")
			}
		}
		return next(c)
	}
}
