package agenttest_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// failingMCP is an MCP server (stdio) whose one tool, check, runs a shell
// line and answers with isError when it fails: an MCP tool whose failure
// a protocol requirement ("MUST call mcp__x__check") must not count.
var failingMCP = shellMCPServer("qa", "check", "Run a check", true)

// shellMCPServer is a minimal MCP server (stdio, newline-delimited
// JSON-RPC, python3) named name with one tool that runs a shell line and
// answers with its output and exit code; with isError a failed line's
// answer says isError.
func shellMCPServer(name, tool, description string, isError bool) string {
	flag := ""
	if isError {
		flag = `, "isError": p.returncode != 0`
	}
	return `import json, subprocess, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    m, r = msg.get("method"), None
    if m == "initialize":
        r = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "` + name + `", "version": "1"}}
    elif m == "tools/list":
        r = {"tools": [{"name": "` + tool + `", "description": "` + description + `", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}]}
    elif m == "tools/call":
        p = subprocess.run(msg["params"]["arguments"]["command"], shell=True, capture_output=True, text=True)
        r = {"content": [{"type": "text", "text": p.stdout + p.stderr + "exit %d" % p.returncode}]` + flag + `}
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": r}) + "\n")
    sys.stdout.flush()
`
}

// mcpRepo is hookedRepo with failingMCP configured for Claude Code.
func mcpRepo(t *testing.T) (*sgRepo, string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		agenttest.Missing(t, "python3 not on PATH (the test's MCP server)")
	}
	r := hookedRepo(t, "agent_hooks:\n  max_stop_blocks: 0\n")
	server := filepath.Join(t.TempDir(), "qa_mcp.py")
	if err := os.WriteFile(server, []byte(failingMCP), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "qa-mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"qa": map[string]any{"command": py, "args": []string{server}}}})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return r, cfg
}

// runMCPChecks runs the real Claude Code in r with the MCP config cfg:
// the session advanced to WORKING, then a failing mcp__qa__check and a
// passing one.
func runMCPChecks(t *testing.T, r *sgRepo, cfg string) *agenttest.ClaudeServer {
	t.Helper()
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("mcp__qa__check", map[string]any{"command": "echo failing; exit 3"}),
		agenttest.Use("mcp__qa__check", map[string]any{"command": "echo passing"}),
		agenttest.Say("done"),
	)
	res := r.claude("finish quickly", agenttest.ClaudeOptions{Server: srv, MCPConfig: cfg, AllowedTools: []string{"Bash", "mcp__qa__*"}})
	if res.ExitCode != 0 || srv.Used() < 5 {
		t.Fatalf("run: exit %d, %d of 5 turns\nstderr: %s", res.ExitCode, srv.Used(), res.Stderr)
	}
	return srv
}

// TestClaudeMCPFailureMeasured (round 25, c2): what Claude Code 2.1.330
// sends for an MCP call whose result is isError, logged by a `.*` hook
// beside sessiongate's on every tool event. Round 24 saw no event at all
// for such a call and left the matcher narrow; measured here: PreToolUse,
// then PostToolUseFailure (its "error" the tool's text), and PostToolUse
// for the passing twin. The installed matcher rests on this.
func TestClaudeMCPFailureMeasured(t *testing.T) {
	r, cfg := mcpRepo(t)
	logPath := filepath.Join(t.TempDir(), "hook-calls.jsonl")
	settings := filepath.Join(r.dir, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	hooks := s["hooks"].(map[string]any)
	logger := map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"type": "command", "command": "cat >> " + logPath + "; echo >> " + logPath}}}
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"} {
		l, _ := hooks[ev].([]any)
		hooks[ev] = append(l, logger)
	}
	b, _ = json.MarshalIndent(s, "", "  ")
	r.write(".claude/settings.json", string(b))
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "log every hook call")
	srv := runMCPChecks(t, r, cfg)
	conv := srv.Conversation()
	t.Logf("after the failing check: %.300s\nafter the passing check: %.300s", conv[3].NewText(), conv[4].NewText())
	logged, _ := os.ReadFile(logPath)
	var mcp []string
	for _, line := range strings.Split(string(logged), "\n") {
		var p map[string]any
		if json.Unmarshal([]byte(line), &p) == nil && p["tool_name"] == "mcp__qa__check" {
			mcp = append(mcp, p["hook_event_name"].(string))
		}
	}
	// Pre, Failure for the failing call; Pre, Post for the passing one.
	if got := strings.Join(mcp, " "); got != "PreToolUse PostToolUseFailure PreToolUse PostToolUse" {
		t.Errorf("hook events of the two MCP calls: %q\n%s", got, logged)
	}
}

// TestClaudeMCPFailureReachesRecord (round 25, c2): through the settings
// `install --agent claude` writes and nothing else, a failed MCP call's
// outcome reaches the session record (agent:result:failed with its call
// id), so a gate counts it as failed whatever its transcript line says
// (session/TestTranscriptOutcomeAgainstHook). Before, the installed
// PostToolUseFailure matcher named Bash and the write tools only, and the
// binding acted only where a project widened it by hand. The passing twin
// leaves no such event, and the honest session records no violation.
func TestClaudeMCPFailureReachesRecord(t *testing.T) {
	t.Parallel()
	r, cfg := mcpRepo(t)
	runMCPChecks(t, r, cfg)
	show := r.onlySession()
	var failed []string
	evs, _ := show["events"].([]any)
	for _, e := range evs {
		if m, _ := e.(map[string]any); m["token"] == "agent:result:failed" {
			failed = append(failed, m["detail"].(string))
		}
	}
	if len(failed) != 1 {
		t.Fatalf("agent:result:failed events %v, want the failing MCP call's only", failed)
	}
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("honest MCP calls recorded %d violation(s): %v", len(v), v)
	}
}
