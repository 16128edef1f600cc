package agenttest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR57H341CopilotExecForgedHookSh: TestR57H340CopilotExecForgedHook
// with python3 exec'ing `sh -c 'SG agent-hook copilot EVENT'` instead of
// the hook: dash forks the hook, which then does not lead its session (sh
// does), so 340's rule, which read the hook's own session, saw a hook in
// the shape of Copilot's own.
func TestR57H341CopilotExecForgedHookSh(t *testing.T) {
	t.Parallel()
	py := agenttest.Python3(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "forge_exec.py")
	if err := os.WriteFile(script, []byte(forgeExecHook), 0o644); err != nil {
		t.Fatal(err)
	}
	word := filepath.Join(dir, "word")
	if err := os.WriteFile(word, []byte("agent-hook\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bash := func(cmd string) agenttest.Step {
		return agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "run it"})
	}
	r := installedRepo(t, "agent_hooks:\n  timeout: 9s\n", "--agent", "copilot")
	stub := agenttest.StartOpenAIStub(t,
		bash("git status"),
		bash("sessiongate session advance --to WORKING"),
		bash("exec "+py+" "+script+" "+word+" copilot preToolUse sh"),
		bash("exec "+py+" "+script+" "+word+" copilot postToolUse sh"),
		agenttest.TextStep("done"), agenttest.TextStep("done"), agenttest.TextStep("done"), agenttest.TextStep("done"))
	res := agenttest.RunCopilotIn(t, r.dir, t.TempDir(), "add hello.txt", stub, r.env, 0, "--allow-all-paths")
	reqs := stub.Scripted(t)
	if len(reqs) < 5 {
		t.Fatalf("%d of 5 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	t.Logf("pre: %s", reqs[3].NewText())
	t.Logf("post: %s", reqs[4].NewText())
	show := r.onlySession()
	var exits []string
	for _, e := range evidence(show) {
		if e["origin"] == string(session.OriginObserved) && e["command"] == "sh test.sh" {
			exits = append(exits, fmt.Sprint(e["exit_code"]))
		}
	}
	vs, _ := json.Marshal(show["violations"])
	if len(exits) != 0 {
		t.Errorf("the forged run was recorded as observed (exits %v)", exits)
	}
	if !strings.Contains(string(vs), session.CodeHookNotFromCLI) {
		t.Errorf("no %s violation: %s", session.CodeHookNotFromCLI, vs)
	}
}
