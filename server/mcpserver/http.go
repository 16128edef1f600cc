package mcpserver

import (
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the HTTP server mounts the Streamable HTTP endpoint.
const Path = "/mcp"

// Handler serves srv over stateless Streamable HTTP: no Mcp-Session-Id is
// issued or read (SEP-2567), every POST is answered with one JSON response,
// GET and DELETE get 405, and malformed JSON-RPC gets a JSON-RPC error body.
// Host/Origin checks and the token are the mounting server's.
//
// A plain tools/list is answered through the SDK as always, with the result's
// bytes written in once they are encoded (cacheToolsList).
func Handler(srv *mcp.Server, logger *slog.Logger) http.Handler {
	return handler(srv, logger, true)
}

// handler is Handler, with the tools/list shortcut or without (the tests'
// plain SDK path).
func handler(srv *mcp.Server, logger *slog.Logger, shortcut bool) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: slog.New(logFloor{logger.Handler(), slog.LevelWarn})})
	return rejectMalformed(h, shortcut)
}
