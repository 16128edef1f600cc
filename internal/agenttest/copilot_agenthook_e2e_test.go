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

// The real Copilot CLI with `sessiongate install --agent copilot`
// (.github/hooks/sessiongate.json, camelCase events): a create before the
// start gates is denied and the reason reaches the model; a shell write of
// the protocol after them is denied as protected; shell commands are
// observed with their exit status; a stop with work done and the end
// protocol undone is blocked at agentStop max_stop_blocks times, then let
// through with an END_PROTOCOL_SKIPPED violation.
func TestCopilotAgentHooksDenyObserveBlockStop(t *testing.T) {
	t.Parallel()
	const maxBlocks = 2
	r := installedRepo(t, fmt.Sprintf("agent_hooks:\n  max_stop_blocks: %d\n", maxBlocks), "--agent", "copilot")
	b, err := os.ReadFile(filepath.Join(r.dir, ".github", "hooks", "sessiongate.json"))
	if err != nil || !strings.Contains(string(b), `"powershell": "sessiongate agent-hook copilot preToolUse"`) || !strings.Contains(string(b), `"version": 1`) {
		t.Fatalf("install --agent copilot: .github/hooks/sessiongate.json %v\n%s", err, b)
	}
	protocolBefore, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md"))
	bash := func(cmd string) agenttest.Step {
		return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run " + cmd})
	}
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "early.txt"), "file_text": "too early\n"}),
		bash("git status"),
		bash("sessiongate session advance --to WORKING"),
		bash("sh test.sh"), // fails: no hello.txt yet
		bash("echo relaxed >> SESSION-PROTOCOL.md"),
		agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "hello.txt"), "file_text": "hello\n"}),
		bash("sh test.sh"),
		agenttest.TextStep("done"),
		agenttest.TextStep("done, really"),
		agenttest.TextStep("done, I insist"),
		agenttest.TextStep("one more"),
	)
	res := agenttest.RunCopilot(t, r.dir, "add hello.txt", stub, r.env, 0)
	reqs := stub.Scripted(t)
	t.Logf("copilot run: %s, exit %d, %d scripted requests", res.Elapsed, res.ExitCode, len(reqs))
	if len(reqs) < 10 {
		t.Fatalf("%d of 10 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the create before the start gates ran (stat: %v)", err)
	}
	if txt := reqs[1].NewText(); !strings.Contains(txt, "GIT_STATE") {
		t.Errorf("the deny reason did not reach the model: %s", txt)
	}
	if got, _ := os.ReadFile(filepath.Join(r.dir, "SESSION-PROTOCOL.md")); string(got) != string(protocolBefore) {
		t.Errorf("the shell changed the protected protocol:\n%s", got)
	}
	if txt := reqs[5].NewText(); !strings.Contains(txt, "protected files") {
		t.Errorf("the protected-file deny did not reach the model: %s", txt)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "hello.txt")); err != nil {
		t.Errorf("create after the start gates did not run: %v", err)
	}
	for i := 8; i <= 9; i++ {
		if txt := reqs[i].NewText(); !strings.Contains(txt, "QA_VALIDATION") || !strings.Contains(txt, "stop blocked") {
			t.Errorf("request %d after stop block %d lacks the reason: %s", i, i-7, txt)
		}
	}
	if len(reqs) > 10 {
		t.Errorf("%d scripted requests: the stop after %d blocks was not let through", len(reqs), maxBlocks)
	}
	show := r.onlySession()
	var exits []string
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) && e["command"] == "sh test.sh" {
			exits = append(exits, fmt.Sprint(e["exit_code"]))
		}
	}
	if strings.Join(exits, ",") != "1,0" {
		t.Errorf("observed sh test.sh exits %v, want 1 then 0: %v", exits, evidence(show))
	}
	vs, _ := show["violations"].([]any)
	if len(vs) != 1 || !strings.Contains(fmt.Sprint(vs[0]), session.CodeEndProtocolSkipped) {
		t.Errorf("violations %v: want one %s after %d blocked stops", vs, session.CodeEndProtocolSkipped, maxBlocks)
	}
}
