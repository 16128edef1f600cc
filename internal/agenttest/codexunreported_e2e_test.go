package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// TestCodexGateNoticesUnreported: round 21, issue 25, with the real Codex
// CLI. (lazy) PostToolUse and Stop dropped from .codex/hooks.json and
// committed before the session: no Bash call reports and no turn end
// checks; before round 21 the session ended with no TOOL_RESULT_MISSING
// (Codex was not checked). Now the commit gate and session end record it.
// (honest) the hooks installed: every Bash call reports, the gates' own
// calls after the gate returns, and no TOOL_RESULT_MISSING. Under load
// this is also the measurement: the log says how many calls reported.
func TestCodexGateNoticesUnreported(t *testing.T) {
	t.Parallel()
	for _, drop := range []bool{true, false} {
		name := "honest"
		if drop {
			name = "post and stop hooks dropped"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "", "--agent", "codex")
			if drop {
				dropHooks(t, r, []string{".codex/hooks.json"}, "PostToolUse", "Stop")
				r.git("commit", "-q", "-am", "drop the post-tool and stop hooks")
			}
			sh := func(cmd string) agenttest.Step {
				return agenttest.ToolStep("exec_command", map[string]any{"cmd": cmd})
			}
			stub := agenttest.StartOpenAIStub(t,
				sh("git status"),
				sh("sessiongate session evidence --phase GIT_STATE --type tool_output --value 'On branch main, nothing to commit'"),
				sh("sessiongate session advance --to WORKING"),
				agenttest.ToolStep("apply_patch", addPatch("hello.txt", "hello")),
				sh("sh test.sh"),
				sh("sessiongate session evidence --phase QA_VALIDATION --type tool_output --value 'PASS: hello.txt exists (1 test)'"),
				sh("git add hello.txt && git commit -q -m 'add hello.txt'"),
				sh("sessiongate session end --summary 'added hello.txt'"),
				agenttest.TextStep("done"), agenttest.TextStep("done"), agenttest.TextStep("done"),
			)
			res := agenttest.RunCodex(t, r.dir, "add hello.txt", stub, r.env, 0)
			if reqs := stub.Scripted(t); len(reqs) < 9 {
				t.Fatalf("%d of 9 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
			}
			show := r.onlySession()
			sess := show["session"].(map[string]any)
			codes := violationCodes(show)
			judged, reported := judgedReported(t, r, sess["id"].(string), "codex")
			t.Logf("codex %s: state %v; violations %q; %d judged calls, %d reported", res.Elapsed, sess["state"], codes, judged, reported)
			missing := strings.Contains(codes, session.CodeToolResultMissing)
			switch {
			case judged < 6:
				t.Errorf("%d Codex Bash calls judged, want 7: the pre-tool hook kept no record", judged)
			case drop != missing:
				t.Errorf("violations %q: %s recorded %v, want %v (%d of %d judged calls reported)", codes, session.CodeToolResultMissing, missing, drop, reported, judged)
			case !drop && sess["state"] != string(session.StateComplete):
				t.Errorf("honest run ended %v, want %s", sess["state"], session.StateComplete)
			}
		})
	}
}
