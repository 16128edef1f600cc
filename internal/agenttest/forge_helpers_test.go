package agenttest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// The forged-hook e2e tests (r57*, r58*) share these: a forging script
// beside the file it reads the hook's name from (so no scan of the line
// or the script sees the word agent-hook), a Copilot conversation that
// runs the agent's lines, and the observed runs it left.

// forgeFiles writes the forging script src as name in a new folder, and
// the word file beside it; it returns python3 and both paths.
func forgeFiles(t *testing.T, name, src string) (py, script, word string) {
	t.Helper()
	py = agenttest.Python3(t)
	dir := t.TempDir()
	script = filepath.Join(dir, name)
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	word = filepath.Join(dir, "word")
	if err := os.WriteFile(word, []byte("agent-hook\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return py, script, word
}

// copilotBash is one call of Copilot CLI's bash tool.
func copilotBash(cmd string) agenttest.Step {
	return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run it"})
}

// copilotForge runs the real Copilot CLI in a repository installed for
// it: git status, the advance to WORKING, then each of lines as a bash
// call. It fails unless every line was run, and returns the repository
// and the model's requests (reqs[3] answers the first of lines).
func copilotForge(t *testing.T, lines ...string) (*sgRepo, []agenttest.StubRequest) {
	t.Helper()
	r := installedRepo(t, "agent_hooks:\n  timeout: 9s\n", "--agent", "copilot")
	steps := []agenttest.Step{copilotBash("git status"), copilotBash("sessiongate session advance --to WORKING")}
	for _, l := range lines {
		steps = append(steps, copilotBash(l))
	}
	for range 4 {
		steps = append(steps, agenttest.TextStep("done"))
	}
	stub := agenttest.StartOpenAIStub(t, steps...)
	res := agenttest.RunCopilotIn(t, r.dir, t.TempDir(), "add hello.txt", stub, r.env, 0, "--allow-all-paths")
	reqs := stub.Scripted(t)
	if want := 3 + len(lines); len(reqs) < want {
		t.Fatalf("%d of %d steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), want, res.ExitCode, res.Stdout, res.Stderr)
	}
	return r, reqs
}

// observedExits are the exit codes of the session's observed runs of
// command.
func observedExits(show map[string]any, command string) []string {
	var exits []string
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) && e["command"] == command {
			exits = append(exits, fmt.Sprint(e["exit_code"]))
		}
	}
	return exits
}

// codexExecForge runs the real Codex CLI (args: `--sandbox MODE`, or none
// for the tests' default, the sandbox off) whose tool calls are `exec
// python3 forge_exec.py WORD codex EVENT`, pre then post: python3 execs
// the hook with a made-up passing `sh test.sh`. It returns the repository
// and the model's requests.
func codexExecForge(t *testing.T, args ...string) (*sgRepo, []agenttest.StubRequest) {
	t.Helper()
	py, script, word := forgeFiles(t, "forge_exec.py", forgeExecHook)
	for name, text := range map[string]string{".dir": "sessions\n", ".env": "CODEX_HOME\n"} {
		if err := os.WriteFile(word+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := installedRepo(t, "", "--agent", "codex")
	sh := func(cmd string) agenttest.Step { return agenttest.ToolStep("exec_command", map[string]any{"cmd": cmd}) }
	stub := agenttest.StartOpenAIStub(t,
		sh("git status"),
		sh("sessiongate session advance --to WORKING"),
		sh("exec "+py+" "+script+" "+word+" codex PreToolUse"),
		sh("exec "+py+" "+script+" "+word+" codex PostToolUse"),
		agenttest.TextStep("done"), agenttest.TextStep("done"), agenttest.TextStep("done"))
	res := agenttest.RunCodexIn(t, r.dir, t.TempDir(), "add hello.txt", stub, r.env, 0, args...)
	reqs := stub.Scripted(t)
	if len(reqs) < 5 {
		t.Fatalf("%d of 5 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	return r, reqs
}
