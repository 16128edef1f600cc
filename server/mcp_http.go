package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is where the Streamable HTTP endpoint lives.
const MCPPath = "/mcp"

func init() { routes = append(routes, registerMCP) }

// registerMCP mounts the MCP server at /mcp in stateless mode: no
// Mcp-Session-Id is issued or read (SEP-2567), every POST is answered with
// one JSON response, GET and DELETE get 405. The Host/Origin guard has
// already run; the token, when set, is checked here.
func registerMCP(s *Server, e *echo.Echo) {
	srv := s.opts.MCP
	if srv == nil {
		srv = NewMCPServer(s.opts)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: slog.New(mcpLogFloor{s.opts.Logger.Handler(), slog.LevelWarn})})
	e.Any(MCPPath, echo.WrapHandler(h), requireBearerToken(s.opts.Token), mcpRejectMalformed)
}

// requireBearerToken checks "Authorization: Bearer TOKEN" in constant time
// when token is set, answering 401 with WWW-Authenticate otherwise. It is
// a no-op without a token (the server is loopback-only either way).
func requireBearerToken(token string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if token == "" {
			return next
		}
		want := sha256.Sum256([]byte(token))
		return func(c echo.Context) error {
			got, ok := parseBearer(c.Request().Header.Get("Authorization"))
			// Compare digests so neither the content nor the length leaks through timing.
			g := sha256.Sum256([]byte(got))
			if !ok || subtle.ConstantTimeCompare(g[:], want[:]) != 1 {
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="sessiongate"`)
				return c.String(http.StatusUnauthorized, "unauthorized: send Authorization: Bearer <token> (the token in the file given to sessiongate serve --token-file)\n")
			}
			return next(c)
		}
	}
}

func parseBearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
