package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
)

var wantTools = []string{"advance_phase", "get_blocked_reason", "record_evidence", "session_end", "session_start", "validate_gate"}

// transports runs a test over both transports of the one server.
func transports(t *testing.T, fn func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession)) {
	t.Run("http", func(t *testing.T) {
		f := newMCPFixture(t)
		fn(t, f, mcpConnectHTTP(t, f.httpServer("").URL+mcpserver.Path, nil))
	})
	t.Run("stdio", func(t *testing.T) {
		f := newMCPFixture(t)
		fn(t, f, mcpConnectStdio(t, mcpserver.New(f.opts)))
	})
}

func TestMCPListsDoNotDependOnTheConnection(t *testing.T) {
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		ctx := context.Background()
		tl, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tl.Tools {
			names = append(names, tool.Name)
			if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
				t.Errorf("tool %s lacks an input schema, output schema or description", tool.Name)
			}
			// Commands come only from the protocol or the config: no input may name one.
			in, _ := json.Marshal(tool.InputSchema)
			for _, bad := range []string{`"command"`, `"cmd"`, `"shell"`, `"script"`} {
				if strings.Contains(string(in), bad) {
					t.Errorf("tool %s input schema has a %s property: %s", tool.Name, bad, in)
				}
			}
			if tool.Name == "record_evidence" {
				var s struct {
					Properties map[string]struct {
						Enum []string `json:"enum"`
					} `json:"properties"`
					Required []string `json:"required"`
				}
				_ = json.Unmarshal(in, &s)
				if got := s.Properties["evidence_type"].Enum; !slices.Equal(got, session.EvidenceKinds) {
					t.Errorf("evidence_type enum %v, want %v", got, session.EvidenceKinds)
				}
				sort.Strings(s.Required)
				if want := []string{"evidence", "evidence_type", "phase", "session_id"}; !slices.Equal(s.Required, want) {
					t.Errorf("record_evidence required %v, want %v", s.Required, want)
				}
			}
		}
		sort.Strings(names)
		if !slices.Equal(names, wantTools) {
			t.Fatalf("tools %v, want %v", names, wantTools)
		}
		rl, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range rl.Resources {
			uris = append(uris, r.URI+" "+r.MIMEType)
		}
		sort.Strings(uris)
		if want := []string{"sessiongate://protocol text/markdown", "sessiongate://protocol/spec application/json"}; !slices.Equal(uris, want) {
			t.Fatalf("resources %v, want %v", uris, want)
		}
		tt, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var tmpls []string
		for _, r := range tt.ResourceTemplates {
			tmpls = append(tmpls, r.URITemplate+" "+r.MIMEType)
		}
		sort.Strings(tmpls)
		want := []string{"session://{session_id}/checklist application/json", "session://{session_id}/history application/json",
			"session://{session_id}/state application/json", "session://{session_id}/violations application/json"}
		if !slices.Equal(tmpls, want) {
			t.Fatalf("resource templates %v, want %v", tmpls, want)
		}
		// Starting a session changes nothing in the lists (SEP-2567).
		mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "lists"})
		tl2, _ := cs.ListTools(ctx, nil)
		rl2, _ := cs.ListResources(ctx, nil)
		a, _ := json.Marshal([]any{tl.Tools, rl.Resources})
		b, _ := json.Marshal([]any{tl2.Tools, rl2.Resources})
		if string(a) != string(b) {
			t.Fatal("tools/list or resources/list changed after session_start")
		}
	})
}

