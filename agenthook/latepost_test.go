package agenthook_test

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestEndCallComparedAfterEnd: round 21, issue 25 (work and the gate in
// one call). The call that runs `sessiongate session end` reports only
// once the session has ended, and such a post was dropped unread: a
// second hook's rewrite of the end call (judged as `sessiongate session
// end`, run as `echo evil > x; sessiongate session end`) went unseen. The
// post is now compared with what the ended session judged. Honest twins:
// the end call run as judged, alone or after work in the same line.
func TestEndCallComparedAfterEnd(t *testing.T) {
	const end = "sessiongate session end --summary x"
	cases := []struct {
		name, judged, ran string
		want              []string
	}{
		{"end call rewritten", end, "echo evil > x; " + end, []string{session.CodeToolInputRewritten}},
		{"work and end rewritten", "sh test.sh && " + end, "true && " + end, []string{session.CodeToolInputRewritten}},
		{"end call as judged", end, end, nil},
		{"work and end as judged", "sh test.sh && " + end, "sh test.sh && " + end, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0023"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			call := func(event, cmd string) map[string]any {
				p := with(golden(t, r, "claude", event+"-Bash", sid), "tool_use_id", "toolu_end", "tool_input", map[string]any{"command": cmd, "description": "end"})
				if event == "PostToolUse" {
					p = with(p, "tool_response", map[string]any{"stdout": "ok\n", "stderr": "", "interrupted": false, "isImage": false})
				}
				return p
			}
			if out, _ := r.hook("claude", "PreToolUse", call("PreToolUse", c.judged)); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
				t.Fatalf("PreToolUse denied: %v", out)
			}
			r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "x")
			r.hook("claude", "PostToolUse", call("PostToolUse", c.ran))
			r.hook("claude", "Stop", golden(t, r, "claude", "Stop", sid))
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool { return c != session.CodeToolInputRewritten })
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}
