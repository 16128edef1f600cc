package agenthook_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// TestPersonLookingCommitInsideAgentCall: a protected-file commit whose
// committer looks like a person (no agent variable, no agent in its
// ancestry: `setsid git commit` from the agent's shell) is still charged to
// the session while an agent shell call is pending in the store (judged by
// PreToolUse, no PostToolUse yet). The honest twin: the same commit with
// no call pending is a person's (session/personcommit.go): refused, not
// charged. Both are refused.
func TestPersonLookingCommitInsideAgentCall(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s: every commit here is the agent's", p.Name)
	}
	for _, tc := range []struct {
		name    string
		pending bool
		charged int
	}{
		{"agent shell call pending", true, 1},
		{"no agent call pending", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, "")
			r.sg("install")
			const sid = "person-looking-commit"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			bash := with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_input", map[string]any{"command": "setsid git commit -qm relax"}, "tool_use_id", "call-1")
			if out, _ := r.hook("claude", "PreToolUse", bash); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
				t.Fatalf("the commit call was denied: %v", out)
			}
			if !tc.pending {
				post := with(golden(t, r, "claude", "PostToolUse-Bash", sid), "tool_input", map[string]any{"command": "setsid git commit -qm relax"}, "tool_use_id", "call-1")
				r.hook("claude", "PostToolUse", post)
			}
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), "# Session Protocol\n\nAnything goes.\n")
			r.git("add", "SESSION-PROTOCOL.md")
			if res := r.run(r.root, nil, nil, "git", "commit", "-qm", "relax"); res.code == 0 {
				t.Fatalf("the protected commit landed:\n%s", res.err)
			}
			vs, err := r.db().ListViolations(context.Background(), session.ViolationFilter{SessionID: s.ID, Code: session.CodeProtectedChange})
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != tc.charged {
				t.Fatalf("%d PROTECTED_CHANGE violations, want %d: %v", len(vs), tc.charged, vs)
			}
		})
	}
}
