package agenthook_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestPostToolUseInputRewritten: Claude Code's PostToolUse carries the
// input as run; one that differs from what PreToolUse judged for the same
// tool_use_id (a shim's updatedInput) is a TOOL_INPUT_REWRITTEN violation
// and no evidence. Honest rows: the same command, a PostToolUse whose id
// no PreToolUse judged (nothing to compare), another call's id.
func TestPostToolUseInputRewritten(t *testing.T) {
	cases := []struct {
		name         string
		preID, preC  string // "" preID: no PreToolUse
		postID, post string
		rewritten    bool
	}{
		{"same command", "toolu_a", "git status", "toolu_a", "git status", false},
		{"rewritten by another hook", "toolu_a", "git status", "toolu_a", "echo x >> SESSION-PROTOCOL.md", true},
		{"appended to", "toolu_a", "git status", "toolu_a", "git status; rm -rf .git/hooks", true},
		{"no PreToolUse for the id", "", "", "toolu_b", "git status", false},
		{"another call's id", "toolu_a", "git status", "toolu_c", "git log", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "")
			sid := "claude-rewrite"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			if c.preID != "" {
				pre := with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_use_id", c.preID, "tool_input", map[string]any{"command": c.preC})
				if out, _ := r.hook("claude", "PreToolUse", pre); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
					t.Fatalf("PreToolUse of %q denied: %v", c.preC, out)
				}
			}
			post := with(golden(t, r, "claude", "PostToolUse-Bash", sid), "tool_use_id", c.postID, "tool_input", map[string]any{"command": c.post},
				"tool_response", map[string]any{"stdout": "ok", "stderr": "", "interrupted": false, "isImage": false})
			r.hook("claude", "PostToolUse", post)
			ctx := context.Background()
			vs, err := r.db().ListViolations(ctx, session.ViolationFilter{SessionID: s.ID, Code: session.CodeToolInputRewritten})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(vs) == 1; got != c.rewritten || len(vs) > 1 {
				t.Errorf("%d %s violation(s), want rewritten=%v: %+v", len(vs), session.CodeToolInputRewritten, c.rewritten, vs)
			}
			evs, err := r.db().ListEvidence(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			observed := false
			for _, e := range evs {
				if e.Origin == session.OriginObserved && e.Command == c.post {
					observed = true
				}
			}
			if observed == c.rewritten {
				t.Errorf("observed evidence of %q: %v, want %v (a rewritten call is no evidence)", c.post, observed, !c.rewritten)
			}
		})
	}
}
