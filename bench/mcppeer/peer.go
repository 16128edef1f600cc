// Package mcppeer is the peer of sessiongate's MCP figures: the smallest
// server one writes with the same official go-sdk, one tool that returns
// {"pong":true}, served over the SDK's own stdio transport or its
// streamable HTTP handler (stateless, JSON responses, as sessiongate's
// /mcp is configured). Benchmarks: peer_test.go; figures: docs/benchmarks.md.
package mcppeer

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pong is the trivial tool's result.
type Pong struct {
	Pong bool `json:"pong"`
}

// New is the peer server with its one tool, "ping".
func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "peer", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ping", Description: "returns pong"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, Pong, error) {
		return nil, Pong{true}, nil
	})
	return s
}

// Handler serves s over streamable HTTP as sessiongate serves /mcp.
func Handler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
