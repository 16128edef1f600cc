package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR64H366ListedFileIsWork: the 2025-12-22 protocol's branch handoff
// (`.agents/handoffs/{branch}/{session}.md`, a "Session context MUST go
// to:" item) is judged as the session's written work, as the handoff and
// session log are: before, any file changed in the branch's folder met
// it (round 63's re-read: `echo x > .agents/handoffs/feat-x/s.md`).
func TestR64H366ListedFileIsWork(t *testing.T) {
	requireGit(t)
	const (
		branch  = "feat/greet-name"
		log     = ".agents/sessions/2026-12-07-session-02.md"
		handoff = ".agents/handoffs/feat/greet-name/session-02.md"
		oldOne  = ".agents/handoffs/feat/greet-loud/session-01.md"
	)
	proto := fixtureProtocol(t, protoV14)
	template := string(proto)
	template = template[strings.Index(template, "```markdown\n# Session NN")+len("```markdown\n"):]
	template = template[:strings.Index(template, "\n```")]
	oldText := "# Handoff: feat/greet-loud, session 01 (2026-11-30)\n\n## Done\n\n" +
		"- scripts/greet.sh prints its greeting in capitals when --loud is given; commit 3f9a2c1.\n" +
		"- The test script checks the loud greeting and the plain one side by side.\n\n" +
		"## Decisions\n\n- Kept the flag parsing in plain sh rather than getopts, so busybox runs it.\n\n" +
		"## Next\n\n- Document --loud in README.md and add it to the usage line.\n"
	earlier := ".agents/handoffs/feat/greet-name/session-01.md"
	earlierText := "# Handoff: feat/greet-name, session 01\n\n## Done\n\n- Read scripts/greet.sh and planned the name argument: the first word is the name, none means World.\n\n## Next\n\n- Write it and a test in scripts/test.sh.\n"
	copied := strings.NewReplacer("feat/greet-loud", branch, "session 01", "session 02", "2026-11-30", "2026-12-07", "3f9a2c1", "9b8e7d6").Replace(oldText)
	honest := "# Handoff: feat/greet-name, session 02\n\n## Done\n\n" +
		"- scripts/greet.sh takes an optional name and greets World without one.\n\n" +
		"## Next\n\n- Document the name argument in README.md.\n"
	logText := "# Session 02 - 2026-12-07\n\n## Work\n\nscripts/greet.sh takes an optional name and greets World without one.\n\n## Next\n\nDocument the name argument in README.md.\n"
	for _, tc := range []struct {
		name   string
		branch string
		write  func(t *testing.T, root string)
		want   session.GateStatus
		says   string // in the check's message when it fails
	}{
		{"lazy: one line, any text", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, "x\n") }, session.StatusFail, "words of prose"},
		{"lazy: one line naming the script", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, "greet.sh done\n") }, session.StatusFail, "words of prose"},
		{"lazy: another name, one line", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, ".agents/handoffs/feat/greet-name/notes.txt", "see log\n")
		}, session.StatusFail, "words of prose"},
		{"lazy: only headings", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, handoff, "# Handoff: feat/greet-name\n\n## Done\n\n## Decisions\n\n## Next\n\nSetext heading\n==============\n")
		}, session.StatusFail, "words of prose"},
		{"lazy: an earlier branch's handoff, ids changed", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, copied) }, session.StatusFail, "near copy of " + oldOne},
		{"lazy: the session log template, unfilled", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, template) }, session.StatusFail, "placeholder"},
		{"lazy: prose naming nothing of the session", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, handoff, "# Handoff\n\nThe weather was fine today and the office was quiet all afternoon.\n")
		}, session.StatusFail, "names nothing this session did"},
		{"lazy: a symlink to the session log", branch, func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(handoff)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../../../sessions/2026-12-07-session-02.md", filepath.Join(root, handoff)); err != nil {
				t.Fatal(err)
			}
		}, session.StatusFail, "symbolic link"},
		{"lazy: a symlink to HANDOFF.md", branch, func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(handoff)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../../../HANDOFF.md", filepath.Join(root, handoff)); err != nil {
				t.Fatal(err)
			}
		}, session.StatusFail, ""},
		{"lazy: written, committed, then git rm'd", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, handoff, honest)
			gittest.Git(t, root, "add", handoff)
			gittest.Git(t, root, "commit", "-q", "-m", "docs: handoff")
			gittest.Git(t, root, "rm", "-q", handoff)
		}, session.StatusFail, ""},
		{"lazy: a line added to the branch's earlier handoff", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, earlier, earlierText+"x\n")
		}, session.StatusFail, "added to a file an earlier session wrote"},
		{"lazy: two words of the branch's earlier handoff changed", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, earlier, strings.NewReplacer("planned", "designed", "Write it", "Implement it").Replace(earlierText))
		}, session.StatusFail, "added to a file an earlier session wrote"},
		{"honest: the branch's earlier handoff brought up to date", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, earlier, earlierText+"\n## Session 02\n\n- scripts/greet.sh takes the name now; README.md is next.\n")
		}, session.StatusPass, ""},
		{"honest: a handoff of the session's work", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, honest) }, session.StatusPass, ""},
		{"honest: the handoff says what the session log says", branch, func(t *testing.T, root string) { gittest.Write(t, root, handoff, logText) }, session.StatusPass, ""},
		{"honest: a short one, in a sentence", branch, func(t *testing.T, root string) {
			gittest.Write(t, root, handoff, "# Handoff\n\nGreet takes a name. Next: docs.\n")
		}, session.StatusPass, ""},
		{"honest: on main, not applicable", "", func(t *testing.T, root string) {}, session.StatusSkipped, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			ctx := context.Background()
			e := newEnv(t, string(proto))
			gittest.Write(t, e.root, ".agents/HANDOFF.md", "# Handoff\n\nThe greeting script lives in scripts/greet.sh; run scripts/test.sh before committing.\n")
			gittest.Write(t, e.root, oldOne, oldText)
			if tc.branch != "" {
				gittest.Write(t, e.root, earlier, earlierText) // the branch's first session, before this one
			}
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho \"Hello, World\"\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "chore: earlier work")
			if tc.branch != "" {
				gittest.Git(t, e.root, "switch", "-q", "-c", tc.branch)
			}
			id := e.start("Greet takes a name")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho \"Hello, ${1:-World}\"\n")
			gittest.Write(t, e.root, log, logText)
			tc.write(t, e.root)
			g := e.gate(id, "DOCUMENTATION_UPDATE")
			var got *session.CheckResult
			for i, c := range g.Checks {
				if c.Kind == "changed_since_start" && strings.HasPrefix(c.Arg, ".agents/handoffs/") {
					got = &g.Checks[i]
				}
			}
			if got == nil {
				t.Fatalf("no .agents/handoffs/ check in %s", g.Message)
			}
			if got.Status != tc.want || !strings.Contains(got.Message, tc.says) {
				t.Fatalf("branch handoff check %s (%s), want %s saying %q", got.Status, got.Message, tc.want, tc.says)
			}
			t.Logf("%s: %s", got.Status, got.Message)
		})
	}
}
