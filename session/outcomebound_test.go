package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestTranscriptOutcomeAgainstHook plays the background writer of issue 25
// item 4 (`setsid python3 w.py &`, finding the transcript by itself): it
// rewrites a failed MCP call's result to a success in the moment between
// Claude Code writing it and the next hook event, so no seal covers the
// old bytes and no rule saw the shell line name the file. The failing MCP
// call met "MUST call mcp__serena__activate_project" (the lazy row, met on
// the old code). Claude Code's PostToolUseFailure told the hook the call
// failed, which the agent cannot write: the hook keeps that
// (TokenToolFailed) and a gate takes the hook's word over a transcript
// that says the call passed. The honest twins: a call that passed, and a
// failure both sides agree on.
func TestTranscriptOutcomeAgainstHook(t *testing.T) {
	requireGit(t)
	const in = `{"project":"."}`
	passed := claudeLines("m1", "mcp__serena__activate_project", in, "Activated", false)
	failed := claudeLines("m1", "mcp__serena__activate_project", in, "MCP error -32000: Connection closed", true)
	tests := []struct {
		name       string
		hookFailed bool // Claude Code sent PostToolUseFailure for m1
		transcript string
		met        bool
	}{
		{"lazy: failed, its result rewritten to a pass before any seal", true, passed, false},
		{"honest: passed", false, passed, true},
		{"honest: failed on both sides", true, failed, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mcpProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{"serena":{"command":"serena","args":["start-mcp-server"]}}}`)
			gittest.Git(t, e.root, "add", ".mcp.json")
			gittest.Git(t, e.root, "commit", "-q", "-m", "serena")
			id := e.start("mcp")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.RecordToolResult(ctx, id, "claude", "m1", tt.hookFailed); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, tt.transcript)
			st := e.reqStatus(id, txReqMCP)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("%s %q, want met %v", st.Status, st.Reason, tt.met)
			}
			evs, _ := e.db.ListEvents(ctx, id, 0, 0)
			differs := false
			for _, ev := range evs {
				differs = differs || ev.Token == "transcript:claude:outcome" && strings.Contains(ev.Detail, "m1")
			}
			if differs != (tt.hookFailed && tt.met != true && tt.transcript == passed) {
				t.Errorf("outcome event %v for %s", differs, tt.name)
			}
		})
	}
}
