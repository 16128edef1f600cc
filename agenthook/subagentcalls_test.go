package agenthook_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeSubagentCallsAtGate (round 28, c3): a gate run while a
// background sub-agent's call is still running. Before, the gate named
// the sub-agent's call TOOL_RESULT_MISSING (a false violation: the real
// CLI's shape, TestClaudeGateWhileSubagentRuns). Now a call whose
// PreToolUse carries agent_id is left to its sub-agent's notification, the
// next judged stop or SessionEnd. Lazy twins: the sub-agent's call never
// reports (post hook dropped) and the sub-agent completes, or the turn's
// stop is judged; a main call without a report at the same gate.
func TestClaudeSubagentCallsAtGate(t *testing.T) {
	const (
		work    = "work"    // notes.md written
		wait    = "wait"    // Stop listing the running sub-agent a1
		subPre  = "subpre"  // sub-agent a1's Bash call judged
		subPst  = "subpst"  // and reported
		mainPre = "mainpre" // a main-agent Bash call judged (never reported)
		gate    = "gate"    // notes.md committed and `session end` from a terminal
		noteOK  = "noteok"  // a1's notification, completed
		noteBad = "notebad" // a1's notification, killed
		stop    = "stop"    // a judged Stop
		end     = "end"     // SessionEnd
	)
	cases := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"honest: gate while the sub-agent's call runs, it reports, notification", []string{work, wait, subPre, gate, subPst, noteOK, stop, end}, nil},
		{"honest: gate while the sub-agent's call runs, the CLI ends (interrupted)", []string{work, wait, subPre, gate, end}, nil},
		{"honest: the sub-agent killed while its call runs", []string{work, wait, subPre, gate, noteBad, stop, end}, nil},
		{"lazy: the sub-agent's call never reports, the sub-agent completes", []string{work, wait, subPre, gate, noteOK, stop, end}, []string{session.CodeToolResultMissing}},
		{"lazy: the sub-agent's call never reports, a judged stop", []string{work, subPre, stop, gate, end}, []string{session.CodeToolResultMissing}},
		{"lazy: a main call never reports beside a running sub-agent's", []string{work, wait, subPre, mainPre, gate, subPst, noteOK, end}, []string{session.CodeToolResultMissing}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0028"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			subIn := map[string]any{"command": "sleep 30; sh test.sh", "description": "run"}
			subCall := func(event string, extra ...any) {
				p := with(golden(t, r, "claude", event+"-Bash", sid), "tool_use_id", "toolu_sub1", "tool_input", subIn, "agent_id", "a1", "agent_type", "general-purpose")
				if event == "PostToolUse" {
					p = with(p, "tool_response", map[string]any{"stdout": "ok\n", "stderr": "", "interrupted": false, "isImage": false})
				}
				if out, _ := r.hook("claude", event, p); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
					t.Fatalf("%s denied: %v", event, out)
				}
			}
			note := func(status string) {
				r.hook("claude", "UserPromptSubmit", with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt",
					"<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>toolu_agent</tool-use-id>\n<status>"+status+"</status>\n<result>QA</result>\n</task-notification>"))
			}
			for _, st := range c.steps {
				switch st {
				case work:
					writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				case wait:
					r.hook("claude", "Stop", with(golden(t, r, "claude", "Stop", sid), "background_tasks",
						[]any{map[string]any{"id": "a1", "type": "subagent", "status": "running", "description": "qa"}}))
				case subPre:
					subCall("PreToolUse")
				case subPst:
					subCall("PostToolUse")
				case mainPre:
					gateStep(t, r, sid, "claude", "PreToolUse", "Bash", func(string) map[string]any { return map[string]any{"command": "git log -1", "description": "log"} })
				case gate:
					r.git("add", "notes.md")
					r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
					r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
				case noteOK:
					note("completed")
				case noteBad:
					note("killed")
				case stop:
					r.hook("claude", "Stop", golden(t, r, "claude", "Stop", sid))
				case end:
					r.hook("claude", "SessionEnd", golden(t, r, "claude", "SessionEnd", sid))
				}
			}
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool {
				return c != session.CodeEndProtocolSkipped && c != session.CodePromptDuringCall && c != session.CodeToolResultMissing
			})
			if !slices.Equal(got, c.want) {
				evs, _ := r.db().ListEvents(context.Background(), s.ID, 0, 0)
				for _, e := range evs {
					if strings.HasPrefix(e.Token, "agent:") || strings.HasPrefix(e.Token, "session") {
						t.Logf("%s %.120s", e.Token, e.Detail)
					}
				}
				t.Errorf("violations %v, want %v (steps %s)", got, c.want, strings.Join(c.steps, ", "))
			}
		})
	}
}
