package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestTranscriptCallWitness: a sub-agent run or an MCP call read from
// Claude Code's transcript counts only when sessiongate's PreToolUse hook
// kept its tool_use_id, wherever the project's hook config sends that
// tool to the hook (`install --agent claude` does). A line the agent
// appends to its own transcript with a script (a forged Agent call of the
// qa sub-agent, a forged serena call) has no such id and meets nothing;
// the gate records why. An install older than the rule sends no Agent
// (or Read) calls to the hook, so there is nothing to compare and calls
// count.
func TestTranscriptCallWitness(t *testing.T) {
	requireGit(t)
	agentIn := `{"description":"Validate","prompt":"Validate the feature","subagent_type":"qa"}`
	const readIn = `{"file_path":"ROOT/docs/guide.md"}`
	const oldSettings = `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|MultiEdit|NotebookEdit|Bash|mcp__.*","hooks":[{"type":"command","command":"sessiongate agent-hook claude PreToolUse","timeout":10}]}]}}`
	tests := []struct {
		name     string
		protocol string
		req      string
		line     string // the transcript's call, id "c1"
		settings string // "install": what `install --agent claude` writes; "": none
		commit   bool   // the settings are committed before the session
		hookSaw  string // the tool_use_id the hook kept ("": none)
		met      bool
		// hookInput is the input the hook saw with hookSaw; "": an older
		// hook, which kept no digest.
		hookInput string
	}{
		{"sub-agent: the hook saw the call", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", true, ""},
		{"sub-agent: forged, no hook saw it", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "", false, ""},
		{"sub-agent: the hook saw another call", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c2", false, ""},
		{"sub-agent: untracked hook config still binds", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", false, "", false, ""},
		{"sub-agent: an older install sends no Agent calls", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), oldSettings, true, "", true, ""},
		{"sub-agent: no hook config", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "", true, "", true, ""},
		{"mcp: the hook saw the call", mcpProtocol, txReqMCP, claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), "install", true, "c1", true, ""},
		{"mcp: forged, no hook saw it", mcpProtocol, txReqMCP, claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), "install", true, "", false, ""},
		// The older install already sent MCP calls to the hook, but kept no ids.
		{"mcp: forged under an older install", mcpProtocol, txReqMCP, claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), oldSettings, true, "", false, ""},
		// The hook keeps the digest of the input with the id: the same
		// input encoded another way (key order, spaces) is the same call;
		// a line that borrows a real call's id for another is not.
		{"sub-agent: the hook saw the call's input", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", true,
			`{"subagent_type": "qa", "prompt": "Validate the feature", "description": "Validate"}`},
		{"sub-agent: a real call's id, another sub-agent", delegateProtocol, txReqQA, claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", false,
			`{"description":"Validate","prompt":"Validate the feature","subagent_type":"general-purpose"}`},
		{"mcp: a real call's id, another input", mcpProtocol, txReqMCP, claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), "install", true, "c1", false,
			`{"project":"/elsewhere"}`},
		// Reads go to the hook too (issue 25 item 4): a forged Read line
		// met "MUST read docs/guide.md" when no hook saw Read calls.
		{"read: the hook saw the call", transcriptProtocol, txReqRead, claudeLines("c1", "Read", readIn, "1\tguide", false), "install", true, "c1", true, readIn},
		{"read: forged, no hook saw it", transcriptProtocol, txReqRead, claudeLines("c1", "Read", readIn, "1\tguide", false), "install", true, "", false, ""},
		{"read: a real call's id, another file", transcriptProtocol, txReqRead, claudeLines("c1", "Read", readIn, "1\tguide", false), "install", true, "c1", false,
			`{"file_path":"ROOT/README.md"}`},
		{"read: an older install sends no Read calls", transcriptProtocol, txReqRead, claudeLines("c1", "Read", readIn, "1\tguide", false), oldSettings, true, "", true, ""},
		// Round 22: the real call failed, and a copy of its tool_use with a
		// result that passed was appended under its id and input; the
		// parser took it as a second call. A witness is used by the first.
		{"sub-agent: failed, then a copy that passed", delegateProtocol, txReqQA,
			claudeLines("c1", "Agent", agentIn, "API Error: 500", true) + claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", false, agentIn},
		{"mcp: failed, then a copy that passed", mcpProtocol, txReqMCP,
			claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Error: not connected", true) + claudeLines("c1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), "install", true, "c1", false, `{"project":"."}`},
		{"read: failed, then a copy that passed", transcriptProtocol, txReqRead,
			claudeLines("c1", "Read", readIn, "File does not exist.", true) + claudeLines("c1", "Read", readIn, "1\tguide", false), "install", true, "c1", false, readIn},
		{"sub-agent: failed, a gate check, then a copy that passed", delegateProtocol, txReqQA,
			claudeLines("c1", "Agent", agentIn, "API Error: 500", true) + "LATER\n" + claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", false, agentIn},
		// Honest twin: the call passed the first time (a copy adds nothing).
		{"sub-agent: passed, then a copy", delegateProtocol, txReqQA,
			claudeLines("c1", "Agent", agentIn, "QA passed", false) + claudeLines("c1", "Agent", agentIn, "QA passed", false), "install", true, "c1", true, agentIn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.protocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			gittest.Write(t, e.root, ".claude/agents/qa.md", "---\nname: qa\ndescription: QA\n---\nValidate.\n")
			gittest.Write(t, e.root, "docs/guide.md", "# Guide\n")
			gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{"serena":{"command":"serena","args":["start-mcp-server"]}}}`)
			switch tt.settings {
			case "":
			case "install":
				if _, err := hooks.InstallAgents(e.root, hooks.AgentConfigs[:1]); err != nil {
					t.Fatal(err)
				}
			default:
				gittest.Write(t, e.root, ".claude/settings.json", tt.settings)
			}
			if !tt.commit {
				os.Rename(filepath.Join(e.root, ".claude", "settings.json"), filepath.Join(e.root, "settings.tmp"))
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "agents and hooks")
			if !tt.commit {
				os.Rename(filepath.Join(e.root, "settings.tmp"), filepath.Join(e.root, ".claude", "settings.json"))
			}
			id := e.start("witness")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			if tt.hookSaw != "" {
				tool := "Agent"
				switch tt.protocol {
				case mcpProtocol:
					tool = "mcp__serena__activate_project"
				case transcriptProtocol:
					tool = "Read"
				}
				digest := ""
				if tt.hookInput != "" {
					digest = transcript.WitnessDigest(tool, []byte(strings.ReplaceAll(tt.hookInput, "ROOT", e.root)))
				}
				if err := e.engine.AgentToolCall(ctx, id, "claude", tt.hookSaw, tool, digest, false); err != nil {
					t.Fatal(err)
				}
			}
			// "LATER\n" splits the lines a gate check reads first from those
			// appended after it.
			first, later, split := strings.Cut(strings.ReplaceAll(tt.line, "ROOT", e.root), "LATER\n")
			appendTo(t, path, first)
			if split {
				e.reqStatus(id, tt.req)
				appendTo(t, path, later)
			}
			st := e.reqStatus(id, tt.req)
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
			evs, err := e.engine.Store.ListEvents(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var unseen []string
			for _, ev := range evs {
				if ev.Token == "transcript:claude:unwitnessed" {
					unseen = append(unseen, ev.Detail)
				}
			}
			if tt.met != (len(unseen) == 0) {
				t.Fatalf("unwitnessed events %q, want some exactly when the call does not count", unseen)
			}
			why := "never saw call c1"
			if tt.hookSaw == "c1" {
				why = "saw call c1 (" // with another input
			}
			if !tt.met && !strings.Contains(fmt.Sprint(unseen), why) {
				t.Fatalf("the event should name the call: %q", unseen)
			}
		})
	}
}