// TestMCPWholeSession walks a session through every tool: a failing gate,
// a blocked advance, evidence, a passing advance, a forced advance that
// records a violation, a blocked end, and the end.
func TestMCPWholeSession(t *testing.T) {
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		ctx := context.Background()
		start := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "exercise every tool"})
		id := start.SessionID
		if err := session.ValidateID(id); err != nil {
			t.Fatalf("session_id %q: %v", id, err)
		}
		if start.Phase != "CONTEXT_RETRIEVAL" || start.State != session.StateInit || !slices.Equal(start.BlockedUntil, []string{"CONTEXT_RETRIEVAL", "PLAN"}) || len(start.Checklist) != 4 {
			t.Fatalf("session_start %+v", start)
		}
		sid := map[string]any{"session_id": id}

		gate := mcpOK[mcpserver.ValidateGateOutput](t, cs, "validate_gate", sid)
		if gate.Passed || gate.Status != session.StatusFail || gate.Phase != "CONTEXT_RETRIEVAL" {
			t.Fatalf("validate_gate before evidence: %+v", gate)
		}

		// A blocked advance is isError with the structured result attached.
		res := mcpCall(t, cs, "advance_phase", sid)
		if !res.IsError {
			t.Fatalf("blocked advance_phase not isError: %s", mcpText(res))
		}
		blocked := mcpStructured[session.AdvanceResult](t, res)
		if blocked.Advanced || blocked.Blocked == nil || blocked.Blocked.Phase != "CONTEXT_RETRIEVAL" || len(blocked.Blocked.EvidenceNeeded) == 0 {
			t.Fatalf("blocked advance %+v", blocked)
		}
		if !strings.Contains(mcpText(res), "Blocked by BLOCKING gate CONTEXT_RETRIEVAL") {
			t.Fatalf("blocked advance text %q", mcpText(res))
		}

		why := mcpOK[session.BlockedReport](t, cs, "get_blocked_reason", sid)
		if !why.IsBlocked || len(why.BlockedPhases) != 2 || why.BlockedPhases[0].Phase != "CONTEXT_RETRIEVAL" || why.BlockedPhases[0].Level != "BLOCKING" || len(why.SuggestedActions) == 0 {
			t.Fatalf("get_blocked_reason %+v", why)
		}

		ev := mcpOK[mcpserver.RecordEvidenceOutput](t, cs, "record_evidence", map[string]any{
			"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "tool_output", "evidence": "read README.md and the notes"})
		if ev.SHA256 == "" || ev.EvidenceType != "tool_output" || ev.Phase != "CONTEXT_RETRIEVAL" {
			t.Fatalf("record_evidence %+v", ev)
		}
		if gate := mcpOK[mcpserver.ValidateGateOutput](t, cs, "validate_gate", sid); !gate.Passed || gate.Status != session.StatusPass {
			t.Fatalf("validate_gate after evidence: %+v", gate)
		}
		adv := mcpOK[session.AdvanceResult](t, cs, "advance_phase", sid)
		if !adv.Advanced || adv.To != "PLAN" {
			t.Fatalf("advance %+v", adv)
		}

		// PLAN.md is missing: force past it, with a reason, records a violation.
		forced := mcpOK[session.AdvanceResult](t, cs, "advance_phase", map[string]any{"session_id": id, "force": true, "reason": "the change is one line"})
		if !forced.Advanced || forced.To != session.PosWorking || len(forced.Violations) != 1 || forced.Violations[0].Severity != session.SeverityCritical || forced.Violations[0].Code != "FORCED_ADVANCE" {
			t.Fatalf("forced advance %+v", forced)
		}

		// Ending right after forcing a BLOCKING gate is refused by the default
		// sequence rules: an isError result, not a protocol error.
		res = mcpCall(t, cs, "session_end", map[string]any{"session_id": id, "summary": "did it"})
		if !res.IsError || !strings.Contains(mcpText(res), "sequence rule") {
			t.Fatalf("session_end right after a forced advance: isError=%v %q", res.IsError, mcpText(res))
		}
		// The end is blocked by QA until its evidence is recorded, then by the commit.
		gate = mcpOK[mcpserver.ValidateGateOutput](t, cs, "validate_gate", map[string]any{"session_id": id, "phase": "QA_VALIDATION"})
		if gate.Passed {
			t.Fatalf("QA gate passes without evidence: %+v", gate)
		}
		// A read-only call in between does not dodge the rule (issue 11 item 6).
		res = mcpCall(t, cs, "session_end", map[string]any{"session_id": id, "summary": "did it"})
		if !res.IsError || !strings.Contains(mcpText(res), "end-after-forced-blocking-gate") {
			t.Fatalf("session_end after only validate_gate: isError=%v %q", res.IsError, mcpText(res))
		}
		// Doing something (recording what was done) does.
		mcpOK[mcpserver.RecordEvidenceOutput](t, cs, "record_evidence", map[string]any{
			"session_id": id, "phase": "PLAN", "evidence_type": "manual", "evidence": "one-line change, no plan needed"})
		res = mcpCall(t, cs, "session_end", map[string]any{"session_id": id, "summary": "did it"})
		end := mcpStructured[session.EndResult](t, res)
		if !res.IsError || end.Ended || end.Blocked == nil || end.Blocked.Phase != "QA_VALIDATION" {
			t.Fatalf("session_end before QA: isError=%v %+v %s", res.IsError, end, mcpText(res))
		}
		mcpOK[mcpserver.RecordEvidenceOutput](t, cs, "record_evidence", map[string]any{
			"session_id": id, "phase": "QA_VALIDATION", "evidence_type": "tool_output", "evidence": "ok  all tests passed"})
		res = mcpCall(t, cs, "session_end", map[string]any{"session_id": id, "summary": "did it"})
		end = mcpStructured[session.EndResult](t, res)
		if !res.IsError || end.Blocked == nil || end.Blocked.Phase != "GIT_OPERATIONS" || end.Blocked.Level != "REQUIRED" {
			t.Fatalf("session_end before the commit: isError=%v %+v", res.IsError, end)
		}
		gittest.Write(t, f.root, "feature.txt", "new\n")
		gittest.Git(t, f.root, "add", "feature.txt")
		gittest.Git(t, f.root, "commit", "-q", "-m", "feature")
		end = mcpOK[session.EndResult](t, cs, "session_end", map[string]any{"session_id": id, "summary": "did it", "next_session_notes": "write PLAN.md"})
		if !end.Ended || end.State != session.StateComplete || end.EndCommit != gittest.Git(t, f.root, "rev-parse", "HEAD") {
			t.Fatalf("session_end %+v", end)
		}

		// Every resource of the session, read back.
		read := func(uri string, v any) {
			t.Helper()
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatalf("read %s: %v", uri, err)
			}
			if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != "application/json" || rr.Contents[0].URI != uri {
				t.Fatalf("read %s: contents %+v", uri, rr.Contents)
			}
			if err := json.Unmarshal([]byte(rr.Contents[0].Text), v); err != nil {
				t.Fatalf("read %s: %v", uri, err)
			}
		}
		var state session.StateView
		read("session://"+id+"/state", &state)
		// No git hooks are installed here, so the commit is found by
		// reconciliation as a BYPASS (bypass_commit evidence, a violation),
		// besides the forced advance and two refused ends.
		if state.Session.State != session.StateComplete || state.Session.NextNotes != "write PLAN.md" || len(state.Evidence) != 4 || len(state.Violations) != 4 || !hasCode(state.Violations, session.CodeBypass) {
			t.Fatalf("state resource: session %+v, %d evidence, %d violations", state.Session, len(state.Evidence), len(state.Violations))
		}
		var cl struct {
			SessionID string                  `json:"session_id"`
			Checklist []session.ChecklistItem `json:"checklist"`
		}
		read("session://"+id+"/checklist", &cl)
		status := map[string]session.PhaseStatus{}
		for _, it := range cl.Checklist {
			status[it.Phase] = it.Status
		}
		if status["CONTEXT_RETRIEVAL"] != session.PhasePassed || status["PLAN"] != session.PhaseForced || status["GIT_OPERATIONS"] != session.PhasePassed {
			t.Fatalf("checklist statuses %v", status)
		}
		var hist struct {
			Events []session.Event `json:"events"`
		}
		read("session://"+id+"/history", &hist)
		var toks []string
		for _, e := range hist.Events {
			toks = append(toks, e.Token)
		}
		for _, want := range []string{"tool:session_start", "tool:validate_gate", "tool:advance_phase:blocked", "tool:record_evidence", "tool:advance_phase:force", "tool:session_end:blocked", "tool:session_end"} {
			if !slices.Contains(toks, want) {
				t.Errorf("history lacks %s: %v", want, toks)
			}
		}
		var vs struct {
			Violations []session.Violation `json:"violations"`
		}
		read("session://"+id+"/violations", &vs)
		codes := map[string]string{}
		for _, v := range vs.Violations {
			codes[v.Code] = v.Severity + " " + v.Phase
		}
		if len(vs.Violations) != 4 || codes["FORCED_ADVANCE"] != "CRITICAL PLAN" || codes["SEQUENCE_RULE"] == "" || codes["BYPASS"] != "CRITICAL GIT_OPERATIONS" {
			t.Fatalf("violations resource %+v", vs)
		}
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ProtocolURI})
		if err != nil {
			t.Fatal(err)
		}
		proto, _ := os.ReadFile(mcpTestProtocol)
		if rr.Contents[0].Text != string(proto) || rr.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("protocol resource differs from the document (%s)", rr.Contents[0].MIMEType)
		}
		var spec struct {
			SHA256 string `json:"sha256"`
			Phases []struct {
				ID string `json:"id"`
			} `json:"phases"`
		}
		read(mcpserver.ProtocolSpecURI, &spec)
		if spec.SHA256 != state.Session.ProtocolSHA || len(spec.Phases) != 4 {
			t.Fatalf("protocol spec resource: sha %s phases %d", spec.SHA256, len(spec.Phases))
		}
		// The next session sees this one's summary and notes.
		next := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "next"})
		if len(next.History) == 0 || next.History[0].SessionID != id || next.History[0].NextNotes != "write PLAN.md" {
			t.Fatalf("next session history %+v", next.History)
		}
	})
}

