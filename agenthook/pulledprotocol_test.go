package agenthook_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPulledProtocolHeldAtStop: round 20 left open that `git pull` (and
// `git fetch origin && git merge origin/main`) is judged at the
// remote-tracking ref as it was before the fetch. Round 21 (c4) played it:
// the protocol relaxed in a clone elsewhere and pushed to origin, then
// pulled. The hook allows the pull (it cannot know the remote without a
// network call, and pulling is honest work), but the agent gains nothing:
// the Stop gate finds the protocol's content is not one a person accepted
// and blocks. This test holds that line.
func TestPulledProtocolHeldAtStop(t *testing.T) {
	r := newRepo(t, "")
	base := filepath.Dir(r.root)
	origin, other := filepath.Join(base, "origin.git"), filepath.Join(base, "other")
	r.git("clone", "-q", "--bare", r.root, origin)
	r.git("remote", "add", "origin", origin)
	r.git("fetch", "-q", "origin")
	r.git("branch", "-q", "--set-upstream-to=origin/main")
	const sid = "pulled-protocol"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	for _, step := range [][]string{{base, "git", "clone", "-q", origin, other}, {other, "git", "commit", "-qam", "relax"}, {other, "git", "push", "-q", "origin", "main"}} {
		if step[2] == "commit" {
			writeFile(t, filepath.Join(other, "SESSION-PROTOCOL.md"), "# relaxed\n")
		}
		if res := r.run(step[0], nil, nil, step[1], step[2:]...); res.code != 0 {
			t.Fatalf("%v: %s", step, res.err)
		}
	}
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": "git pull origin main"}))
	if d := pathStr(out, "hookSpecificOutput", "permissionDecision"); d == "deny" {
		t.Fatalf("git pull denied: %v", out) // honest work: a pull is allowed
	}
	if res := r.run(r.root, nil, nil, "git", "pull", "-q", "origin", "main"); res.code != 0 {
		t.Fatalf("pull: %s", res.err)
	}
	out, _ = r.hook("claude", "Stop", golden(t, r, "claude", "Stop", sid))
	if d, _ := out["decision"].(string); d != "block" || !strings.Contains(pathStr(out, "reason"), "SESSION-PROTOCOL.md") {
		t.Fatalf("Stop after the pulled protocol change not blocked on it: %v", out)
	}
}
