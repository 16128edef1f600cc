package agenthook_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestOneLineStartCannotOutrunTheTranscript: the transcript binding race
// with the real binary and Claude Code's payload shapes. The agent's hook
// has bound its transcript (SessionStart, then PreToolUse of the line);
// the agent then starts a session, claims a read and advances in one shell
// line, before any later hook could bind the transcript to the new session.
// The new session inherits the transcript, so the claim is refused and the
// start gate holds; the same steps in a repository where no agent hook ran
// claim as before.
func TestOneLineStartCannotOutrunTheTranscript(t *testing.T) {
	const protocol = "# Session Protocol\n\n## Session Start\n\n### Phase 1: Orientation (BLOCKING)\n\n" +
		"1. The agent MUST read `docs/guide.md` before it changes anything.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n1. The agent MUST summarize the session.\n"
	for _, hooked := range []bool{true, false} {
		t.Run(map[bool]string{true: "agent hook bound a transcript", false: "no agent hook"}[hooked], func(t *testing.T) {
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n") // a loaded machine is not the point
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), protocol)
			writeFile(t, filepath.Join(r.root, "docs", "guide.md"), "# Guide\n")
			r.git("add", "-A")
			r.git("commit", "-q", "--no-verify", "-m", "protocol")
			cfgDir := filepath.Join(filepath.Dir(r.root), "home", ".claude")
			const sid = "claude-race-1"
			tp := filepath.Join(cfgDir, "projects", "-repo", sid+".jsonl")
			writeFile(t, tp, `{"type":"user","message":{"role":"user","content":"start"}}`+"\n")
			env := "CLAUDE_CONFIG_DIR=" + cfgDir
			line := binary + " session start --objective 'race' && " +
				binary + " session evidence --requirement ORIENTATION.read-docs-guide-md --type manual --value 'I read docs/guide.md, it says how we work' && " +
				binary + " session advance"
			if hooked {
				r.hook("claude", "SessionStart", with(golden(t, r, "claude", "SessionStart", sid), "transcript_path", tp), env)
				pre := golden(t, r, "claude", "PreToolUse-Bash", sid)
				pre = with(pre, "transcript_path", tp, "tool_input", map[string]any{"command": line, "description": "start"})
				if out, res := r.hook("claude", "PreToolUse", pre, env); pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny" {
					t.Fatalf("the line itself was denied: %v %s", out, res.err)
				}
			}
			res := r.run(r.root, nil, []string{env}, "sh", "-c", line)
			s := r.active()
			if hooked {
				if res.code == 0 || s.State != session.StateInit || !strings.Contains(res.err, "transcript") {
					t.Fatalf("one-line start, claim and advance: exit %d, state %s\nstdout %s\nstderr %s", res.code, s.State, res.out, res.err)
				}
				return
			}
			if res.code != 0 || s.State == session.StateInit {
				t.Fatalf("without an agent hook the claim counts as before: exit %d, state %s\nstderr %s", res.code, s.State, res.err)
			}
		})
	}
}
