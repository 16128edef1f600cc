package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The cached tools/list says exactly what the SDK says, on every call.
func TestToolsListCacheMatchesSDK(t *testing.T) {
	ctx := context.Background()
	plain := mcp.NewServer(&mcp.Implementation{Name: "sessiongate", Version: "dev"}, nil)
	(&handlers{}).addTools(plain)
	cached := New(Options{})
	toolsJSON := func(srv *mcp.Server) string {
		t.Helper()
		r, err := mcpInMemory(t, srv).ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r.Tools)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := toolsJSON(plain)
	for i := range 3 {
		if got := toolsJSON(cached); got != want {
			t.Fatalf("call %d: cached tools/list differs from the SDK's:\n got %s\nwant %s", i, got, want)
		}
	}
}
