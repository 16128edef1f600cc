package agenttest_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestCodexTTYShellDenied (round 24, c4): Codex's exec_command with
// `tty: true` keeps `sh` running, and the model feeds it lines later with
// write_stdin, for which Codex calls no hook (measured: the opener reached
// PreToolUse as Bash "sh", with no tty field; write_stdin, even under a
// `.*` matcher, reached nothing). So every line sent that way, a write of
// the protocol or a DELETE on the database through `sqlite3 DB`, was
// judged by nobody. The opener is denied now; the honest twin runs its
// script on the line in the same session and is not.
func TestCodexTTYShellDenied(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "codex")
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh", "tty": true, "yield_time_ms": 500}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sqlite3 .git/sessiongate/sessiongate.db", "tty": true, "yield_time_ms": 500}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sh test.sh", "tty": true, "yield_time_ms": 500}),
		// Round 24 review (c8): an editor and a line consumer stay open the
		// same way (allowed before); git log with a tty is an honest read.
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "vi notes.md", "tty": true, "yield_time_ms": 500}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "xargs rm", "tty": true, "yield_time_ms": 500}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git log --oneline -3 | cat", "tty": true, "yield_time_ms": 500}),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCodex(t, r.dir, "look around", stub, r.env, 0)
	reqs := stub.Scripted(t)
	if len(reqs) < 9 {
		t.Fatalf("%d of 9 steps used; exit %d\nstderr: %s", len(reqs), res.ExitCode, res.Stderr)
	}
	const blocked = "blocked by PreToolUse hook"
	for i, want := range map[int]bool{3: true, 4: true, 5: false, 6: true, 7: true, 8: false} {
		got := reqs[i].NewText()
		if strings.Contains(got, blocked) != want {
			t.Errorf("step %d: blocked %v, want %v:\n%.800s", i, !want, want, got)
		}
		if want && !strings.Contains(got, "write_stdin") {
			t.Errorf("step %d: the reason does not say why:\n%.800s", i, got)
		}
	}
	if got := reqs[5].NewText(); !strings.Contains(got, "hello.txt missing") {
		t.Errorf("the honest script run did not run:\n%.800s", got)
	}
}

// TestCodexLongRunNotMissing (round 24, c4): an honest test run longer
// than the model's yield time (`exec_command` with `yield_time_ms`):
// Codex answers "Process running with session ID N" and sends no
// PostToolUse, then or later, so the turn's end recorded a MEDIUM
// TOOL_RESULT_MISSING on honest work. The rollout (sealed) shows the call
// left running: it owes no report now, and it is no evidence.
func TestCodexLongRunNotMissing(t *testing.T) {
	t.Parallel()
	r := installedRepo(t, "", "--agent", "codex")
	stub := agenttest.StartOpenAIStub(t,
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "git status"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sessiongate session advance --to WORKING"}),
		agenttest.ToolStep("exec_command", map[string]any{"cmd": "sleep 4; sh test.sh", "yield_time_ms": 500}),
		agenttest.TextStep("done"),
	)
	res := agenttest.RunCodex(t, r.dir, "run the tests", stub, r.env, 0)
	reqs := stub.Scripted(t)
	if len(reqs) < 4 {
		t.Fatalf("%d of 4 steps used; exit %d\nstderr: %s", len(reqs), res.ExitCode, res.Stderr)
	}
	if got := reqs[3].NewText(); !strings.Contains(got, "Process running with session ID") {
		t.Fatalf("the run did not outlast its yield:\n%.600s", got)
	}
	show := r.onlySession()
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("honest long run recorded %d violation(s): %v", len(v), v)
	}
	for _, e := range evidence(show) {
		if e["command"] == "sleep 4; sh test.sh" {
			t.Errorf("the running call was recorded as evidence: %v", e)
		}
	}
}