// TestMCPToolErrors: every refusal is a tool result with isError and a
// message that says what to do, never a JSON-RPC error.
func TestMCPToolErrors(t *testing.T) {
	f := newMCPFixture(t)
	cs := mcpConnectHTTP(t, f.httpServer("").URL+mcpserver.Path, nil)
	start := func() string {
		return mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "errors"}).SessionID
	}
	id := start()
	unknown := uuid.NewString()
	ctx := context.Background()

	terminated := start()
	if _, err := f.engine.Terminate(ctx, terminated, "test"); err != nil {
		t.Fatal(err)
	}
	// start() superseded id; use a fresh one for the per-session cases.
	id = start()
	ev := func(kind, body string) map[string]any {
		return map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": kind, "evidence": body}
	}
	cases := []struct {
		name, tool string
		args       map[string]any
		want       []string
	}{
		{"unknown handle", "validate_gate", map[string]any{"session_id": unknown}, []string{"not found", "start one with session_start"}},
		{"malformed handle", "advance_phase", map[string]any{"session_id": "../../etc"}, []string{"invalid session id", "pass the session_id that session_start returned"}},
		{"terminated handle", "record_evidence", map[string]any{"session_id": terminated, "phase": "PLAN", "evidence_type": "manual", "evidence": "x"}, []string{"terminated", "start a new session"}},
		{"unknown phase", "validate_gate", map[string]any{"session_id": id, "phase": "NOPE"}, []string{`unknown phase "NOPE"`, "CONTEXT_RETRIEVAL"}},
		{"unknown evidence phase", "record_evidence", map[string]any{"session_id": id, "phase": "NOPE", "evidence_type": "manual", "evidence": "x"}, []string{`unknown phase "NOPE"`}},
		{"unknown target", "advance_phase", map[string]any{"session_id": id, "target_phase": "NOPE"}, []string{`unknown target phase "NOPE"`}},
		{"evidence too large", "record_evidence", ev("tool_output", strings.Repeat("x", session.MaxEvidenceBytes+1)), []string{"the limit is 65536", "record a file_path or content_hash reference instead"}},
		{"path escapes", "record_evidence", ev("file_path", "../outside.txt"), []string{"outside the repository", "relative to its root"}},
		{"absolute path", "record_evidence", ev("content_hash", "/etc/passwd"), []string{"outside the repository", "relative to the repository root"}},
		{"missing file", "record_evidence", ev("file_path", "nope.txt"), []string{"nope.txt does not exist"}},
		{"bad evidence type", "record_evidence", ev("telepathy", "x"), []string{"evidence_type"}},
		{"force without reason", "advance_phase", map[string]any{"session_id": id, "force": true}, []string{"force needs a reason"}},
		{"end without summary", "session_end", map[string]any{"session_id": id, "summary": " "}, []string{"summary is required"}},
		{"end in the start protocol", "session_end", map[string]any{"session_id": id, "summary": "x"}, []string{"still in its start protocol"}},
		{"missing objective", "session_start", map[string]any{"objective": ""}, []string{"objective is required"}},
		{"bad starting commit", "session_start", map[string]any{"objective": "x", "starting_commit": "HEAD; rm -rf /"}, []string{"invalid starting_commit"}},
		{"unknown argument", "validate_gate", map[string]any{"session_id": id, "command": "rm -rf /"}, []string{"command"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := mcpCall(t, cs, c.tool, c.args)
			if !res.IsError {
				t.Fatalf("%s: want isError, got %s", c.tool, mcpText(res))
			}
			for _, w := range c.want {
				if !strings.Contains(mcpText(res), w) {
					t.Errorf("%s: message %q lacks %q", c.tool, mcpText(res), w)
				}
			}
		})
	}
	t.Run("symlink out of the repository", func(t *testing.T) {
		outside := t.TempDir() + "/secret.txt"
		gittest.Write(t, "/", strings.TrimPrefix(outside, "/"), "secret")
		if err := os.Symlink(outside, f.root+"/link.txt"); err != nil {
			t.Fatal(err)
		}
		res := mcpCall(t, cs, "record_evidence", ev("file_path", "link.txt"))
		if !res.IsError || !strings.Contains(mcpText(res), "outside the repository") {
			t.Fatalf("symlink out: isError=%v %q", res.IsError, mcpText(res))
		}
	})
	t.Run("expired handle", func(t *testing.T) {
		f.skew.Store(int64(25 * time.Hour))
		defer f.skew.Store(0)
		res := mcpCall(t, cs, "advance_phase", map[string]any{"session_id": id})
		if !res.IsError || !strings.Contains(mcpText(res), "expired") || !strings.Contains(mcpText(res), "start a new session") {
			t.Fatalf("expired: isError=%v %q", res.IsError, mcpText(res))
		}
	})
	t.Run("unknown tool is a JSON-RPC error", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{}})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("unknown tool: %v", err)
		}
	})
}

