package agenthook_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// codesOf lists the session's violation codes, sorted.
func codesOf(t *testing.T, r *repo, sid string) []string {
	t.Helper()
	vs, err := r.db().ListViolations(context.Background(), session.ViolationFilter{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, v := range vs {
		codes = append(codes, v.Code)
	}
	slices.Sort(codes)
	return codes
}

// TestClaudeToolResultMissing: a judged call that never reports (no
// PostToolUse, no PostToolUseFailure) in a turn that ended with Stop is a
// TOOL_RESULT_MISSING; before round 19 nothing noticed it, so dropping the
// PostToolUse hook let a rewritten call run unseen. Honest twins stay
// clean: a reported call, a failed write (PostToolUseFailure), a denied
// call (nothing to report), a backgrounded call (it reports when it
// starts), an interrupted call (Claude Code sends no post and no Stop; the
// next prompt arrives instead).
func TestClaudeToolResultMissing(t *testing.T) {
	type step struct {
		event string
		tool  string // PreToolUse/PostToolUse*: "Bash" or "Write"
		input func(root string) map[string]any
	}
	bash := func(kv ...any) func(string) map[string]any {
		return func(string) map[string]any {
			m := map[string]any{"command": "sh test.sh", "description": "run tests"}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
	}
	write := func(name string) func(string) map[string]any {
		return func(root string) map[string]any {
			return map[string]any{"file_path": filepath.Join(root, name), "content": "x\n"}
		}
	}
	cases := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"bash post suppressed", []step{{"PreToolUse", "Bash", bash()}, {"Stop", "", nil}}, []string{session.CodeToolResultMissing}},
		{"write post suppressed", []step{{"PreToolUse", "Write", write("notes.md")}, {"Stop", "", nil}}, []string{session.CodeToolResultMissing}},
		{"one of two suppressed", []step{{"PreToolUse", "Bash", bash()}, {"PostToolUse", "Bash", bash()}, {"PreToolUse", "Write", write("notes.md")}, {"Stop", "", nil}},
			[]string{session.CodeToolResultMissing}},
		{"reported", []step{{"PreToolUse", "Bash", bash()}, {"PostToolUse", "Bash", bash()}, {"Stop", "", nil}}, nil},
		{"failed write", []step{{"PreToolUse", "Write", write("notes.md")}, {"PostToolUseFailure", "Write", write("notes.md")}, {"Stop", "", nil}}, nil},
		{"failed bash", []step{{"PreToolUse", "Bash", bash()}, {"PostToolUseFailure", "Bash", bash()}, {"Stop", "", nil}}, nil},
		{"denied write", []step{{"PreToolUse", "Write", write("SESSION-PROTOCOL.md")}, {"Stop", "", nil}}, nil},
		{"backgrounded", []step{{"PreToolUse", "Bash", bash("run_in_background", true)}, {"PostToolUse", "Bash", bash("run_in_background", true)}, {"Stop", "", nil}}, nil},
		{"interrupted, then a new prompt", []step{{"PreToolUse", "Bash", bash()}, {"UserPromptSubmit", "", nil}, {"Stop", "", nil}}, nil},
		{"interrupted, session ended", []step{{"PreToolUse", "Bash", bash()}, {"SessionEnd", "", nil}}, nil},
		{"flagged once over two stops", []step{{"PreToolUse", "Bash", bash()}, {"Stop", "", nil}, {"Stop", "", nil}}, []string{session.CodeToolResultMissing}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "")
			sid := "claude-result-missing"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			for _, st := range c.steps {
				switch st.event {
				case "PreToolUse":
					r.hook("claude", st.event, with(golden(t, r, "claude", "PreToolUse-"+st.tool, sid), "tool_use_id", "toolu_"+st.tool, "tool_input", st.input(r.root)))
				case "PostToolUse":
					p := with(golden(t, r, "claude", "PostToolUse-"+st.tool, sid), "tool_use_id", "toolu_"+st.tool, "tool_input", st.input(r.root))
					if st.tool == "Bash" {
						p = with(p, "tool_response", map[string]any{"stdout": "tests ok\n", "stderr": "", "interrupted": false, "isImage": false})
					}
					r.hook("claude", st.event, p)
				case "PostToolUseFailure":
					p := with(golden(t, r, "claude", "PostToolUseFailure-Bash", sid), "tool_name", st.tool, "tool_use_id", "toolu_"+st.tool, "tool_input", st.input(r.root))
					if st.tool == "Write" {
						p = with(p, "error", "File has not been read yet. Read it first before writing to it.")
					}
					r.hook("claude", st.event, p)
				case "UserPromptSubmit":
					r.hook("claude", st.event, with(golden(t, r, "claude", "UserPromptSubmit", sid), "prompt", "now do the other thing"))
				default:
					r.hook("claude", st.event, golden(t, r, "claude", st.event, sid))
				}
			}
			if got := codesOf(t, r, s.ID); !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}

// TestCopilotPostPaired: Copilot's hooks carry no call id, so its
// postToolUse is paired with a pending preToolUse by tool and arguments,
// in order. A post whose arguments match no pending call of its tool ran
// with input no hook judged: TOOL_INPUT_REWRITTEN (before round 19 it was
// recorded as observed evidence of what it claimed to run). Honest twins:
// the same arguments (key order aside), the same call twice, a write.
func TestCopilotPostPaired(t *testing.T) {
	type call struct {
		event, tool string
		args        map[string]any
	}
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "run"} }
	cases := []struct {
		name     string
		calls    func(root string) []call
		want     []string
		observed bool // `sh test.sh` observed
	}{
		{"same arguments", func(string) []call {
			return []call{{"preToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", map[string]any{"description": "run", "command": "sh test.sh"}}}
		}, nil, true},
		{"same call twice", func(string) []call {
			return []call{{"preToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", bash("sh test.sh")}, {"preToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", bash("sh test.sh")}}
		}, nil, true},
		{"command rewritten", func(string) []call {
			return []call{{"preToolUse", "bash", bash("git status")}, {"postToolUse", "bash", bash("sh test.sh")}}
		}, []string{session.CodeToolInputRewritten}, false},
		{"description kept, mode rewritten", func(string) []call {
			return []call{{"preToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", map[string]any{"command": "sh test.sh", "description": "run", "mode": "async"}}}
		}, []string{session.CodeToolInputRewritten}, false},
		{"second post has no pre", func(string) []call {
			return []call{{"preToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", bash("sh test.sh")}, {"postToolUse", "bash", bash("sh test.sh")}}
		}, []string{session.CodeToolInputRewritten}, true},
		{"write same path", func(root string) []call {
			a := map[string]any{"path": filepath.Join(root, "notes.md"), "file_text": "x\n"}
			return []call{{"preToolUse", "create", a}, {"postToolUse", "create", a}}
		}, nil, false},
		{"write moved onto the protocol", func(root string) []call {
			return []call{{"preToolUse", "create", map[string]any{"path": filepath.Join(root, "notes.md"), "file_text": "x\n"}},
				{"postToolUse", "create", map[string]any{"path": filepath.Join(root, "SESSION-PROTOCOL.md"), "file_text": "x\n"}}}
		}, []string{session.CodeToolInputRewritten}, false},
		{"no pre judged (older hooks)", func(string) []call {
			return []call{{"postToolUse", "bash", bash("sh test.sh")}}
		}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002"
			r.hook("copilot", "sessionStart", map[string]any{"sessionId": sid, "cwd": r.root, "source": "new"})
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			for _, cl := range c.calls(r.root) {
				p := map[string]any{"sessionId": sid, "cwd": r.root, "toolName": cl.tool, "toolArgs": cl.args}
				if cl.event == "postToolUse" {
					res := "tests ok\n<shellId: 0 completed with exit code 0>"
					if cl.tool != "bash" {
						res = "Created file"
					}
					p["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": res}
				}
				if out, _ := r.hook("copilot", cl.event, p); pathStr(out, "permissionDecision") == "deny" {
					t.Fatalf("%s %s denied: %v", cl.event, cl.tool, out)
				}
			}
			if got := codesOf(t, r, s.ID); !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			observed := false
			for _, e := range evs {
				observed = observed || e.Origin == session.OriginObserved && e.Command == "sh test.sh"
			}
			if observed != c.observed {
				t.Errorf("`sh test.sh` observed: %v, want %v", observed, c.observed)
			}
		})
	}
}
