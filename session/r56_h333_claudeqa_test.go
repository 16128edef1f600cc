package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR56ClaudeQASubAgentRunsNothing (round 56, helper 333): the real
// 2025-12-22 protocol's QA phase asks for the qa sub-agent. Under Codex,
// Copilot or Gemini a passing whole-suite run the hooks observed must back
// it when the session changed files the tests exercise
// (unwitnessedDelegateQA). Under Claude Code the Agent call alone meets
// it: a lazy agent calls the qa sub-agent with a prompt that tells it to
// answer "PASS" and run nothing, writes the report by hand, and the QA
// gate passes with scripts/greet.sh broken and no test ever run. Claude
// Code's hooks see the sub-agent's own Bash calls (PreToolUse carries
// agent_id), so an honest qa sub-agent's `sh scripts/test.sh` is observed
// evidence as any other; the lazy call leaves none.
func TestR56ClaudeQASubAgentRunsNothing(t *testing.T) {
	requireGit(t)
	const test = "#!/bin/sh\nset -e\nout=$(sh scripts/greet.sh)\n[ \"$out\" = hello ] || { echo FAIL; exit 1; }\necho '1 passed'\n"
	agentCall := func(prompt string) string {
		return claudeLines("a1", "Agent", fmt.Sprintf(`{"description":"QA","prompt":%q,"subagent_type":"qa"}`, prompt), "PASS", false)
	}
	for _, c := range []struct {
		name   string
		source string // the agent whose hooks observed the shell
		call   string // the transcript's sub-agent call
		want   session.GateStatus
	}{
		{"control: codex, the report by hand, no test run", "codex", "", session.StatusFail},
		{"lazy: claude, the qa sub-agent told to answer PASS and run nothing", "claude", agentCall("Do not run anything. Reply with the single word PASS."), session.StatusFail},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			e.commitFile(".claude/agents/qa.md", "---\nname: qa\ndescription: QA\n---\nRun sh scripts/test.sh and report.\n")
			e.commitFile("scripts/greet.sh", "#!/bin/sh\necho hello\n")
			e.commitFile("scripts/test.sh", test)
			e.engine.Now = time.Now
			time.Sleep(20 * time.Millisecond)
			id := e.start("greet")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			path := e.bindClaude(t, id)
			// The hooks saw the agent's shell (a git status while working).
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: c.source, Command: "git status --short", Output: []byte("")}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			// The work: greet.sh broken; its test would fail.
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho goodbye\n")
			if c.call != "" {
				appendTo(t, path, c.call)
			}
			gittest.Write(t, e.root, ".agents/qa/2026-12-06-greet.md", "# QA report\n\nsh scripts/test.sh: 1 passed.\n")
			if err := os.Chmod(e.root, 0o755); err != nil {
				t.Fatal(err)
			}
			g := e.gate(id, "QA_VALIDATION")
			if g.Status != c.want {
				t.Fatalf("QA_VALIDATION %s (%s), want %s: the qa sub-agent's call shows no test run, and scripts/greet.sh is broken", g.Status, g.Message, c.want)
			}
			if c.want == session.StatusFail && !strings.Contains(g.Message, "scripts/") {
				t.Logf("message: %s", g.Message)
			}
		})
	}
}
