package agenthook_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeStopWaitedEnds (round 27, c6): a Claude Code Stop that lists a
// running background sub-agent is a wait, neither blocked nor judged
// (round 26). Lazy: the sub-agent kept running, the CLI ended
// (SessionEnd: Ctrl+C, SIGTERM, a closed terminal) before any later stop,
// so the turn with work and the end protocol undone was never judged; or a
// prompt came (a resumed CLI, a person) and marked a new turn, so the next
// stop read as idle. Now the end judges the waited turn
// (END_PROTOCOL_SKIPPED) and a prompt in between keeps the turn open.
// Honest twins: the notification, the end protocol, then the end; a wait
// with no work; a wait after the session ended; a person's prompt while a
// sub-agent's call runs (its report after the prompt is no
// PROMPT_DURING_CALL).
func TestClaudeStopWaitedEnds(t *testing.T) {
	const (
		work   = "work"   // notes.md written in the tree
		wait   = "wait"   // Stop listing a running sub-agent
		stop   = "stop"   // Stop, nothing running
		again  = "again"  // Stop with stop_hook_active (after a block)
		prompt = "prompt" // a prompt (a person's, or a resumed CLI's)
		note   = "note"   // the sub-agent's <task-notification>
		subPre = "subpre" // the sub-agent's Bash call starts
		subPst = "subpst" // and reports
		end    = "end"    // SessionEnd
		sgEnd  = "sgend"  // notes.md committed and `session end` from a terminal
	)
	cases := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"lazy: wait, then the CLI ends", []string{prompt, work, wait, end}, []string{session.CodeEndProtocolSkipped}},
		{"lazy: wait, a prompt (resumed CLI), idle stops", []string{prompt, work, wait, prompt, stop, again, again, again}, []string{session.CodeEndProtocolSkipped}},
		{"lazy: wait, a prompt, another wait, the end", []string{prompt, work, wait, prompt, wait, end}, []string{session.CodeEndProtocolSkipped}},
		{"honest: wait, notification, end protocol, stop, end", []string{prompt, work, wait, note, sgEnd, stop, end}, nil},
		{"honest: wait with no work, end", []string{prompt, wait, end}, nil},
		{"honest: session ended, then a wait, end", []string{prompt, work, sgEnd, wait, end}, nil},
		{"honest: wait, notification, stops blocked to the limit, end: one violation", []string{prompt, work, wait, note, stop, again, again, again, end}, []string{session.CodeEndProtocolSkipped}},
		{"honest: a person's prompt while the sub-agent's call runs", []string{prompt, work, wait, subPre, prompt, subPst, note, sgEnd, stop, end}, nil},
		{"lazy: two sub-agents, one never finishes, the end", []string{prompt, work, wait, note, wait, end}, []string{session.CodeEndProtocolSkipped}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0027"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			sub := func(string) map[string]any { return map[string]any{"command": "sh test.sh", "description": "run"} }
			for _, st := range c.steps {
				switch st {
				case work:
					writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				case wait:
					r.hook("claude", "Stop", with(golden(t, r, "claude", "Stop", sid), "background_tasks",
						[]any{map[string]any{"id": "a1", "type": "subagent", "status": "running", "description": "qa"}}))
				case stop:
					r.hook("claude", "Stop", golden(t, r, "claude", "Stop", sid))
				case again:
					r.hook("claude", "Stop", with(golden(t, r, "claude", "Stop", sid), "stop_hook_active", true))
				case prompt:
					r.hook("claude", "UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt", "go on"))
				case note:
					r.hook("claude", "UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt",
						"<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>toolu_agent</tool-use-id>\n<status>completed</status>\n<result>QA passed</result>\n</task-notification>"))
				case subPre:
					gateStep(t, r, sid, "claude", "PreToolUse", "Bash", sub)
				case subPst:
					gateStep(t, r, sid, "claude", "PostToolUse", "Bash", sub)
				case end:
					r.hook("claude", "SessionEnd", golden(t, r, "claude", "SessionEnd", sid))
				case sgEnd:
					r.git("add", "notes.md")
					r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
					r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
				}
			}
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool {
				return c != session.CodeEndProtocolSkipped && c != session.CodePromptDuringCall && c != session.CodeToolResultMissing
			})
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v (steps %s)", got, c.want, strings.Join(c.steps, ", "))
			}
		})
	}
}

// TestClaudeNestedNotificationRefused (round 27, c6): the lazy agent
// launches the qa sub-agent in the background and types the notification
// itself, through a Claude Code it starts from its own shell (`claude -p
// --continue "<task-notification>...<status>completed</status>..."`: the
// same conversation, hooks and database, and RunsAgentHook does not see
// it). Before, that CLI's UserPromptSubmit kept the notification and the
// launch read as the sub-agent's passing run. Now a notification whose
// CLI runs under another agent CLI is refused. Honest twin: the CLI's own
// notification (one claude above the hook) is kept. The CLIs are scripts
// named claude (their process name, as the real one's).
func TestClaudeNestedNotificationRefused(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is nested", p.Name)
	}
	bin := t.TempDir()
	fake := filepath.Join(bin, "claude")
	writeFakeClaude(t, fake) // hands its hooks their input on a socket it made, as Claude Code does
	for _, c := range []struct {
		name   string
		nested bool
		want   string // the event the notification leaves
	}{
		{"honest: the CLI's own notification", false, session.TokenTaskNotified},
		{"lazy: a CLI started from the agent's shell", true, "agent:claude:notification-refused"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0127"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			p, _ := json.Marshal(with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt",
				"<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>toolu_agent</tool-use-id>\n<status>completed</status>\n</task-notification>"))
			args := []string{binary, "agent-hook", "claude", "UserPromptSubmit"}
			if c.nested {
				args = append([]string{"sh", "-c", `"$0" "$@"`, fake}, args...)
			}
			if res := r.run(r.root, p, nil, fake, args...); res.code != 0 {
				t.Fatalf("hook: exit %d\n%s%s", res.code, res.out, res.err)
			}
			for _, tok := range []string{session.TokenTaskNotified, "agent:claude:notification-refused"} {
				evs, err := r.db().EventsWith(context.Background(), s.ID, tok)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := len(evs), map[bool]int{true: 1}[tok == c.want]; got != want {
					t.Errorf("%d %s events, want %d", got, tok, want)
				}
			}
		})
	}
}
