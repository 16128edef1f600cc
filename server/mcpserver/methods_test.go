package mcpserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK itself answers an unknown method with 404 and "method not found"
// when the client speaks MCP 2026-07-28; older clients get a plain-text 400
// that the rewriter classifies with mcpMethods. So each listed method must
// be one the SDK knows, and an unlisted one must be unknown to it: an SDK
// upgrade that adds or drops a method fails here instead of changing the
// error codes silently.
func TestMethodsMatchSDK(t *testing.T) {
	ts := httptest.NewServer(Handler(New(Options{}), nil))
	t.Cleanup(ts.Close)
	post := func(t *testing.T, body string, version string) (int, rpcAnswer) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if version != "" {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a rpcAnswer
		_ = json.NewDecoder(resp.Body).Decode(&a)
		return resp.StatusCode, a
	}
	sdkNotFound := func(status int, a rpcAnswer) bool {
		return status == http.StatusNotFound && a.Error != nil && a.Error.Code == jsonrpc.CodeMethodNotFound
	}
	t.Run("the probe sees the SDK's own not-found", func(t *testing.T) {
		if st, a := post(t, `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{}}`, "2026-07-28"); !sdkNotFound(st, a) {
			t.Fatalf("unknown method at 2026-07-28: status %d %+v, want 404 with %d", st, a.Error, jsonrpc.CodeMethodNotFound)
		}
	})
	for _, m := range mcpMethods() {
		t.Run(m, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{}}`
			if strings.HasPrefix(m, "notifications/") {
				body = `{"jsonrpc":"2.0","method":"` + m + `","params":{}}`
			}
			if st, a := post(t, body, "2026-07-28"); sdkNotFound(st, a) {
				t.Fatalf("the SDK does not know %s (status %d %+v): drop it from mcpMethods", m, st, a.Error)
			}
		})
	}
	t.Run("an older client's unknown method is rewritten to not-found", func(t *testing.T) {
		st, a := post(t, `{"jsonrpc":"2.0","id":3,"method":"no/such"}`, "")
		if st != http.StatusBadRequest || a.Error == nil || a.Error.Code != jsonrpc.CodeMethodNotFound || string(a.ID) != "3" {
			t.Fatalf("status %d %+v id %s, want 400 with %d and id 3", st, a.Error, a.ID, jsonrpc.CodeMethodNotFound)
		}
	})
	t.Run("a known method refused for its shape stays an invalid request", func(t *testing.T) {
		st, a := post(t, `{"jsonrpc":"2.0","id":6,"method":"tools/call"}`, "")
		if st != http.StatusBadRequest || a.Error == nil || a.Error.Code != jsonrpc.CodeInvalidRequest {
			t.Fatalf("status %d %+v, want 400 with %d", st, a.Error, jsonrpc.CodeInvalidRequest)
		}
	})
}

type rpcAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error *jsonrpc.Error  `json:"error"`
}