func TestMCPResourceErrors(t *testing.T) {
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		for _, uri := range []string{
			"session://" + uuid.NewString() + "/state",  // unknown session
			"session://not-a-uuid/checklist",            // invalid id
			"session://" + uuid.NewString() + "/nosuch", // no such view
			"file:///etc/passwd",                        // not ours
		} {
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != mcp.CodeResourceNotFound {
				t.Errorf("read %s: %v, want resource-not-found (%d)", uri, err, mcp.CodeResourceNotFound)
			}
		}
	})
}

func TestMCPMalformedJSONRPCOverHTTP(t *testing.T) {
	f := newMCPFixture(t)
	url := f.httpServer("").URL + mcpserver.Path
	cases := []struct {
		name, body string
		status     int
		code       int64
		id         string
	}{
		{"not json", `{"jsonrpc":"2.0","id":1,"method":`, 400, jsonrpc.CodeParseError, "null"},
		{"garbage", `garbage{`, 400, jsonrpc.CodeParseError, "null"},
		{"no version", `{"id":7,"method":"tools/list"}`, 400, jsonrpc.CodeInvalidRequest, "7"},
		{"no method", `{"jsonrpc":"2.0","id":"x"}`, 400, jsonrpc.CodeInvalidRequest, `"x"`},
		{"bad params", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"all"}`, 400, jsonrpc.CodeInvalidRequest, "2"},
		{"empty batch", `[]`, 400, jsonrpc.CodeInvalidRequest, "null"},
		{"a number", `42`, 400, jsonrpc.CodeInvalidRequest, "null"},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"no/such"}`, 400, jsonrpc.CodeMethodNotFound, "3"},
		{"notification with an id", `{"jsonrpc":"2.0","id":5,"method":"notifications/initialized"}`, 400, jsonrpc.CodeInvalidRequest, "5"},
		{"call without params", `{"jsonrpc":"2.0","id":6,"method":"tools/call"}`, 400, jsonrpc.CodeInvalidRequest, "6"},
	}
	t.Run("not JSON at all is the SDK's 415", func(t *testing.T) {
		resp, body := mcpPost(t, url, "garbage{", http.Header{"Content-Type": {"text/plain"}})
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d, want 415: %s", resp.StatusCode, body)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := mcpPost(t, url, c.body, http.Header{"Content-Type": {"application/json; charset=utf-8"}})
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			r := mcpDecodeRPC(t, body)
			if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id {
				t.Fatalf("got %s, want error %d with id %s", body, c.code, c.id)
			}
		})
	}
}

