package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cacheToolsList answers tools/list from one result built on the first
// call, with every schema already encoded: the tools never change once the
// server is built, and the SDK would otherwise encode each schema (a
// *jsonschema.Schema, walked by reflection) on every call, about 8x the
// cost of a ping. A request with a cursor goes to the SDK.
func cacheToolsList() mcp.Middleware {
	var (
		once   sync.Once
		cached *mcp.ListToolsResult
		err    error
	)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			lr, ok := req.(*mcp.ListToolsRequest)
			if method != "tools/list" || !ok || lr.Params != nil && lr.Params.Cursor != "" {
				return next(ctx, method, req)
			}
			once.Do(func() {
				var res mcp.Result
				if res, err = next(ctx, method, req); err == nil {
					cached, err = encodedTools(res.(*mcp.ListToolsResult))
				}
			})
			if err != nil || cached.NextCursor != "" {
				return next(ctx, method, req)
			}
			return cached, nil
		}
	}
}

// encodedTools copies a tools/list result with each tool's schemas encoded
// once as raw JSON.
func encodedTools(res *mcp.ListToolsResult) (*mcp.ListToolsResult, error) {
	out := *res
	out.Tools = make([]*mcp.Tool, len(res.Tools))
	for i, t := range res.Tools {
		c := *t
		for _, s := range []*any{&c.InputSchema, &c.OutputSchema} {
			if *s == nil {
				continue
			}
			b, err := json.Marshal(*s)
			if err != nil {
				return nil, err
			}
			*s = json.RawMessage(b)
		}
		out.Tools[i] = &c
	}
	return &out, nil
}
