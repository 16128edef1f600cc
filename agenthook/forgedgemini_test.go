package agenthook_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestForgedGeminiAfterTool: Gemini CLI runs its shell with git's hooks
// off, so its AfterTool runs pre-commit and post-commit for the commit at
// HEAD after the fact (hooksoff.go). An agent of another CLI that turned
// the hooks off itself (`git -c core.hooksPath= commit`) and then piped a
// Gemini AfterTool payload into the hook got that after-the-fact judgement
// too: its hooks-off commit was recorded as the session's, not a BYPASS
// (round 22 review). Gemini CLI sets GEMINI_SESSION_ID to the payload's
// session_id in every hook it runs (read from its 0.61 bundle); the
// after-the-fact judgement now needs it. The honest twin is Gemini's own
// call, with the variable set, whose commit is recorded.
func TestForgedGeminiAfterTool(t *testing.T) {
	for _, tc := range []struct {
		name     string
		starter  string // the CLI whose SessionStart began the session
		env      []string
		recorded bool
	}{
		{"claude session, forged Gemini AfterTool", "claude", nil, false},
		{"claude session, forged with a wrong GEMINI_SESSION_ID", "claude", []string{"GEMINI_SESSION_ID=other"}, false},
		{"gemini session, Gemini's own AfterTool", "gemini", []string{"GEMINI_SESSION_ID=gem-1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, "")
			r.sg("install")
			sid := "starter-1"
			if tc.starter == "gemini" {
				sid = "gem-1"
			}
			r.hook(tc.starter, "SessionStart", golden(t, r, tc.starter, "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			writeFile(t, filepath.Join(r.root, "hello.txt"), "hello\n")
			r.git("add", "hello.txt")
			r.git("-c", "core.hooksPath=", "commit", "-qm", "add hello.txt")
			head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
			call := map[string]any{"command": "git add hello.txt && git commit -qm 'add hello.txt'"}
			if tc.starter == "gemini" {
				r.hook("gemini", "BeforeTool", with(golden(t, r, "gemini", "BeforeTool-run_shell_command", "gem-1"), "tool_input", call), tc.env...)
			}
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), tc.env...)
			vs, err := r.db().ListViolations(context.Background(), session.ViolationFilter{SessionID: s.ID})
			if err != nil {
				t.Fatal(err)
			}
			bypass := 0
			for _, v := range vs {
				if v.Code == session.CodeBypass && strings.Contains(v.Message, head[:7]) {
					bypass++
				}
			}
			if tc.recorded && len(vs) != 0 || !tc.recorded && bypass == 0 {
				t.Fatalf("hooks-off commit %s: violations %+v; want a BYPASS naming it: %v", head[:7], vs, !tc.recorded)
			}
		})
	}
}
