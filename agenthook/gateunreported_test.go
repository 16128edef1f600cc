package agenthook_test

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestUnreportedAtGates: round 20, issue 25. A judged call that never
// reported is noticed at the gates (session advance, session end, the
// commit gate), not only at Stop: a lazy agent that dropped the post-tool
// hooks and ends the session from its shell before any Stop no longer
// ends clean. The gate runs inside a shell call of its own whose post
// only comes after the gate returns; that call (the newest judged one,
// still pending) is excused. Copilot's calls are checked the same way and
// at its agentStop. Honest twins: every call reported, an interrupted
// call followed by a new prompt, the gate's own call reported after it.
func TestUnreportedAtGates(t *testing.T) {
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
	create := func(root string) map[string]any {
		return map[string]any{"path": filepath.Join(root, "notes.md"), "file_text": "x\n"}
	}
	const (
		endCmd    = "sessiongate session end --summary done"
		advCmd    = "sessiongate session advance"
		commitCmd = "git commit -qm notes"
	)
	// gate: "end", "advance", "commit" or "" (none: Stop only).
	cases := []struct {
		name  string
		steps []step
		gate  string
		after []step // once the gate returned
		want  []string
	}{
		// Lazy: the post hooks dropped, the session ended from the shell.
		{"claude write unreported, end", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(endCmd)}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude bash unreported, end", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}, {"claude", "PreToolUse", "Bash", cmd(endCmd)}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude write unreported, advance", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(advCmd)}}, "advance", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude write unreported, commit", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(commitCmd)}}, "commit", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude unreported, gate from a terminal", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}, {"claude", "PreToolUse", "Write", write}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude bash pending, gate from a terminal", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"claude bash pending, advance from a terminal", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}}, "advance", nil,
			[]string{session.CodeToolResultMissing}},
		{"flagged once: gate then Stop", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(endCmd)}}, "advance",
			[]step{{"claude", "PostToolUse", "Bash", cmd(endCmd)}, {"claude", "Stop", "", nil}}, []string{session.CodeToolResultMissing}},
		{"copilot create unreported, end", []step{{"copilot", "preToolUse", "create", create}, {"copilot", "preToolUse", "bash", cmd(endCmd)}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"copilot create unreported, commit", []step{{"copilot", "preToolUse", "create", create}, {"copilot", "preToolUse", "bash", cmd(commitCmd)}}, "commit", nil,
			[]string{session.CodeToolResultMissing}},
		{"copilot create unreported, agentStop", []step{{"copilot", "preToolUse", "create", create}, {"copilot", "agentStop", "", nil}}, "", nil,
			[]string{session.CodeToolResultMissing}},
		// Honest twins.
		{"claude reported, end", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PostToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(endCmd)}}, "end",
			[]step{{"claude", "PostToolUse", "Bash", cmd(endCmd)}, {"claude", "Stop", "", nil}}, nil},
		{"claude reported, advance then commit", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PostToolUse", "Write", write}, {"claude", "PreToolUse", "Bash", cmd(advCmd)}}, "advance",
			[]step{{"claude", "PostToolUse", "Bash", cmd(advCmd)}, {"claude", "PreToolUse", "Bash", cmd(commitCmd)}}, nil},
		{"claude failed bash reported, commit", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}, {"claude", "PostToolUseFailure", "Bash", cmd("sh test.sh")}, {"claude", "PreToolUse", "Bash", cmd(commitCmd)}}, "commit", nil, nil},
		{"claude interrupted, new prompt, end", []step{{"claude", "PreToolUse", "Bash", cmd("sh test.sh")}, {"claude", "UserPromptSubmit", "", nil}, {"claude", "PreToolUse", "Bash", cmd(endCmd)}}, "end",
			[]step{{"claude", "PostToolUse", "Bash", cmd(endCmd)}, {"claude", "Stop", "", nil}}, nil},
		{"gate from a terminal, nothing pending", []step{{"claude", "PreToolUse", "Write", write}, {"claude", "PostToolUse", "Write", write}}, "end", nil, nil},
		// Copilot's shell carries COPILOT_CLI=1 (TestAgentShellMarkers): a
		// gate without it runs from a terminal and excuses nothing.
		{"copilot bash pending, gate from a terminal", []step{{"copilot", "preToolUse", "bash", cmd("sh test.sh")}}, "end", nil,
			[]string{session.CodeToolResultMissing}},
		{"copilot bash pending, advance from a terminal", []step{{"copilot", "preToolUse", "bash", cmd("sh test.sh")}}, "advance", nil,
			[]string{session.CodeToolResultMissing}},
		{"copilot reported, end", []step{{"copilot", "preToolUse", "create", create}, {"copilot", "postToolUse", "create", create}, {"copilot", "preToolUse", "bash", cmd(endCmd)}}, "end",
			[]step{{"copilot", "postToolUse", "bash", cmd(endCmd)}, {"copilot", "agentStop", "", nil}}, nil},
		{"copilot write_bash (no post installed), agentStop", []step{{"copilot", "preToolUse", "write_bash", func(string) map[string]any { return map[string]any{"shellId": "0", "input": "echo hi\n"} }}, {"copilot", "agentStop", "", nil}}, "", nil, nil},
		{"copilot write_bash, end", []step{{"copilot", "preToolUse", "write_bash", func(string) map[string]any { return map[string]any{"shellId": "0", "input": "echo hi\n"} }}, {"copilot", "preToolUse", "bash", cmd(endCmd)}}, "end", nil, nil},
		{"copilot reported, agentStop", []step{{"copilot", "preToolUse", "bash", cmd("sh test.sh")}, {"copilot", "postToolUse", "bash", cmd("sh test.sh")}, {"copilot", "agentStop", "", nil}}, "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			agent := c.steps[0].agent
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0020"
			if agent == "claude" {
				r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			} else {
				r.hook("copilot", "sessionStart", map[string]any{"sessionId": sid, "cwd": r.root, "source": "new"})
			}
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
				if agent == "copilot" {
					gateEnv = []string{"COPILOT_CLI=1"}
				}
			}
			switch c.gate {
			case "end":
				writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				r.git("add", "notes.md")
				r.git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "notes")
				r.run(r.root, nil, gateEnv, binary, "session", "end", "--session", s.ID, "--summary", "wrote the notes")
			case "advance":
				r.run(r.root, nil, gateEnv, binary, "session", "advance", "--session", s.ID)
			case "commit":
				writeFile(t, filepath.Join(r.root, "notes.md"), "x\n")
				r.git("add", "notes.md")
				r.run(r.root, nil, gateEnv, binary, "hook", "pre-commit")
			}
			run(c.after)
			got := codesOf(t, r, s.ID)
			// Other codes (a commit made outside the gate above) are not
			// this test's business.
			got = slices.DeleteFunc(got, func(c string) bool { return c != session.CodeToolResultMissing })
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}

