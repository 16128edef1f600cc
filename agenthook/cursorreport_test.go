package agenthook_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCursorUnreportedShell: round 22, issue 25. Cursor's shell calls were
// never checked for a report: a beforeShellExecution that sessiongate
// allowed and whose afterShellExecution never came (the after hook dropped
// from .cursor/hooks.json, or its process killed) ended the turn and the
// session clean, while every other agent's call is a TOOL_RESULT_MISSING.
// Cursor's documented shell payloads carry no call id, so the pair is
// named by conversation and command line (identical lines by count), as
// Gemini CLI's. Honest twins: every call reported (with or without the
// preToolUse of Shell Cursor also sends), two identical lines reported
// twice, a call pending at a new prompt (declined or interrupted), the
// gate's own pending call.
func TestCursorUnreportedShell(t *testing.T) {
	const endCmd = "sessiongate session end --summary done"
	type step struct{ event, cmd string }
	before := func(c string) step { return step{"beforeShellExecution", c} }
	after := func(c string) step { return step{"afterShellExecution", c} }
	pre := func(c string) step { return step{"preToolUse", c} }
	prompt, stop := step{"beforeSubmitPrompt", ""}, step{"stop", ""}
	cases := []struct {
		name  string
		steps []step
		gate  bool // session end from the next shell call
		want  []string
	}{
		// Lazy: the after hook never ran.
		{"unreported, stop", []step{before("sh test.sh"), stop}, false, []string{session.CodeToolResultMissing}},
		{"unreported, end from the next call", []step{before("sh test.sh"), before(endCmd)}, true, []string{session.CodeToolResultMissing}},
		{"one of two identical lines unreported, stop", []step{before("sh test.sh"), after("sh test.sh"), before("sh test.sh"), stop}, false, []string{session.CodeToolResultMissing}},
		// Honest twins.
		{"reported, stop", []step{before("sh test.sh"), after("sh test.sh"), stop}, false, nil},
		{"preToolUse and beforeShellExecution, reported, stop", []step{pre("sh test.sh"), before("sh test.sh"), after("sh test.sh"), stop}, false, nil},
		{"two identical lines reported, stop", []step{before("sh test.sh"), after("sh test.sh"), before("sh test.sh"), after("sh test.sh"), stop}, false, nil},
		{"pending at a new prompt, stop", []step{before("sh test.sh"), prompt, stop}, false, nil},
		{"reported, end from the next call", []step{before("sh test.sh"), after("sh test.sh"), before(endCmd)}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			base := map[string]any{"conversation_id": "cursor-conv-22", "generation_id": "gen-1", "workspace_roots": []string{r.root}}
			ev := func(name string, kv ...any) map[string]any {
				return with(base, append([]any{"hook_event_name", name}, kv...)...)
			}
			r.hook("cursor", "sessionStart", ev("sessionStart", "session_id", "cursor-conv-22"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			for _, st := range c.steps {
				var out map[string]any
				switch st.event {
				case "beforeShellExecution":
					out, _ = r.hook("cursor", st.event, ev(st.event, "command", st.cmd, "cwd", r.root))
				case "afterShellExecution":
					out, _ = r.hook("cursor", st.event, ev(st.event, "command", st.cmd, "output", "tests ok\n", "duration", 120))
				case "preToolUse":
					out, _ = r.hook("cursor", st.event, ev(st.event, "tool_name", "Shell", "tool_use_id", "tool_1", "tool_input", map[string]any{"command": st.cmd}))
				case "beforeSubmitPrompt":
					out, _ = r.hook("cursor", st.event, ev(st.event, "prompt", "do the other thing"))
				case "stop":
					out, _ = r.hook("cursor", st.event, ev(st.event, "status", "completed", "loop_count", 0))
				}
				if out["permission"] == "deny" {
					t.Fatalf("%s %q denied: %v", st.event, st.cmd, out)
				}
			}
			if c.gate {
				writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				r.git("add", "notes.md")
				r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
				r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
			}
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool { return c != session.CodeToolResultMissing })
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}
