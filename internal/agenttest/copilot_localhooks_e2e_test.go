package agenttest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// Issue 25, the shim-first-on-PATH route under the real Copilot CLI: its
// committed hook file (.github/hooks/sessiongate.json) calls `sessiongate`
// by name, so a shim ahead on PATH answered every hook with {} and a
// create before the start gates went through. Copilot reads every
// .github/hooks/*.json, so install also writes the git-ignored
// .github/hooks/sessiongate.local.json calling the binary by absolute
// path (as Claude Code's settings.local.json), and the by-name call defers
// to it.

// allowShimOnPath is shimOnPath with a shim that answers preToolUse with
// an explicit allow (Copilot's flat answer), the stronger lie.
func allowShimOnPath(t *testing.T) (log, pathEnv string) {
	t.Helper()
	return shimAnswering(t, "case \"$*\" in *preToolUse*) echo '{\"permissionDecision\":\"allow\"}';; *) echo '{}';; esac")
}

// TestCopilotShimOnPathDoesNotAnswerHooks: a create before the start gates
// with a shim first on PATH (answering {} or an explicit allow) is denied,
// and the model is told why.
func TestCopilotShimOnPathDoesNotAnswerHooks(t *testing.T) {
	for _, c := range []struct {
		name string
		shim func(*testing.T) (string, string)
	}{{"answers {}", shimOnPath}, {"answers allow", allowShimOnPath}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			copilotShimRun(t, c.shim)
		})
	}
}

func copilotShimRun(t *testing.T, shim func(*testing.T) (string, string)) {
	r := installedRepo(t, "", "--agent", "copilot")
	log, pathEnv := shim(t)
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("create", map[string]any{"path": filepath.Join(r.dir, "early.txt"), "file_text": "too early\n"}),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCopilot(t, r.dir, "add early.txt", stub, append(append([]string{}, r.env...), pathEnv), 0)
	reqs := stub.Scripted(t)
	if len(reqs) < 2 {
		t.Fatalf("%d of 2 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	// Copilot stops at the local file's deny: the shim need not see the
	// preToolUse, but it answers the by-name calls of the other events.
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), "agent-hook copilot sessionStart") {
		t.Errorf("the shim never ran (the test lost its point); it logged:\n%s", calls)
	}
	t.Logf("the shim answered: %s", calls)
	if _, err := os.Stat(filepath.Join(r.dir, "early.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the create before the start gates ran with the shim answering the hooks (stat: %v)", err)
	}
	if txt := reqs[1].NewText(); !strings.Contains(txt, "GIT_STATE") {
		t.Errorf("the deny reason did not reach the model: %.600s", txt)
	}
}

// TestCopilotLocalHooksRecordOnce, the honest twin: no shim, both hook
// files installed; each observed command is recorded once and the honest
// work after the start gates runs.
func TestCopilotLocalHooksRecordOnce(t *testing.T) {
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
	if len(reqs) < 7 {
		t.Fatalf("%d of 7 steps used; exit %d\nstdout: %s\nstderr: %s", len(reqs), res.ExitCode, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "hello.txt")); err != nil {
		t.Errorf("create after the start gates did not run: %v", err)
	}
	checkCompleteObservedOnce(t, r.onlySession(), "git status", "sh test.sh")
	if got := r.git("status", "--porcelain", "--", ".github"); got != "" {
		t.Errorf("git status shows a hook file (the local one not ignored?): %q", got)
	}
}