func TestMCPMalformedJSONRPCOverStdio(t *testing.T) {
	f := newMCPFixture(t)
	srv := mcpserver.New(f.opts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, mcpserver.StdioTransport(inR, outW)) }()
	lines := newMCPLineReader(outR)
	send := func(s string) {
		if _, err := inW.Write([]byte(s + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	send(`garbage{`)
	if r := mcpDecodeRPC(t, lines.next(t)); r.Error == nil || r.Error.Code != jsonrpc.CodeParseError || string(r.ID) != "null" {
		t.Fatalf("garbage line: %+v", r)
	}
	send(`{"id":4,"method":"ping"}`)
	if r := mcpDecodeRPC(t, lines.next(t)); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest || string(r.ID) != "4" {
		t.Fatalf("no version: %+v", r)
	}
	// Before initialize, a call is an invalid request (the SDK says code 0).
	for _, m := range []string{"bogus/method", "tools/call"} {
		send(`{"jsonrpc":"2.0","id":3,"method":"` + m + `"}`)
		if r := mcpDecodeRPC(t, lines.next(t)); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest || string(r.ID) != "3" || !strings.Contains(r.Error.Message, "initialization") {
			t.Fatalf("%s before initialize: %+v", m, r)
		}
	}
	// The connection survives: a whole handshake and a call still work.
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := mcpDecodeRPC(t, lines.next(t)); r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("initialize after garbage: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"validate_gate","arguments":{"session_id":"x"}}}`)
	r := mcpDecodeRPC(t, lines.next(t))
	var res struct {
		IsError bool `json:"isError"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || !res.IsError {
		t.Fatalf("tools/call after garbage: %s", r.Result)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("stdio server ended with %v after EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stdio server did not stop at EOF")
	}
}

// TestMCPStdioAnswersBeforeEOFEnds: a client that pipes its requests and
// closes stdin gets every answer before the session ends, whatever the
// spelling of its ids (the SDK answers 1.0 as 1, 9007199254740993 as
// 9007199254740992 and "\u00e9" as "é"), for each call of a batch, and for
// two requests that share an id (of which the SDK may answer one).
// Waiting for the id as the client spelled it hung the session at EOF.
// (Batches are JSON-RPC of protocol 2025-03-26; later versions refuse them.)
func TestMCPStdioAnswersBeforeEOFEnds(t *testing.T) {
	f := newMCPFixture(t)
	srv := mcpserver.New(f.opts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u00e9","method":"ping"}`,
		`{"jsonrpc":"2.0","id":2e1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"dup","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"dup","method":"ping"}`,
		`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`,
	}, "\n") + "\n"
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, mcpserver.StdioTransport(io.NopCloser(strings.NewReader(in)), outW))
		outW.Close()
	}()
	var got []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		for sc.Scan() {
			var one struct{ ID json.RawMessage }
			var batch []struct{ ID json.RawMessage }
			if json.Unmarshal(sc.Bytes(), &batch) == nil {
				for _, r := range batch {
					got = append(got, string(r.ID))
				}
			} else if json.Unmarshal(sc.Bytes(), &one) == nil {
				got = append(got, string(one.ID))
			}
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("stdio server ended with %v after EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stdio server did not end after EOF: it waits for an answer it will not see")
	}
	<-lines
	// The SDK answers a reused id once or twice, depending on whether
	// the first was still in flight; either way the session ended.
	dups := len(got)
	got = slices.DeleteFunc(got, func(id string) bool { return id == `"dup"` })
	if dups -= len(got); dups < 1 || dups > 2 {
		t.Fatalf("%d answers to the two requests with id \"dup\"", dups)
	}
	slices.Sort(got)
	want := []string{`"b1"`, `"b2"`, `"init"`, `"é"`, `1`, `20`, `9007199254740992`}
	if !slices.Equal(got, want) {
		t.Fatalf("answered ids %v, want %v", got, want)
	}
}

