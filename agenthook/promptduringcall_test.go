package agenthook_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestPromptFromAgentShell: round 21, issue 25. A new prompt settles the
// calls still pending as interrupted (Claude Code sends no post for an
// interrupted call). A lazy agent whose post-tool hook was dropped ran
// `sessiongate hook claude UserPromptSubmit` from its own shell to settle
// its unreported calls and then ended clean. Now the call the prompt came
// from reports after the prompt (PROMPT_DURING_CALL), and a gate run in
// the same call owes the calls that prompt settled (TOOL_RESULT_MISSING).
// Honest twins: a real interrupt, a new prompt, then a gate from a
// terminal, a text-only turn or the agent's next call.
func TestPromptFromAgentShell(t *testing.T) {
	type step struct {
		agent, event, tool string
		input              func(root string) map[string]any
	}
	cmd := func(c string) func(string) map[string]any {
		return func(string) map[string]any { return map[string]any{"command": c, "description": "run"} }
	}
	write := func(root string) map[string]any {
		return map[string]any{"file_path": filepath.Join(root, "notes.md"), "content": "x\n"}
	}
	const (
		fake       = "sessiongate hook claude UserPromptSubmit < p.json"
		fakeEnd    = "sessiongate hook claude UserPromptSubmit < p.json; sessiongate session end --summary done"
		fakeCommit = "sessiongate hook claude UserPromptSubmit < p.json && git commit -qm notes"
	)
	pre := func(tool string, in func(string) map[string]any) step { return step{"claude", "PreToolUse", tool, in} }
	post := func(tool string, in func(string) map[string]any) step { return step{"claude", "PostToolUse", tool, in} }
	prompt := step{"claude", "UserPromptSubmit", "", nil}
	stop := step{"claude", "Stop", "", nil}
	cases := []struct {
		name  string
		steps []step
		gate  string // "end", "commit" or "" (none)
		after []step
		want  []string
	}{
		// Lazy: the write never reported; the prompt came from a call.
		{"fake prompt in a call, then Stop", []step{pre("Write", write), pre("Bash", cmd(fake)), prompt, post("Bash", cmd(fake)), stop}, "", nil,
			[]string{session.CodePromptDuringCall}},
		{"fake prompt in a call, then end from the next", []step{pre("Write", write), pre("Bash", cmd(fake)), prompt, post("Bash", cmd(fake)), pre("Bash", cmd("sessiongate session end"))}, "end", nil,
			[]string{session.CodePromptDuringCall}},
		{"fake prompt and end in one call", []step{pre("Write", write), pre("Bash", cmd(fakeEnd)), prompt}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"fake prompt and commit in one call", []step{pre("Write", write), pre("Bash", cmd(fakeCommit)), prompt}, "commit",
			[]step{post("Bash", cmd(fakeCommit)), stop}, []string{session.CodePromptDuringCall, session.CodeToolResultMissing}},
		// Honest twins.
		{"interrupted bash, prompt, gate from a terminal", []step{pre("Write", write), post("Write", write), pre("Bash", cmd("sh test.sh")), prompt}, "end", nil, nil},
		{"interrupted write, prompt, text turn, gate from a terminal", []step{pre("Write", write), prompt, stop}, "end", nil, nil},
		{"interrupted bash, prompt, next call ends", []step{pre("Bash", cmd("sh test.sh")), prompt, pre("Write", write), post("Write", write), pre("Bash", cmd("sessiongate session end"))}, "end",
			[]step{post("Bash", cmd("sessiongate session end")), stop}, nil},
		{"interrupted bash, prompt, commit in the next call", []step{pre("Bash", cmd("sh test.sh")), prompt, pre("Bash", cmd("git commit -qm notes"))}, "commit",
			[]step{post("Bash", cmd("git commit -qm notes")), stop}, nil},
		{"reported calls, prompt, Stop", []step{pre("Bash", cmd("sh test.sh")), post("Bash", cmd("sh test.sh")), stop, prompt, pre("Write", write), post("Write", write), stop}, "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0021"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			run := func(steps []step) {
				for _, st := range steps {
					gateStep(t, r, sid, st.agent, st.event, st.tool, st.input)
				}
			}
			run(c.steps)
			// A gate inside the agent's call sees its CLI's marker; one
			// from a person's terminal does not.
			var gateEnv []string
			if !strings.Contains(c.name, "terminal") {
				gateEnv = []string{"CLAUDECODE=1"}
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
