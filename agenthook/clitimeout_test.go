package agenthook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/agenthook"
	"github.com/sessiongate/sessiongate/hooks"
)

// TestHookAnswersBeforeTheCLIGivesUp: every agent CLI runs a tool call
// whose hook outlives the timeout in its config as if the hook allowed it
// (Claude Code and Codex, and the real Gemini CLI and Copilot CLI in
// internal/agenttest.Test{Gemini,Copilot}HookTimeout). The configs install
// writes give the hook CLITimeout; agent_hooks.timeout (up to 1m) is held
// to MaxTimeout under it. With a 30s setting and the database held locked
// by the agent's background shell, the hook still answers (closed: deny)
// before the CLI's limit; this passed before the cap too (SQLite's busy
// wait of 5 s answers first), the cap bounds the sum of such waits. The
// honest twin, the same line with the database free, is allowed.
func TestHookAnswersBeforeTheCLIGivesUp(t *testing.T) {
	for _, c := range hooks.AgentConfigs {
		if c.TimeoutKey == "" {
			continue
		}
		unit := 1
		if c.TimeoutKey == "timeout" && c.Name == "gemini" {
			unit = 1000 // milliseconds
		}
		if got := c.Timeout / unit; got < int(agenthook.CLITimeout.Seconds()) || agenthook.MaxTimeout >= agenthook.CLITimeout {
			t.Errorf("%s's hook config gives the hook %d s, under agenthook.CLITimeout %s", c.Name, got, agenthook.CLITimeout)
		}
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH: it holds the database locked")
	}
	r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", "claude-cli-timeout"))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	write := with(golden(t, r, "claude", "PreToolUse-Bash", "claude-cli-timeout"), "tool_input",
		map[string]any{"command": "echo hello > hello.txt && sh test.sh"})
	in, _ := json.Marshal(write)
	// The CLI's side: the hook is killed at CLITimeout.
	ask := func() (map[string]any, string) {
		ctx, cancel := context.WithTimeout(context.Background(), agenthook.CLITimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "agent-hook", "claude", "PreToolUse")
		cmd.Dir, cmd.Env, cmd.Stdin = r.root, r.env, bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		var m map[string]any
		if json.Unmarshal(out.Bytes(), &m) != nil {
			return nil, errb.String()
		}
		return m, errb.String()
	}
	if m, stderr := ask(); m == nil || pathStr(m, "hookSpecificOutput", "permissionDecision") == "deny" {
		t.Fatalf("honest Write with the database free: %v\nstderr: %s", m, stderr)
	}
	db := filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db")
	lock := exec.Command(py, "-c", "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(25)", db)
	stdout, err := lock.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lock.Process.Kill(); _ = lock.Wait() })
	buf := make([]byte, 6)
	if _, err := stdout.Read(buf); err != nil || string(buf) != "locked" {
		t.Fatalf("the lock holder did not lock: %q %v", buf, err)
	}
	m, stderr := ask()
	if m == nil {
		t.Fatalf("no answer before the CLI's %s ran out (the CLI would run the Write)\nstderr: %s", agenthook.CLITimeout, stderr)
	}
	if pathStr(m, "hookSpecificOutput", "permissionDecision") != "deny" || !strings.Contains(stderr, "fail mode") {
		t.Errorf("the locked database's answer: %v, want a deny by fail mode closed\nstderr: %s", m, stderr)
	}
}
