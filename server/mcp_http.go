package server

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/server/mcpserver"
)

// MCPPath is where the Streamable HTTP endpoint lives.
const MCPPath = mcpserver.Path

// registerMCP mounts the MCP server at /mcp. The Host/Origin guard has
// already run; the token, when set, is checked by the auth middleware.
func registerMCP(s *Server, e *echo.Echo) {
	srv := s.opts.MCP
	if srv == nil {
		srv = mcpserver.New(s.opts.mcpOptions())
	}
	e.Any(MCPPath, echo.WrapHandler(mcpserver.Handler(srv, s.opts.Logger)))
}

// mcpOptions is the part of the options the MCP server reads.
func (o Options) mcpOptions() mcpserver.Options {
	return mcpserver.Options{Engine: o.Engine, Repo: o.Repo, LoadSpec: o.LoadSpec, Protocol: o.Protocol, Version: o.Version, Logger: o.Logger, BeforeEnd: o.BeforeEnd}
}

func parseBearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
