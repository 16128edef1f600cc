package agenttest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// TestGeminiGateNoticesUnreported: round 21, issue 25, with the real
// Gemini CLI. (lazy) AfterTool and AfterAgent dropped from
// .gemini/settings.json and committed before the session: no shell call
// reports and no turn end checks; before round 21 the session ended with
// no TOOL_RESULT_MISSING (Gemini was not checked). Now the commit gate and
// session end record it. (honest) the hooks installed: every shell call's
// AfterTool pairs with its BeforeTool (the same line run twice included),
// and no TOOL_RESULT_MISSING. Under load this is also the measurement.
func TestGeminiGateNoticesUnreported(t *testing.T) {
	t.Parallel()
	for _, drop := range []bool{true, false} {
		name := "honest"
		if drop {
			name = "post and stop hooks dropped"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "", "--agent", "gemini")
			if drop {
				dropHooks(t, r, []string{".gemini/settings.json"}, "AfterTool", "AfterAgent")
				r.git("commit", "-q", "-am", "drop the post-tool and stop hooks")
			}
			sh := func(cmd string) agenttest.Turn {
				return agenttest.Use("run_shell_command", map[string]any{"command": cmd})
			}
			srv := agenttest.NewGeminiServer(t,
				sh("git status"),
				sh("sessiongate session evidence --phase GIT_STATE --type tool_output --value 'On branch main, nothing to commit'"),
				sh("sessiongate session advance --to WORKING"),
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				sh("sh test.sh"),
				sh("sh test.sh"),
				sh("sessiongate session evidence --phase QA_VALIDATION --type tool_output --value 'PASS: hello.txt exists (1 test)'"),
				sh("git add hello.txt && git commit -q -m 'add hello.txt'"),
				sh("sessiongate session end --summary 'added hello.txt'"),
				agenttest.Say("done"), agenttest.Say("done"), agenttest.Say("done"),
			)
			res := agenttest.RunGemini(t, r.dir, "add hello.txt", agenttest.GeminiOptions{Server: srv, Env: r.env})
			if srv.Used() < 10 {
				t.Fatalf("%d of 10 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
			}
			show := r.onlySession()
			sess := show["session"].(map[string]any)
			codes := violationCodes(show)
			judged, reported := judgedReported(t, r, sess["id"].(string), "gemini")
			t.Logf("gemini %s: state %v; violations %q; %d judged calls, %d reported", res.Elapsed, sess["state"], codes, judged, reported)
			missing := strings.Contains(codes, session.CodeToolResultMissing)
			switch {
			case judged < 8:
				t.Errorf("%d Gemini shell calls judged, want 8: the pre-tool hook kept no record", judged)
			case drop != missing:
				t.Errorf("violations %q: %s recorded %v, want %v (%d of %d judged calls reported)", codes, session.CodeToolResultMissing, missing, drop, reported, judged)
			case !drop && sess["state"] != string(session.StateComplete):
				t.Errorf("honest run ended %v, want %s", sess["state"], session.StateComplete)
			}
		})
	}
}
