package agenttest_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR58H342CodexSandboxedExecForgedHook: TestR57H340CodexExecForgedHook
// with Codex's own sandbox on (read-only, `codex exec`'s default;
// workspace-write, the TUI's in a trusted project). Measured (helper 342,
// Codex 0.171.0): the sandbox runs each tool call under
// codex-linux-sandbox (bubblewrap) in its own PID, user, mount and
// network namespace, with no_new_privs and a seccomp filter; Codex's hooks
// run outside it (no_new_privs 0, no filter). The hook the tool call's
// process exec'd sees no codex above it, and runs confined where the
// conversation's first prompt's hook did not: refused (HOOK_NOT_FROM_CLI,
// agenthook.confinedToolCall), not an observed pass.
func TestR58H342CodexSandboxedExecForgedHook(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"workspace-write", "read-only"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			r, reqs := codexExecForge(t, "--sandbox", mode)
			t.Logf("pre: %.900s\npost: %.900s", reqs[3].NewText(), reqs[4].NewText())
			show := r.onlySession()
			exits := observedExits(show, "sh test.sh")
			vs, _ := json.Marshal(show["violations"])
			t.Logf("observed sh test.sh exits %v; violations %s", exits, vs)
			if slices.Contains(exits, "0") {
				t.Errorf("the forged run was recorded as an observed pass (exits %v)", exits)
			}
			// workspace-write: the sandbox lets the hook write the
			// database (in TMPDIR here), so the refusal is recorded and
			// says why: confined where Codex's hooks are not. read-only:
			// nothing can be recorded from inside the sandbox at all.
			if mode == "workspace-write" && (!strings.Contains(string(vs), session.CodeHookNotFromCLI) || !strings.Contains(string(vs), "no_new_privs")) {
				t.Errorf("no %s violation naming the sandbox: %s", session.CodeHookNotFromCLI, vs)
			}
			// Codex's own hooks (git status, the advance) are not refused:
			// they run unconfined (measured).
			if n := strings.Count(string(vs), `"code":"`+session.CodeHookNotFromCLI+`"`); mode == "workspace-write" && n != 2 {
				t.Errorf("%d %s violations, want the 2 forged events': %s", n, session.CodeHookNotFromCLI, vs)
			}
		})
	}
}
