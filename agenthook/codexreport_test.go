package agenthook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCodexUnreportedCalls: round 21, issue 25. Codex's Bash calls are now
// paired by tool_use_id, as Claude Code's: a call its PreToolUse allowed
// with no PostToolUse (the post hook dropped from .codex/hooks.json) is a
// TOOL_RESULT_MISSING at Stop and at the gates, the gate's own call
// excused; a prompt sent from inside a call is a PROMPT_DURING_CALL.
// Payloads are the real Codex CLI's (../shared/fixtures/agent-payloads).
// Honest twins: calls reported; apply_patch (install gives it no post);
// a call run where Codex could ask for approval (permission_mode
// "default": a declined call's post is unmeasured, so none is owed); an
// interrupted call followed by a new prompt.
func TestCodexUnreportedCalls(t *testing.T) {
	payloads(t, "codex") // skips, or fails under CI, without the fixtures
	type step struct {
		event, cmd, mode string // cmd: a Bash command, or "patch"
	}
	const (
		endCmd = "sessiongate session end --summary done"
		fake   = "sessiongate hook codex UserPromptSubmit < p.json"
		bypass = "bypassPermissions"
	)
	pre := func(c string) step { return step{"PreToolUse", c, bypass} }
	post := func(c string) step { return step{"PostToolUse", c, bypass} }
	prompt, stop := step{"UserPromptSubmit", "", ""}, step{"Stop", "", ""}
	cases := []struct {
		name  string
		steps []step
		gate  string
		after []step
		want  []string
	}{
		// Lazy: PostToolUse dropped.
		{"bash unreported, Stop", []step{pre("sh test.sh"), stop}, "", nil, []string{session.CodeToolResultMissing}},
		{"bash unreported, end", []step{pre("sh test.sh"), pre(endCmd)}, "end", nil, []string{session.CodeToolResultMissing}},
		{"bash unreported, commit", []step{pre("sh test.sh"), pre("git commit -qm notes")}, "commit", nil, []string{session.CodeToolResultMissing}},
		{"bash pending, gate from a terminal", []step{pre("sh test.sh")}, "end", nil, []string{session.CodeToolResultMissing}},
		{"bash pending, gate from a background job of an earlier call", []step{pre("true"), post("true"), pre("sh test.sh")}, "end", nil, []string{session.CodeToolResultMissing}},
		{"fake prompt from a call", []step{pre("sh test.sh"), pre(fake), prompt, post(fake), stop}, "", nil, []string{session.CodePromptDuringCall}},
		// Honest twins.
		{"bash reported, Stop", []step{pre("sh test.sh"), post("sh test.sh"), stop}, "", nil, nil},
		{"reported, end, its post, Stop", []step{pre("sh test.sh"), post("sh test.sh"), pre(endCmd)}, "end", []step{post(endCmd), stop}, nil},
		{"apply_patch (no post installed), Stop", []step{pre("patch"), stop}, "", nil, nil},
		{"approval mode, no post, Stop", []step{{"PreToolUse", "sh test.sh", "default"}, stop}, "", nil, nil},
		{"interrupted, prompt, Stop", []step{pre("sh test.sh"), prompt, pre("true"), post("true"), stop}, "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "01a21fbc-d94f-7840-ab11-14e78e78be21"
			load := func(name string) map[string]any {
				b, err := os.ReadFile(filepath.Join(payloadDir, "codex", name+".json"))
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				return with(m, "session_id", sid, "cwd", r.root, "transcript_path", "")
			}
			r.hook("codex", "SessionStart", load("SessionStart"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			run := func(steps []step) {
				for _, st := range steps {
					var p map[string]any
					switch {
					case st.cmd == "patch":
						p = with(load(st.event+".apply_patch"), "permission_mode", st.mode, "tool_use_id", "call_patch")
					case st.cmd != "":
						id := callID(st.cmd)
						p = with(load(st.event+".Bash"), "permission_mode", st.mode, "tool_use_id", id,
							"tool_input", map[string]any{"command": st.cmd})
					case st.event == "Stop":
						p = load("Stop.first")
					default:
						p = with(load(st.event), "prompt", "now the other thing")
					}
					out, _ := r.hook("codex", st.event, p)
					if pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
						t.Fatalf("%s %s denied: %v", st.event, st.cmd, out)
					}
				}
			}
			run(c.steps)
			// Codex names the running call in its shell's environment; a
			// gate from a person's terminal has none.
			var gateEnv []string
			if n := len(c.steps); !strings.Contains(c.name, "terminal") && n > 0 && c.steps[n-1].event == "PreToolUse" {
				gateEnv = []string{"CODEX_TOOL_CALL_ID=" + callID(c.steps[n-1].cmd)}
				if strings.Contains(c.name, "background") {
					gateEnv = []string{"CODEX_TOOL_CALL_ID=" + callID(c.steps[0].cmd)}
				}
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

// callID is the test's Codex tool_use_id of a command line.
func callID(cmd string) string {
	return "call_" + strings.NewReplacer(" ", "_", "<", "", ".", "", "-", "").Replace(cmd)
}
