package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR57H341ClaudeShellPrefixHonest: Claude Code's documented
// CLAUDE_CODE_SHELL_PREFIX (a logging or auditing wrapper every command
// it runs goes through, hooks too) puts the user's wrapper script between
// the hook and claude. The hooks are Claude Code's own: a session whose
// `git status` ran must have it observed, and no HOOK_NOT_FROM_CLI.
func TestR57H341ClaudeShellPrefixHonest(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	dir := t.TempDir()
	logf := filepath.Join(dir, "audit.log")
	logger := filepath.Join(dir, "audit.sh")
	if err := os.WriteFile(logger, []byte("#!/bin/bash\necho \"$*\" >> '"+logf+"'\neval \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Say("done"),
	)
	res := r.claude("look", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Bash"}, Env: []string{"CLAUDE_CODE_SHELL_PREFIX=" + logger}})
	audit, _ := os.ReadFile(logf)
	t.Logf("exit %d; audit log:\n%s", res.ExitCode, audit)
	if !strings.Contains(string(audit), "agent-hook") {
		t.Skip("this Claude Code did not run its hooks through CLAUDE_CODE_SHELL_PREFIX")
	}
	show := r.onlySession()
	vs, _ := json.Marshal(show["violations"])
	if strings.Contains(string(vs), session.CodeHookNotFromCLI) {
		t.Errorf("Claude Code's own hooks refused under CLAUDE_CODE_SHELL_PREFIX: %s", vs)
	}
	if observedRun(show, "git status") == nil {
		t.Errorf("git status not observed")
	}
}
