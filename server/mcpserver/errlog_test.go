package mcpserver_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
)

// A tool call that fails inside sessiongate (here: the database is gone)
// reaches the operator's log at Error level with the tool and session; a
// caller's mistake stays at Debug. Both are isError results for the model.
func TestToolFailuresLoggedByClass(t *testing.T) {
	f := newMCPFixture(t)
	ctx := context.Background()
	var logs bytes.Buffer
	f.opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cs := mcpConnectStdio(t, mcpserver.New(f.opts))
	spec, err := f.opts.LoadSpec(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.engine.Start(ctx, session.StartRequest{Repo: f.opts.Repo, Spec: spec, Objective: "log classes"})
	if err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) *mcp.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "validate_gate", Arguments: args})
		if err != nil {
			t.Fatalf("a tool failure became a protocol error: %v", err)
		}
		if !r.IsError {
			t.Fatalf("no isError: %s", mcpText(r))
		}
		return r
	}
	call(map[string]any{"session_id": res.SessionID, "phase": "NO_SUCH_PHASE"})
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("a caller's mistake was logged as an error:\n%s", logs.String())
	}
	f.db.Close()
	call(map[string]any{"session_id": res.SessionID})
	out := logs.String()
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "tool=validate_gate") || !strings.Contains(out, "session="+res.SessionID) {
		t.Errorf("an internal failure did not reach the log at Error level with tool and session:\n%s", out)
	}
}
