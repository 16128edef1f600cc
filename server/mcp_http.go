package server

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is where the Streamable HTTP endpoint lives.
const MCPPath = "/mcp"

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
	e.Any(MCPPath, echo.WrapHandler(h), mcpRejectMalformed)
}

func parseBearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
