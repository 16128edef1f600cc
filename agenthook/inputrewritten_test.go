package agenthook_test

import (
	"context"
	"path/filepath"
	"slices"
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

// TestPostToolUseWholeInputRewritten: round 18 compares the whole input
// PreToolUse judged, not a Bash command line alone, and write tools too
// (their PostToolUse is installed). Before: a call backgrounded, its
// timeout or sandbox changed, or a Write judged for notes.md run on the
// protocol, went unseen. Honest rows: the same input again (key order
// aside), and a backgrounded `sh test.sh` nothing rewrote, which is still
// no observed evidence (its PostToolUse carries no result of the tests).
func TestPostToolUseWholeInputRewritten(t *testing.T) {
	bash := func(kv ...any) map[string]any {
		m := map[string]any{"command": "sh test.sh", "description": "run tests"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name      string
		tool      string
		pre, post func(root string) map[string]any
		want      []string // violation codes
		observed  bool     // `sh test.sh` recorded as observed evidence
	}{
		{"bash same input", "Bash", func(string) map[string]any { return bash("timeout", 60000) }, func(string) map[string]any { return bash("timeout", 60000) }, nil, true},
		{"bash backgrounded by another hook", "Bash", func(string) map[string]any { return bash() }, func(string) map[string]any { return bash("run_in_background", true) },
			[]string{session.CodeToolInputRewritten}, false},
		{"bash sandbox turned off", "Bash", func(string) map[string]any { return bash() }, func(string) map[string]any { return bash("dangerouslyDisableSandbox", true) },
			[]string{session.CodeToolInputRewritten}, false},
		{"bash timeout changed", "Bash", func(string) map[string]any { return bash("timeout", 60000) }, func(string) map[string]any { return bash("timeout", 600000) },
			[]string{session.CodeToolInputRewritten}, false},
		{"bash backgrounded by the agent itself", "Bash", func(string) map[string]any { return bash("run_in_background", true) }, func(string) map[string]any { return bash("run_in_background", true) }, nil, false},
		{"write same input", "Write",
			func(root string) map[string]any {
				return map[string]any{"file_path": filepath.Join(root, "notes.md"), "content": "x\n"}
			},
			func(root string) map[string]any {
				return map[string]any{"content": "x\n", "file_path": filepath.Join(root, "notes.md")}
			}, nil, false},
		{"write moved onto the protocol", "Write",
			func(root string) map[string]any {
				return map[string]any{"file_path": filepath.Join(root, "notes.md"), "content": "x\n"}
			},
			func(root string) map[string]any {
				return map[string]any{"file_path": filepath.Join(root, "SESSION-PROTOCOL.md"), "content": "x\n"}
			},
			[]string{session.CodeProtectedChange, session.CodeToolInputRewritten}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "")
			sid := "claude-whole-input"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			pre := with(golden(t, r, "claude", "PreToolUse-"+c.tool, sid), "tool_use_id", "toolu_w", "tool_input", c.pre(r.root))
			if out, _ := r.hook("claude", "PreToolUse", pre); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
				t.Fatalf("PreToolUse denied: %v", out)
			}
			if c.tool == "Write" {
				// What Claude Code did with the input as run.
				in := c.post(r.root)
				writeFile(t, in["file_path"].(string), in["content"].(string))
			}
			post := with(golden(t, r, "claude", "PostToolUse-"+c.tool, sid), "tool_use_id", "toolu_w", "tool_input", c.post(r.root))
			if c.tool == "Bash" {
				post = with(post, "tool_response", map[string]any{"stdout": "tests ok\n", "stderr": "", "interrupted": false, "isImage": false})
			}
			r.hook("claude", "PostToolUse", post)
			ctx := context.Background()
			vs, err := r.db().ListViolations(ctx, session.ViolationFilter{SessionID: s.ID})
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, v := range vs {
				codes = append(codes, v.Code)
			}
			slices.Sort(codes)
			if !slices.Equal(codes, c.want) {
				t.Errorf("violations %v, want %v", codes, c.want)
			}
			evs, err := r.db().ListEvidence(ctx, s.ID)
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
