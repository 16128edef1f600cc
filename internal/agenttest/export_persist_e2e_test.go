package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// Round 27 (c7), issue 25 item 5: a skip variable exported in one shell
// call and a test run in the next would run the tests with a variable no
// judged line shows (`export PYTEST_ADDOPTS='-k nothing'`, then
// `python3 -m pytest -q`). Whether that can happen depends on the CLI:
// does its shell keep an `export` between calls? Measured here with the
// real CLIs (no sessiongate: only the shells), and written down in
// docs/security.md. Each probe also prints CLAUDE_ENV_FILE, the file
// Claude Code's hooks may write variables into for later calls.
const exportProbe = `echo "probe=[${SG_PROBE_27-unset}] envfile=[${CLAUDE_ENV_FILE-unset}]"`

func probeSeen(t *testing.T, texts []string) string {
	t.Helper()
	for _, s := range texts {
		if i := strings.Index(s, "probe=["); i >= 0 {
			line := s[i:]
			if j := strings.IndexAny(line, "\n\"\\"); j >= 0 {
				line = line[:j]
			}
			return line
		}
	}
	t.Fatalf("the probe's output reached no model request:\n%s", strings.Join(texts, "\n---\n"))
	return ""
}

// TestCodexExportAcrossCalls27: Codex runs each exec_command in a new
// shell; an export does not reach the next call.
func TestCodexExportAcrossCalls27(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "export SG_PROBE_27=kept"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": exportProbe}),
		agenttest.TextStep("done"))
	agenttest.RunCodex(t, dir, "probe the shell", stub, nil, 0)
	var texts []string
	for _, q := range stub.Requests(t) {
		texts = append(texts, q.NewText())
	}
	got := probeSeen(t, texts)
	t.Logf("codex: %s", got)
	if !strings.Contains(got, "probe=[unset]") {
		t.Errorf("codex kept an export between calls: %s", got)
	}
}

// TestClaudeExportAcrossCalls27: Claude Code's Bash tool keeps the
// working folder between calls but not an export (each call starts from
// a snapshot of the login shell taken at the start).
func TestClaudeExportAcrossCalls27(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "export SG_PROBE_27=kept"}),
		agenttest.Use("Bash", map[string]any{"command": exportProbe}),
		agenttest.Say("done"))
	agenttest.RunClaude(t, dir, "probe the shell", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Bash"}})
	var texts []string
	for _, q := range srv.Conversation() {
		texts = append(texts, q.NewText())
	}
	got := probeSeen(t, texts)
	t.Logf("claude: %s", got)
	if !strings.Contains(got, "probe=[unset]") {
		t.Errorf("claude kept an export between calls: %s", got)
	}
}

// TestCopilotExportAcrossCalls27: Copilot CLI 1.0.102's bash tool (sync
// mode, as its model calls it by default) did not keep an export between
// calls either, measured here in -p mode, though round 21 took its shell
// to live on (agenthook/earliervars.go stays: not measured here, a shell
// started in async mode, which later lines reach through write_bash).
func TestCopilotExportAcrossCalls27(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("bash", map[string]any{"command": "export SG_PROBE_27=kept", "description": "set"}),
		agenttest.ToolStep("bash", map[string]any{"command": exportProbe, "description": "probe"}),
		agenttest.TextStep("done"))
	agenttest.RunCopilot(t, dir, "probe the shell", stub, nil, 0)
	var texts []string
	for _, q := range stub.Requests(t) {
		texts = append(texts, q.NewText())
	}
	got := probeSeen(t, texts)
	t.Logf("copilot: %s", got)
	if !strings.Contains(got, "probe=[unset]") {
		t.Errorf("copilot kept an export between calls: %s", got)
	}
}
