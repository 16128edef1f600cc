package agenthook_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestGeminiUnreportedCalls: round 21, issue 25. Gemini CLI's AfterTool
// carries no call id; its run_shell_command pairs with BeforeTool by
// session and command line (identical lines by count, in order). A shell
// call BeforeTool allowed with no AfterTool (the hook dropped from
// .gemini/settings.json) is a TOOL_RESULT_MISSING at AfterAgent and at the
// gates, the gate's own call excused. Honest twins: calls reported (the
// same line twice), write_file (no AfterTool installed), an interrupted
// call followed by a new prompt, a blocked stop's retry prompt.
func TestGeminiUnreportedCalls(t *testing.T) {
	type step struct{ event, cmd string }
	const endCmd = "sessiongate session end --summary done"
	pre := func(c string) step { return step{"BeforeTool", c} }
	post := func(c string) step { return step{"AfterTool", c} }
	prompt, stop, write := step{"BeforeAgent", ""}, step{"AfterAgent", ""}, step{"BeforeTool", "write"}
	cases := []struct {
		name  string
		steps []step
		gate  string
		after []step
		want  []string
	}{
		// Lazy: AfterTool dropped.
		{"shell unreported, AfterAgent", []step{pre("sh test.sh"), stop}, "", nil, []string{session.CodeToolResultMissing}},
		{"shell unreported, end", []step{pre("sh test.sh"), pre(endCmd)}, "end", nil, []string{session.CodeToolResultMissing}},
		{"shell unreported, commit", []step{pre("sh test.sh"), pre("git commit -qm notes")}, "commit", nil, []string{session.CodeToolResultMissing}},
		{"shell pending, gate from a terminal", []step{pre("sh test.sh")}, "end", nil, []string{session.CodeToolResultMissing}},
		{"same line twice, once reported, AfterAgent", []step{pre("sh test.sh"), post("sh test.sh"), pre("sh test.sh"), stop}, "", nil, []string{session.CodeToolResultMissing}},
		// Honest twins.
		{"shell reported, AfterAgent", []step{pre("sh test.sh"), post("sh test.sh"), stop}, "", nil, nil},
		{"same line twice, reported, AfterAgent", []step{pre("sh test.sh"), post("sh test.sh"), pre("sh test.sh"), post("sh test.sh"), stop}, "", nil, nil},
		{"reported, end, its post, AfterAgent", []step{pre("sh test.sh"), post("sh test.sh"), pre(endCmd)}, "end", []step{post(endCmd), stop}, nil},
		{"write_file (no AfterTool installed), AfterAgent", []step{write, stop}, "", nil, nil},
		{"interrupted, prompt, AfterAgent", []step{pre("sh test.sh"), prompt, pre("true"), post("true"), stop}, "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "db5c0dd3-cd02-48ea-a9e2-f3eacd9de221"
			load := func(name string) map[string]any {
				return with(golden(t, r, "gemini", name, sid), "transcript_path", "")
			}
			r.hook("gemini", "SessionStart", load("SessionStart"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			run := func(steps []step) {
				for _, st := range steps {
					var p map[string]any
					switch {
					case st.cmd == "write":
						p = with(load("BeforeTool-write_file"), "tool_input", map[string]any{"file_path": filepath.Join(r.root, "notes.md"), "content": "x\n"})
					case st.cmd != "":
						p = with(load(st.event+"-run_shell_command"), "tool_input", map[string]any{"command": st.cmd})
					case st.event == "BeforeAgent":
						p = with(load(st.event), "prompt", "now the other thing")
					default:
						p = load(st.event)
					}
					out, _ := r.hook("gemini", st.event, p)
					if pathStr(out, "decision") == "deny" && st.event == "BeforeTool" {
						t.Fatalf("%s %s denied: %v", st.event, st.cmd, out)
					}
				}
			}
			run(c.steps)
			// A gate inside the agent's call sees its CLI's marker; one
			// from a person's terminal does not.
			var gateEnv []string
			if !strings.Contains(c.name, "terminal") {
				gateEnv = []string{"GEMINI_CLI=1"}
			}
			switch c.gate {
			case "end":
				writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				r.git("add", "notes.md")
				r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
				r.run(r.root, nil, gateEnv, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
			case "commit":
				writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				r.git("add", "notes.md")
				r.run(r.root, nil, gateEnv, binary, "hook", "pre-commit")
			}
			run(c.after)
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool {
				return c != session.CodeToolResultMissing && c != session.CodePromptDuringCall
			})
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}
