package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzMCPToolArguments: any arguments object sent to any tool gets a
// JSON-RPC answer (a result, isError or not, or a JSON-RPC error) with
// status 200 or 400, never a panic or a 500.
func FuzzMCPToolArguments(f *testing.F) {
	tools := []string{"session_start", "validate_gate", "advance_phase", "record_evidence", "session_end", "get_blocked_reason"}
	for i, args := range []string{
		`{"objective":"fix the login bug"}`, `{"session_id":"` + dashSID(5) + `"}`,
		`{"session_id":"` + dashSID(5) + `","force":true,"reason":"x","to":"WORKING"}`,
		`{"session_id":"` + dashSID(5) + `","phase":"CONTEXT_RETRIEVAL","evidence_type":"file_path","evidence":"../../etc/passwd","requirement":"X.y"}`,
		`{"session_id":"` + dashSID(5) + `","summary":"s","notes":"n"}`, `{"session_id":null}`, `[]`, `{"session_id":{"a":1}}`,
	} {
		f.Add(uint8(i), args)
	}
	env := newDashEnv(f, "")
	env.seed()
	h := env.srv.Handler()
	f.Fuzz(func(t *testing.T, tool uint8, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tools[int(tool)%len(tools)] + `","arguments":` + args + `}}`
		req := httptest.NewRequest(http.MethodPost, MCPPath, strings.NewReader(body))
		req.Host = "127.0.0.1:7400"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("%s %s: status %d: %s", tools[int(tool)%len(tools)], args, rec.Code, rec.Body.String())
		}
		var resp struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || (resp.Result == nil && resp.Error == nil) {
			t.Fatalf("%s %s: not a JSON-RPC answer: %s", tools[int(tool)%len(tools)], args, rec.Body.String())
		}
	})
}
