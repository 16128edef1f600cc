package agenttest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR57H341CopilotExecForgedHookSh: TestR57H340CopilotExecForgedHook
// with python3 exec'ing `sh -c 'SG agent-hook copilot EVENT'` instead of
// the hook: dash forks the hook, which then does not lead its session (sh
// does), so 340's rule, which read the hook's own session, saw a hook in
// the shape of Copilot's own.
func TestR57H341CopilotExecForgedHookSh(t *testing.T) {
	t.Parallel()
	py, script, word := forgeFiles(t, "forge_exec.py", forgeExecHook)
	r, reqs := copilotForge(t,
		"exec "+py+" "+script+" "+word+" copilot preToolUse sh",
		"exec "+py+" "+script+" "+word+" copilot postToolUse sh")
	t.Logf("pre: %s", reqs[3].NewText())
	t.Logf("post: %s", reqs[4].NewText())
	show := r.onlySession()
	exits := observedExits(show, "sh test.sh")
	vs, _ := json.Marshal(show["violations"])
	if len(exits) != 0 {
		t.Errorf("the forged run was recorded as observed (exits %v)", exits)
	}
	if !strings.Contains(string(vs), session.CodeHookNotFromCLI) {
		t.Errorf("no %s violation: %s", session.CodeHookNotFromCLI, vs)
	}
}