// gateStep sends one hook event of agent for the test above.
func gateStep(t *testing.T, r *repo, sid, agent, event, tool string, input func(string) map[string]any) {
	t.Helper()
	if agent == "copilot" {
		p := map[string]any{"sessionId": sid, "cwd": r.root}
		if input != nil {
			p["toolName"], p["toolArgs"] = tool, input(r.root)
		}
		if event == "postToolUse" {
			res := "ok\n<shellId: 0 completed with exit code 0>"
			if tool != "bash" {
				res = "Created file"
			}
			p["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": res}
		}
		if out, _ := r.hook("copilot", event, p); pathStr(out, "permissionDecision") == "deny" {
			t.Fatalf("%s %s denied: %v", event, tool, out)
		}
		return
	}
	id := "toolu_" + tool
	if input != nil {
		if c, _ := input(r.root)["command"].(string); c != "" {
			id = fmt.Sprintf("toolu_%s_%x", tool, sha256.Sum256([]byte(c)))[:32]
		}
	}
	switch event {
	case "PreToolUse", "PostToolUse":
		p := with(golden(t, r, "claude", event+"-"+tool, sid), "tool_use_id", id, "tool_input", input(r.root))
		if event == "PostToolUse" && tool == "Bash" {
			p = with(p, "tool_response", map[string]any{"stdout": "ok\n", "stderr": "", "interrupted": false, "isImage": false})
		}
		out, _ := r.hook("claude", event, p)
		if pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
			t.Fatalf("%s %s denied: %v", event, tool, out)
		}
	case "PostToolUseFailure":
		r.hook("claude", event, with(golden(t, r, "claude", "PostToolUseFailure-Bash", sid), "tool_name", tool, "tool_use_id", id, "tool_input", input(r.root)))
	case "UserPromptSubmit":
		r.hook("claude", event, with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt", "now do the other thing"))
	default:
		r.hook("claude", event, golden(t, r, "claude", event, sid))
	}
}
