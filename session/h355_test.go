package session_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// sessionLogCheck is DOCUMENTATION_UPDATE's changed_since_start check on
// .agents/sessions/* under the team's 2025-12-22 protocol.
func sessionLogCheck(t *testing.T, g *session.GateResult) session.CheckResult {
	t.Helper()
	for _, c := range g.Checks {
		if c.Kind == protocolspec.CheckChangedSinceStart && strings.Contains(c.Arg, "sessions/") {
			return c
		}
	}
	t.Fatalf("no session-log check in %+v", g.Checks)
	return session.CheckResult{}
}

// TestR62H355CopiedSessionLog plays round 61 helper 353's lazy agent: the
// fixtures' real session 91 log copied to this session's log name, its
// dates, branch, starting commit and objective changed as with sed, while
// the session changed and committed scripts/greet.sh. Near-copy detection
// reads only this repository's history, so the log passed. Now the log's
// own facts are read against git: its "abandoned" note, its "Commits This
// Session: None" after a commit, and, with both edited out and the log
// committed with the code, its naming nothing of the session. The honest
// twin (its own log, "None" committed with the code) passes.
func TestR62H355CopiedSessionLog(t *testing.T) {
	fixture := string(fixtureProtocol(t, "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"))
	sed := strings.NewReplacer("2025-12-26", "2026-11-21", "feat/issue-357-quality-gate-improvements", "feat/greet-name",
		"48f1900", "1a2b3c4", "Implement Issue #357 improvements using prompt-engineer skill and full orchestrator workflow", "Greet takes a name")
	copied := sed.Replace(fixture)
	// The lazy agent's second try: the lines that gave it away deleted
	// (sed '/abandoned/d'), the "None" kept.
	var kept []string
	for _, l := range strings.Split(copied, "\n") {
		if !strings.Contains(strings.ToLower(l), "abandoned") {
			kept = append(kept, l)
		}
	}
	noAbandon := strings.Join(kept, "\n")
	const log = ".agents/sessions/2026-11-21-session-01.md"
	honest := "# Session 01 - 2026-11-21\n\n## Session Info\n\n- **Objective**: Greet takes a name\n\n## Work Log\n\n- `scripts/greet.sh`: takes an optional name\n\n### Commits This Session\n\nNone yet: committed with this log.\n"

	for _, tc := range []struct {
		name, log string
		together  bool   // log and code in one commit
		want      string // "" passes
	}{
		{"copied as is", copied, false, "abandoned"},
		{"abandoned lines deleted, log after the code", noAbandon, false, "None - Work did not progress"},
		{"abandoned lines deleted, one commit", noAbandon, true, "names none of the files this session changed (scripts/greet.sh)"},
		{"honest twin", honest, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			e := newEnv(t, string(fixtureProtocol(t, protoV14)))
			e.commitFile("scripts/greet.sh", "#!/bin/sh\necho hello\n")
			id := e.start("Greet takes a name")
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho \"hello ${1:-world}\"\n")
			if !tc.together {
				gittest.Git(t, e.root, "commit", "-qam", "feat(scripts): greet takes a name")
			}
			gittest.Write(t, e.root, log, tc.log)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-qm", "docs(session): session 01 log")
			c := sessionLogCheck(t, e.gate(id, "DOCUMENTATION_UPDATE"))
			if tc.want == "" {
				if c.Status != session.StatusPass {
					t.Fatalf("honest log: %s %s", c.Status, c.Message)
				}
				return
			}
			if c.Status != session.StatusFail || !strings.Contains(c.Message, log+":") || !strings.Contains(c.Message, tc.want) {
				t.Fatalf("copied log: %s %q, want a failure at %s: naming %q", c.Status, c.Message, log, tc.want)
			}
		})
	}
}