func TestMCPHTTPGuard(t *testing.T) {
	f := newMCPFixture(t)
	ts := f.httpServer("")
	url := ts.URL + mcpserver.Path
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	cases := []struct {
		name   string
		header http.Header
		status int
	}{
		{"plain", nil, 200},
		{"evil host", http.Header{"Host": {"evil.example"}}, 403},
		{"evil host with loopback port", http.Header{"Host": {"evil.example:80"}}, 403},
		{"rebinding host", http.Header{"Host": {"127.0.0.1.nip.io"}}, 403},
		{"localhost host", http.Header{"Host": {"localhost" + strings.TrimPrefix(ts.URL, "http://127.0.0.1")}}, 200},
		{"evil origin", http.Header{"Origin": {"http://evil.example"}}, 403},
		{"other local port", http.Header{"Origin": {"http://127.0.0.1:1"}}, 403},
		{"null origin", http.Header{"Origin": {"null"}}, 403},
		{"same origin", http.Header{"Origin": {ts.URL}}, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := mcpPost(t, url, list, c.header)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
		})
	}
	t.Run("GET and DELETE are refused in stateless mode", func(t *testing.T) {
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			req, _ := http.NewRequest(m, url, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", "abc")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("%s: status %d, want 405", m, resp.StatusCode)
			}
		}
	})
}

