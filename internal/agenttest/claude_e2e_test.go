package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// End-to-end: the real Claude Code, driven by the scripted model, works in
// a real git repository under sessiongate (real binary, git hooks, SQLite,
// MCP server spawned by Claude Code from --mcp-config).

// e2eProtocol is a small protocol: one start gate, a QA gate fed by the
// test script, and a commit gate.
const e2eProtocol = "# Session Protocol\n\n## Session Start\n\n" +
	"### Phase 1: Git State (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n" +
	"1. The agent MUST run `git status` before it changes anything.\n\n" +
	"## Session End\n\n" +
	"### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: evidence tool_output -->\n\n" +
	"1. The agent MUST run `sh test.sh` and MUST NOT end the session with it failing.\n\n" +
	"### Phase 2: Git Operations (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n" +
	"1. The agent MUST commit its changes.\n"

// e2eTest is the project's test: it passes once hello.txt exists.
const e2eTest = "test -f hello.txt || { echo 'FAIL: hello.txt missing' >&2; exit 1; }\necho 'PASS: hello.txt exists (1 test)'\n"

// mcpTools are the permissions a compliant run needs in -p mode.
var mcpTools = []string{"mcp__sessiongate__*", "Write", "Bash"}

// The compliant agent over MCP alone (no agent hooks): it drives every
// phase itself, claiming its evidence, and ends COMPLETE with no force and
// no violation. This is the baseline the agent hooks improve on.
func TestClaudeMCPCompliantSession(t *testing.T) {
	t.Parallel()
	r := newSGRepo(t, e2eProtocol, "", "--mcp", "claude")
	r.write("test.sh", e2eTest)
	r.git("add", "test.sh")
	r.git("commit", "-q", "-m", "test script")
	s := &sessionScript{}
	srv := agenttest.NewClaudeServer(t,
		s.start("add hello.txt"),
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		s.use("mcp__sessiongate__record_evidence", func(id string) map[string]any {
			return map[string]any{"session_id": id, "phase": "GIT_STATE", "evidence_type": "tool_output", "evidence": "On branch main, nothing to commit"}
		}),
		s.use("mcp__sessiongate__advance_phase", func(id string) map[string]any {
			return map[string]any{"session_id": id, "target_phase": string(session.StateWorking)}
		}),
		agenttest.Use("Write", map[string]any{"file_path": r.dir + "/hello.txt", "content": "hello\n"}),
		agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
		s.use("mcp__sessiongate__record_evidence", func(id string) map[string]any {
			return map[string]any{"session_id": id, "phase": "QA_VALIDATION", "evidence_type": "tool_output", "evidence": "PASS: hello.txt exists (1 test)"}
		}),
		agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		s.use("mcp__sessiongate__session_end", func(id string) map[string]any {
			return map[string]any{"session_id": id, "summary": "added hello.txt"}
		}),
		agenttest.Say("done"),
	)
	res := r.claude("add hello.txt", agenttest.ClaudeOptions{Server: srv, MCPConfig: ".mcp.json", AllowedTools: mcpTools})
	conv := srv.Conversation()
	if res.ExitCode != 0 || res.Result != "done" || srv.Used() != 10 {
		t.Fatalf("run: exit %d result %q, %d of 10 turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), res.Stderr)
	}
	if s.id == "" {
		t.Fatal("session_start result carried no session id")
	}
	for i, req := range conv[1:] {
		if txt := req.NewText(); strings.Contains(txt, "is_error") {
			t.Errorf("tool call %d failed: %s", i+1, txt)
		}
	}
	show := r.show(s.id)
	sess := show["session"].(map[string]any)
	if sess["state"] != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", sess["state"])
	}
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
	if log := r.git("log", "-1", "--format=%B"); !strings.Contains(log, "Session-Id: "+s.id) {
		t.Errorf("commit carries no Session-Id trailer for %s:\n%s", s.id, log)
	}
}
