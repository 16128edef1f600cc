package agenttest_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// patch is an apply_patch text adding one file.
func addPatch(path, line string) string {
	return "*** Begin Patch\n*** Add File: " + path + "\n+" + line + "\n*** End Patch\n"
}

// The real Codex CLI with `sessiongate install --agent codex`
// (.codex/hooks.json): an apply_patch before the start gates is denied and
// the reason reaches the model; an apply_patch of the protocol after them
// is denied as protected; the shell commands are observed; a stop with
// work done and the end protocol undone is blocked max_stop_blocks times
// (Codex itself never stops a Stop hook loop), then let through with an
// END_PROTOCOL_SKIPPED violation.
func TestCodexAgentHooksDenyObserveBlockStop(t *testing.T) {
	t.Parallel()
	const maxBlocks = 2
	r := installedRepo(t, "agent_hooks:\n  max_stop_blocks: 2\n", "--agent", "codex")
	b, err := os.ReadFile(filepath.Join(r.dir, ".codex", "hooks.json"))
	if err != nil || !strings.Contains(string(b), "sessiongate agent-hook codex PreToolUse") || !strings.Contains(string(b), `"Bash|apply_patch|mcp__.*"`) {
		t.Fatalf("install --agent codex: .codex/hooks.json %v\n%s", err, b)
	}
	protocolBefore, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md"))
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("apply_patch", addPatch("early.txt", "too early")),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh"}), // fails: no hello.txt yet
		agenttest.ToolStep("apply_patch", "*** Begin Patch\n*** Update File: SESSION-PROTOCOL.md\n@@\n-# Session Protocol\n+# Session Protocol (relaxed)\n*** End Patch\n"),
		agenttest.ToolStep("apply_patch", addPatch("hello.txt", "hello")),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh"}),
		agenttest.TextStep("done"),
		agenttest.TextStep("done, really"),
		agenttest.TextStep("done, I insist"),
		agenttest.TextStep("one more"),
	)
	res := agenttest.RunCodex(t, r.dir, "add hello.txt", stub, r.env, 0)
	reqs := stub.Scripted(t)
	t.Logf("codex run: %s, exit %d, %d scripted requests", res.Elapsed, res.ExitCode, len(reqs))
	if len(reqs) < 10 {
		t.Fatalf("%d of 10 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the apply_patch before the start gates ran (stat: %v)", err)
	}
	if txt := reqs[1].NewText(); !strings.Contains(txt, "GIT_STATE") || !strings.Contains(txt, "PreToolUse") {
		t.Errorf("the deny reason did not reach the model: %s", txt)
	}
	if got, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md")); string(got) != string(protocolBefore) {
		t.Errorf("apply_patch changed the protected protocol:\n%s", got)
	}
	if txt := reqs[5].NewText(); !strings.Contains(txt, "protected files") {
		t.Errorf("the protected-file deny did not reach the model: %s", txt)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "hello.txt")); err != nil {
		t.Errorf("apply_patch after the start gates did not run: %v", err)
	}
	// Blocked twice: the reason comes back to the model each time.
	for i := 8; i <= 9; i++ {
		if txt := reqs[i].NewText(); !strings.Contains(txt, "QA_VALIDATION") || !strings.Contains(txt, "stop blocked") {
			t.Errorf("request %d after stop block %d lacks the reason: %s", i, i-7, txt)
		}
	}
	if len(reqs) > 10 {
		t.Errorf("%d scripted requests: the stop after %d blocks was not let through", len(reqs), maxBlocks)
	}
	show := r.onlySession()
	// Codex's PostToolUse carries the output only: the exit status must
	// still be the command's (a failed test run is no pass).
	var exits []string
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) && e["command"] == "sh test.sh" {
			exits = append(exits, fmt.Sprint(e["exit_code"]))
		}
	}
	if strings.Join(exits, ",") != "1,0" {
		t.Errorf("observed sh test.sh exits %v, want 1 then 0: %v", exits, evidence(show))
	}
	if origins := evidenceOrigins(show); origins[session.OriginObserved] < 2 {
		t.Errorf("evidence origins %v: want git status and sh test.sh observed", origins)
	}
	vs, _ := show["violations"].([]any)
	found := false
	for _, v := range vs {
		found = found || strings.Contains(fmt.Sprint(v), session.CodeEndProtocolSkipped)
	}
	if !found {
		t.Errorf("no %s violation after %d blocked stops: %v", session.CodeEndProtocolSkipped, maxBlocks, vs)
	}
	// Codex's own rollout never contradicts itself (codexexit.go).
	if strings.Contains(fmt.Sprint(vs), session.CodeTranscriptChanged) {
		t.Errorf("an honest run got %s: %v", session.CodeTranscriptChanged, vs)
	}
}
