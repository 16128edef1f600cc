package agenttest_test

import (
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Honest end-to-end runs of the real Codex CLI and Copilot CLI: check git,
// advance, write, test, commit, end. Each session must end COMPLETE with
// zero violations and zero FAIL gates (requireCleanSession), as the Claude
// Code and Gemini CLI ones do: a false BYPASS recorded on honest work (as
// Gemini CLI's hooks-off shell once caused) cannot come back silently.
func TestCodexAgentHooksCompliant(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "codex")
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
		agenttest.ToolStep("apply_patch", addPatch("hello.txt", "hello")),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session end --summary 'added hello.txt'"}),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCodex(t, r.dir, "add hello.txt", stub, r.env, 0)
	reqs := stub.Scripted(t)
	t.Logf("codex run: %s, exit %d, %d scripted requests", res.Elapsed, res.ExitCode, len(reqs))
	if len(reqs) < 7 {
		t.Fatalf("%d of 7 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	show := r.onlySession()
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	requireCleanSession(t, show)
}

func TestCopilotAgentHooksCompliant(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "copilot")
	bash := func(cmd string) agenttest.Step {
		return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run " + cmd})
	}
	stub := agenttest.StartOpenAIStub(t,
		bash("git status"),
		bash("sessiongate session advance --to WORKING"),
		agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "hello.txt"), "file_text": "hello\n"}),
		bash("sh test.sh"),
		bash("git add hello.txt && git commit -q -m 'add hello.txt'"),
		bash("sessiongate session end --summary 'added hello.txt'"),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCopilot(t, r.dir, "add hello.txt", stub, r.env, 0)
	reqs := stub.Scripted(t)
	t.Logf("copilot run: %s, exit %d, %d scripted requests", res.Elapsed, res.ExitCode, len(reqs))
	if len(reqs) < 7 {
		t.Fatalf("%d of 7 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	show := r.onlySession()
	if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
		t.Errorf("state %v, want COMPLETE", st)
	}
	requireCleanSession(t, show)
}