// TestMCPNoSessionHeader: no Mcp-Session-Id is issued, and one sent by a
// client is ignored (SEP-2567): every call stands on its own.
func TestMCPNoSessionHeader(t *testing.T) {
	f := newMCPFixture(t)
	url := f.httpServer("").URL + mcpserver.Path
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"session_start","arguments":{"objective":"headers"}}}`,
	}
	for i, b := range bodies {
		for _, h := range []http.Header{nil, {"Mcp-Session-Id": {"made-up-" + fmt.Sprint(i)}}} {
			resp, body := mcpPost(t, url, b, h)
			if resp.StatusCode != 200 {
				t.Fatalf("%s (header %v): status %d: %s", b, h, resp.StatusCode, body)
			}
			if v := resp.Header.Get("Mcp-Session-Id"); v != "" {
				t.Fatalf("%s: response carries Mcp-Session-Id %q", b, v)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("%s: Content-Type %q, want application/json (JSONResponse)", b, ct)
			}
			if r := mcpDecodeRPC(t, body); r.Error != nil {
				t.Fatalf("%s: %s", b, body)
			}
		}
	}
}

func TestMCPToken(t *testing.T) {
	f := newMCPFixture(t)
	const token = "s3cr3t-token"
	url := f.httpServer(token).URL + mcpserver.Path
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	cases := []struct {
		name   string
		auth   string
		status int
	}{
		{"none", "", 401},
		{"wrong", "Bearer nope", 401},
		{"prefix", "Bearer s3cr3t", 401},
		{"basic", "Basic czNjcjN0LXRva2Vu", 401},
		{"right", "Bearer " + token, 200},
		{"scheme case", "bearer " + token, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.auth != "" {
				h.Set("Authorization", c.auth)
			}
			resp, body := mcpPost(t, url, list, h)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			if c.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("401 without WWW-Authenticate: Bearer (%q)", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("sdk client with the token", func(t *testing.T) {
		cs := mcpConnectHTTP(t, url, http.Header{"Authorization": {"Bearer " + token}})
		mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "token"})
	})
	t.Run("guard runs before the token", func(t *testing.T) {
		resp, _ := mcpPost(t, url, list, http.Header{"Host": {"evil.example"}, "Authorization": {"Bearer " + token}})
		if resp.StatusCode != 403 {
			t.Fatalf("status %d, want 403", resp.StatusCode)
		}
	})
}

// TestMCPConcurrentCalls drives one server from many clients at once, as
// several agents or tabs would: run with -race, it checks that the shared
// repository, engine and handlers hold up.
func TestMCPConcurrentCalls(t *testing.T) {
	f := newMCPFixture(t)
	url := f.httpServer("").URL + mcpserver.Path
	setup := mcpConnectHTTP(t, url, nil)
	id := mcpOK[session.StartResult](t, setup, "session_start", map[string]any{"objective": "concurrency"}).SessionID
	mcpOK[mcpserver.RecordEvidenceOutput](t, setup, "record_evidence", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "tool_output", "evidence": "read"})

	const clients, calls = 6, 8
	errs := make(chan error, clients*calls*2)
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		cs := mcpConnectHTTP(t, url, nil) // t.Fatal only from the test goroutine
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "validate_gate", Arguments: map[string]any{"session_id": id}})
				if err != nil || r.IsError {
					errs <- fmt.Errorf("validate_gate: %v %v", err, r)
					continue
				}
				if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "session://" + id + "/state"}); err != nil {
					errs <- fmt.Errorf("read state: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Every call is on record: as its events, or counted as a repeat of
	// an unchanged answer (session/gaterepeat.go), once the repeats the
	// engine holds back are written (as the server's shutdown does).
	f.engine.FlushGateRepeats(context.Background())
	n := 0
	for _, tok := range mcpTokens(t, f.db, id) {
		if tok == "tool:validate_gate" {
			n++
		}
	}
	reps, err := f.db.GateRepeats(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var repeated int64
	for _, r := range reps {
		repeated += r.Repeats
	}
	if n+int(repeated) != clients*calls || n == 0 {
		t.Fatalf("%d validate_gate events recorded and %d repeats counted, want %d calls", n, repeated, clients*calls)
	}

	// Concurrent starts in one worktree: all succeed, exactly one stays active.
	var started sync.Map
	var wg2 sync.WaitGroup
	for c := 0; c < 4; c++ {
		cs := mcpConnectHTTP(t, url, nil)
		wg2.Add(1)
		go func(c int) {
			defer wg2.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "session_start", Arguments: map[string]any{"objective": fmt.Sprint("parallel ", c)}})
			if err != nil || r.IsError {
				t.Errorf("parallel session_start: %v %v", err, r)
				return
			}
			b, _ := json.Marshal(r.StructuredContent)
			var res session.StartResult
			if err := json.Unmarshal(b, &res); err != nil {
				t.Errorf("session_start result %s: %v", b, err)
				return
			}
			started.Store(res.SessionID, true)
		}(c)
	}
	wg2.Wait()
	active, err := f.engine.ActiveSession(context.Background(), f.repo)
	if err != nil || active.State != session.StateInit || !strings.HasPrefix(active.Objective, "parallel ") {
		t.Fatalf("active session after parallel starts: %+v %v", active, err)
	}
	if _, ok := started.Load(active.ID); !ok {
		t.Fatalf("active session %s is not one the parallel starts returned", active.ID)
	}
}

// TestMCPWithoutProtocol: a missing or broken protocol is reported to the
// agent (isError, resource errors) instead of killing the server.
func TestMCPWithoutProtocol(t *testing.T) {
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		ctx := context.Background()
		path := f.root + "/SESSION-PROTOCOL.md"
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		res := mcpCall(t, cs, "session_start", map[string]any{"objective": "no protocol"})
		if !res.IsError || !strings.Contains(mcpText(res), "load the protocol") || !strings.Contains(mcpText(res), "call session_start again") {
			t.Fatalf("session_start without a protocol: isError=%v %q", res.IsError, mcpText(res))
		}
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ProtocolURI})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != mcp.CodeResourceNotFound {
			t.Fatalf("protocol resource without a protocol: %v", err)
		}
		// A document with no phases is refused by the parser: an internal
		// error that says why, and session_start says it too.
		gittest.Write(t, f.root, "SESSION-PROTOCOL.md", "# Nothing here\n")
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ProtocolSpecURI}); !errors.As(err, &je) || je.Code != jsonrpc.CodeInternalError || !strings.Contains(je.Message, "load protocol") {
			t.Fatalf("spec resource of a broken protocol: %v", err)
		}
		if res := mcpCall(t, cs, "session_start", map[string]any{"objective": "broken protocol"}); !res.IsError {
			t.Fatalf("session_start with a broken protocol succeeded: %s", mcpText(res))
		}
	})
}

// TestMCPSchemasAndInvalidInput: every tool advertises an output schema
// inferred from its Go result type, and arguments the input schema refuses
// (an extra property, a value outside the evidence_type enum, a missing
// required property, a wrong type) are isError results that say what is
// wrong, as the SDK words them, and never reach the engine.
func TestMCPSchemasAndInvalidInput(t *testing.T) {
	outTypes := map[string]*jsonschema.Schema{
		"session_start":      mcpMustSchema[session.StartResult](t),
		"validate_gate":      mcpMustSchema[mcpserver.ValidateGateOutput](t),
		"advance_phase":      mcpMustSchema[session.AdvanceResult](t),
		"record_evidence":    mcpMustSchema[mcpserver.RecordEvidenceOutput](t),
		"session_end":        mcpMustSchema[session.EndResult](t),
		"get_blocked_reason": mcpMustSchema[session.BlockedReport](t),
	}
	transports(t, func(t *testing.T, f *mcpFixture, cs *mcp.ClientSession) {
		tl, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tl.Tools {
			want, ok := outTypes[tool.Name]
			if !ok {
				t.Errorf("unexpected tool %s", tool.Name)
				continue
			}
			var got jsonschema.Schema
			b, _ := json.Marshal(tool.OutputSchema)
			if err := json.Unmarshal(b, &got); err != nil || got.Type != "object" {
				t.Errorf("%s outputSchema is not an object schema: %s (%v)", tool.Name, b, err)
				continue
			}
			if g, w := slices.Sorted(maps.Keys(got.Properties)), slices.Sorted(maps.Keys(want.Properties)); !slices.Equal(g, w) {
				t.Errorf("%s outputSchema properties %v, want those of its Go type %v", tool.Name, g, w)
			}
			if g, w := slices.Sorted(slices.Values(got.Required)), slices.Sorted(slices.Values(want.Required)); !slices.Equal(g, w) {
				t.Errorf("%s outputSchema required %v, want %v", tool.Name, g, w)
			}
		}

		id := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "invalid input"}).SessionID
		before := len(mcpTokens(t, f.db, id))
		cases := []struct {
			name, tool string
			args       map[string]any
			want       string
		}{
			{"extra property", "validate_gate", map[string]any{"session_id": id, "command": "rm -rf /"}, `unexpected additional properties ["command"]`},
			{"evidence_type outside the enum", "record_evidence", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "telepathy", "evidence": "x"}, "evidence_type"},
			{"missing required property", "record_evidence", map[string]any{"session_id": id, "phase": "CONTEXT_RETRIEVAL", "evidence": "x"}, `missing properties: ["evidence_type"]`},
			{"wrong type", "advance_phase", map[string]any{"session_id": id, "force": "yes"}, "force"},
			{"field name in the wrong case", "validate_gate", map[string]any{"Session_ID": id}, "Session_ID"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res := mcpCall(t, cs, c.tool, c.args)
				text := mcpText(res)
				if !res.IsError || !strings.Contains(text, `validating "arguments"`) || !strings.Contains(text, c.want) {
					t.Fatalf("isError=%v %q, want an input validation error mentioning %q", res.IsError, text, c.want)
				}
				if res.StructuredContent != nil {
					t.Errorf("refused call has structuredContent %v", res.StructuredContent)
				}
			})
		}
		if after := len(mcpTokens(t, f.db, id)); after != before {
			t.Errorf("refused calls reached the engine: %d events, want %d", after, before)
		}
	})
}

func mcpMustSchema[T any](t *testing.T) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hasCode(vs []session.Violation, code string) bool {
	for _, v := range vs {
		if v.Code == code {
			return true
		}
	}
	return false
}
