package agenthook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestConversationLog: each agent's real start payload opens its
// conversation in the worktree's log (the payload's own id, the agent),
// binds the session the hook started, and its real end payload closes it,
// so that person acts can tell whether an agent is at work here.
func TestConversationLog(t *testing.T) {
	cases := []struct {
		dir, agent, start, end, idKey string
	}{
		{filepath.Join(payloadDir, "codex"), "codex", "SessionStart.json", "SessionEnd.json", "session_id"},
		{filepath.Join(payloadDir, "copilot"), "copilot", "sessionStart.json", "sessionEnd.complete.json", "sessionId"},
		{filepath.Join(payloadDir, "copilot-pascalcase"), "copilot", "SessionStart.json", "SessionEnd.json", "session_id"},
		{filepath.Join("testdata", "claude"), "claude", "SessionStart.json", "SessionEnd.json", "session_id"},
	}
	for _, c := range cases {
		t.Run(c.agent+"/"+filepath.Base(c.dir), func(t *testing.T) {
			if strings.HasPrefix(c.dir, payloadDir) {
				payloads(t, filepath.Base(c.dir)) // skips (fails under CI) without them
			}
			// A loaded machine must not turn the start into a fail-mode answer.
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			load := func(name string) ([]byte, string) {
				b, err := os.ReadFile(filepath.Join(c.dir, name))
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"cwd", "cwd_path"} {
					if _, ok := m[k]; ok {
						m[k] = r.root
					}
				}
				delete(m, "transcript_path")
				delete(m, "transcriptPath")
				id, _ := m[c.idKey].(string)
				out, _ := json.Marshal(m)
				return out, id
			}
			start, id := load(c.start)
			if id == "" {
				t.Fatalf("%s has no %s", c.start, c.idKey)
			}
			event := func(name string) string { e, _, _ := strings.Cut(name, "."); return e }
			env := []string{"CLAUDE_PROJECT_DIR=" + r.root}
			r.hook(c.agent, event(c.start), start, env...)
			log := session.ConversationLogAt(filepath.Join(r.root, ".git"))
			open, err := log.OpenIn(r.root, time.Now())
			if err != nil || len(open) != 1 || open[0].Agent != c.agent || open[0].ID != id {
				t.Fatalf("after %s: open %+v (%v), want %s:%s", c.start, open, err, c.agent, id)
			}
			if s := r.active(); s == nil || len(open[0].Sessions) != 1 || open[0].Sessions[0] != s.ID {
				t.Fatalf("the conversation's sessions %v, want the session the hook started", open[0].Sessions)
			}
			end, _ := load(c.end)
			r.hook(c.agent, event(c.end), end, env...)
			if open, err := log.OpenIn(r.root, time.Now()); err != nil || len(open) != 0 {
				t.Fatalf("after %s: open %+v (%v), want none", c.end, open, err)
			}
		})
	}
}
