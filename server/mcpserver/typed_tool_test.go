package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPAddToolMatchesSDK registers every tool input type twice, with the
// SDK's mcp.AddTool (which validates input and output on every call) and
// with addTool, each behind a handler that echoes the decoded input, and
// checks that tools/list and the answer to every argument payload below are
// byte for byte the same: the same schemas, the same refusals with the same
// messages, the same decoded values.
func TestMCPAddToolMatchesSDK(t *testing.T) {
	ref := mcp.NewServer(&mcp.Implementation{Name: "ref", Version: "1"}, nil)
	ours := mcp.NewServer(&mcp.Implementation{Name: "ref", Version: "1"}, nil)
	mcpAddEchoTwice[SessionStartInput](ref, ours, "session_start", nil)
	mcpAddEchoTwice[ValidateGateInput](ref, ours, "validate_gate", nil)
	mcpAddEchoTwice[AdvancePhaseInput](ref, ours, "advance_phase", nil)
	mcpAddEchoTwice[RecordEvidenceInput](ref, ours, "record_evidence", evidenceInputSchema)
	mcpAddEchoTwice[SessionEndInput](ref, ours, "session_end", nil)
	mcpAddEchoTwice[SessionIDInput](ref, ours, "get_blocked_reason", nil)
	// A schema with a default takes the SDK's apply-and-re-marshal path.
	mcpAddEchoTwice[ValidateGateInput](ref, ours, "with_default", func() *jsonschema.Schema {
		s, err := jsonschema.For[ValidateGateInput](nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Properties["phase"].Default = json.RawMessage(`"PLAN"`)
		return s
	})
	refCS, oursCS := mcpInMemory(t, ref), mcpInMemory(t, ours)

	ctx := context.Background()
	lists := [2]string{}
	for i, cs := range []*mcp.ClientSession{refCS, oursCS} {
		tl, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tl.Tools {
			if tool.OutputSchema == nil {
				t.Errorf("%s: no outputSchema", tool.Name)
			}
		}
		b, _ := json.Marshal(tl.Tools)
		lists[i] = string(b)
	}
	if lists[0] != lists[1] {
		t.Fatalf("tools/list differs:\nSDK:  %s\nours: %s", lists[0], lists[1])
	}

	id := `"0b6d3c1e-8f1a-4c5e-9b7d-2a4f6e8c0d1b"`
	cases := []struct {
		tool, args string // args "" sends no arguments
		wantErr    bool
	}{
		{"validate_gate", `{"session_id":` + id + `}`, false},
		{"validate_gate", `{"session_id":` + id + `,"phase":"PLAN"}`, false},
		{"validate_gate", `{"session_id":"caf\u00e9 \"q\""}`, false},
		{"validate_gate", `{}`, true},
		{"validate_gate", ``, true},
		{"validate_gate", `null`, true},
		{"validate_gate", `{"session_id":` + id + `,"command":"rm -rf /"}`, true},
		{"validate_gate", `{"Session_ID":` + id + `}`, true},
		{"validate_gate", `{"session_id":5}`, true},
		{"validate_gate", `{"session_id":null}`, true},
		{"validate_gate", `{"session_id":{"a":1}}`, true},
		{"validate_gate", `{"session_id":"a","session_id":"b"}`, false},
		{"advance_phase", `{"session_id":` + id + `,"force":true,"reason":"x"}`, false},
		{"advance_phase", `{"session_id":` + id + `,"force":"true"}`, true},
		{"record_evidence", `{"session_id":` + id + `,"phase":"PLAN","evidence_type":"manual","evidence":"x"}`, false},
		{"record_evidence", `{"session_id":` + id + `,"phase":"PLAN","evidence_type":"telepathy","evidence":"x"}`, true},
		{"record_evidence", `{"session_id":` + id + `,"phase":"PLAN","evidence_type":"MANUAL","evidence":"x"}`, true},
		{"record_evidence", `{"session_id":` + id + `,"phase":"PLAN","evidence":"x"}`, true},
		{"session_start", `{"objective":"x","branch":"main","starting_commit":"abc"}`, false},
		{"session_start", `{"objective":["x"]}`, true},
		{"session_end", `{"session_id":` + id + `,"summary":"s","skip_qa":true,"next_session_notes":"n"}`, false},
		{"session_end", `{"session_id":` + id + `,"summary":"s","skip_qa":1}`, true},
		{"get_blocked_reason", `{"session_id":` + id + `,"phase":"PLAN"}`, true},
		{"with_default", `{"session_id":` + id + `}`, false},
		{"with_default", `{"session_id":` + id + `,"extra":1}`, true},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.args, func(t *testing.T) {
			p := &mcp.CallToolParams{Name: c.tool}
			if c.args != "" {
				p.Arguments = json.RawMessage(c.args)
			}
			var got [2]string
			for i, cs := range []*mcp.ClientSession{refCS, oursCS} {
				res, err := cs.CallTool(ctx, p)
				if err != nil {
					t.Fatalf("JSON-RPC error %v", err)
				}
				if res.IsError != c.wantErr {
					t.Errorf("isError=%v, want %v: %s", res.IsError, c.wantErr, mcpResultText(res))
				}
				b, _ := json.Marshal(res)
				got[i] = string(b)
			}
			if got[0] != got[1] {
				t.Fatalf("results differ:\nSDK:  %s\nours: %s", got[0], got[1])
			}
			if c.wantErr && !strings.Contains(got[1], "arguments") && !strings.Contains(got[1], "unmarshal") {
				t.Errorf("refusal does not say what is wrong: %s", got[1])
			}
		})
	}
}

