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
