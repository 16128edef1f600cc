package agenttest_test

import (
	"fmt"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestCopilotAsyncShellNoEvidence (round 24, c4): the real Copilot CLI
// runs a bash call with `mode: "async"` in the background and answers at
// once, "<command started in background with shellId: 2>", resultType
// success; its postToolUse then recorded the failing `sh test.sh` as
// observed QA evidence with exit 0 (the output read later with read_bash
// said exit code 1). Such a run is no evidence now; the honest twin, the
// same command run sync, is recorded with its real status.
func TestCopilotAsyncShellNoEvidence(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "copilot")
	bash := func(cmd string, extra map[string]any) agenttest.Step {
		in := map[string]any{"command": cmd, "description": "run " + cmd}
		for k, v := range extra {
			in[k] = v
		}
		return agenttest.ToolStep("bash", in)
	}
	stub := agenttest.StartOpenAIStub(t,
		bash("git status", nil),
		bash("sessiongate session advance --to WORKING", nil),
		bash("sleep 2; sh test.sh", map[string]any{"mode": "async", "initial_wait": 1}),
		bash("sh test.sh", nil),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCopilot(t, r.dir, "run the tests", stub, r.env, 0)
	if reqs := stub.Scripted(t); len(reqs) < 5 {
		t.Fatalf("%d of 5 steps used; exit %d\nstderr: %s", len(reqs), res.ExitCode, res.Stderr)
	}
	runs := map[string][]string{}
	for _, e := range evidence(r.onlySession()) {
		if c, _ := e["command"].(string); c != "" {
			runs[c] = append(runs[c], fmt.Sprint(e["exit_code"]))
		}
	}
	if got := runs["sleep 2; sh test.sh"]; len(got) != 0 {
		t.Errorf("the async run was recorded as evidence (exit %v): it had not finished, and failed", got)
	}
	if got := runs["sh test.sh"]; len(got) != 1 || got[0] != "1" {
		t.Errorf("the sync run: recorded exits %v, want one exit 1", got)
	}
}