// mcpAddEchoTwice adds a tool echoing its decoded input to ref with
// mcp.AddTool and to ours with addTool.
func mcpAddEchoTwice[In any](ref, ours *mcp.Server, name string, schema func() *jsonschema.Schema) {
	// With a text, as every sessiongate tool sets one: without, the SDK's
	// JSON text fallback has its keys sorted (it went through a map) and
	// ours keeps the struct's order.
	echo := func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, *In, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, &in, nil
	}
	tool := func() *mcp.Tool {
		t := &mcp.Tool{Name: name}
		if schema != nil {
			t.InputSchema = schema()
		}
		return t
	}
	mcp.AddTool(ref, tool(), echo)
	addTool(ours, tool(), echo)
}

func mcpInMemory(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		cancel()
	})
	return cs
}

func mcpResultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestFlatSchemaAgreesWithValidate: the fast check of a flat input schema
// passes only what the schema walk passes, for payloads a lazy client
// could send (wrong types, extra, missing and null properties, nested
// values), and validate_gate's input takes the fast check at all (it is
// what every gate call pays). A schema with any other keyword gets none.
func TestFlatSchemaAgreesWithValidate(t *testing.T) {
	vg, err := newToolInput[ValidateGateInput](&mcp.Tool{})
	if err != nil {
		t.Fatal(err)
	}
	if vg.flat == nil {
		t.Fatal("validate_gate's input schema takes no fast check")
	}
	ins := map[string]*jsonschema.Resolved{"validate_gate": vg.resolved}
	flats := map[string]*flatSchema{"validate_gate": vg.flat}
	for name, in := range map[string]func() (*jsonschema.Resolved, *flatSchema, error){
		"session_start": func() (*jsonschema.Resolved, *flatSchema, error) {
			p, err := newToolInput[SessionStartInput](&mcp.Tool{})
			return p.resolved, p.flat, err
		},
		"advance_phase": func() (*jsonschema.Resolved, *flatSchema, error) {
			p, err := newToolInput[AdvancePhaseInput](&mcp.Tool{})
			return p.resolved, p.flat, err
		},
		"session_end": func() (*jsonschema.Resolved, *flatSchema, error) {
			p, err := newToolInput[SessionEndInput](&mcp.Tool{})
			return p.resolved, p.flat, err
		},
	} {
		r, f, err := in()
		if err != nil {
			t.Fatal(err)
		}
		ins[name], flats[name] = r, f
	}
	s, err := jsonschema.For[ValidateGateInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Properties["phase"].Pattern = "^[A-Z_]+$"
	if newFlatSchema(s) != nil {
		t.Error("a schema with a pattern took the fast check")
	}
	payloads := []string{`{}`, `null`, `{"session_id":"s"}`, `{"session_id":"s","phase":"P"}`, `{"session_id":1}`,
		`{"session_id":null}`, `{"session_id":"s","extra":1}`, `{"session_id":"s","phase":true}`, `{"phase":"P"}`,
		`{"session_id":["s"]}`, `{"session_id":{"a":"b"}}`, `{"session_id":"s","force":true}`, `{"session_id":"s","force":"yes"}`,
		`{"session_id":"s","objective":"o"}`, `{"objective":"o"}`, `{"session_id":"s","reason":"r","force":false}`}
	for name, f := range flats {
		if f == nil {
			continue
		}
		for _, p := range payloads {
			m := map[string]any{}
			if err := unmarshalStrict([]byte(p), &m); err != nil {
				t.Fatal(err)
			}
			var v any = m
			full := ins[name].Validate(&v) == nil
			if f.valid(m) && !full {
				t.Errorf("%s %s: the fast check passes what the schema refuses", name, p)
			}
		}
	}
}
