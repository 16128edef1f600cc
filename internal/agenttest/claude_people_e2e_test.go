package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestClaudeCommitIsAnAgents: the real Claude Code, in a repository with
// the starter's require_session: true and only the git hooks (no agent
// hooks, so no session), tries to commit: plainly, then with its
// environment cleared (env -i). Both are blocked: the first by the
// CLAUDECODE variable Claude Code sets in its shells, the second by its
// process among git's ancestors. A person's commit in the same repository
// goes through.
func TestClaudeCommitIsAnAgents(t *testing.T) {
	t.Parallel()
	r := newSGRepo(t, "", "")
	r.install()
	before := r.git("rev-list", "--count", "HEAD")
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "env | grep -E '^CLAUDE(CODE|_CODE_ENTRYPOINT)=' | sort"}),
		agenttest.Use("Bash", map[string]any{"command": "git commit --allow-empty -q -m 'the agent commits'"}),
		agenttest.Use("Bash", map[string]any{"command": `env -i PATH="$PATH" git -c user.name=a -c user.email=a@example.invalid commit --allow-empty -q -m 'env -i'`}),
		agenttest.Say("done"),
	)
	res := r.claude("commit", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Bash"}})
	if res.ExitCode != 0 || srv.Used() != 4 {
		t.Fatalf("run: exit %d, %d of 4 turns\nstderr: %s", res.ExitCode, srv.Used(), res.Stderr)
	}
	conv := srv.Conversation()
	if txt := conv[1].NewText(); !strings.Contains(txt, "CLAUDECODE=1") {
		t.Errorf("Claude Code's shell lacks CLAUDECODE=1, which the hooks rely on:\n%s", txt)
	}
	for i, what := range []string{"plain", "env -i"} {
		txt := conv[i+2].NewText()
		if !strings.Contains(txt, "commit blocked (pre-commit hook)") || !strings.Contains(txt, "require_session: true") {
			t.Errorf("%s commit: the model was not told it is blocked for want of a session:\n%s", what, txt)
		}
	}
	if n := r.git("rev-list", "--count", "HEAD"); n != before {
		t.Fatalf("%s commits, want %s: an agent's commit landed", n, before)
	}
	if _, under := ancestry.Agent(ancestry.Chain()); under {
		t.Skip("the test runs under a coding agent: the person's half cannot run")
	}
	r.git("commit", "--allow-empty", "-q", "-m", "a person's commit")
	if n := r.git("rev-list", "--count", "HEAD"); n == before {
		t.Fatal("a person's commit did not land")
	}
}
