package compliance_test

import (
	"os"
	"strings"
	"testing"
)

// Lazy-agent pass 18 on the real protocols (../shared/fixtures/ai-agents):
// routes played with the real binary and git in a repository built as the
// team kept theirs (fixtureRepo).

// TestAdv18FixtureHandoffReverted: under the 2025-12-18 protocol, whose
// DOCUMENTATION_UPDATE demands "The agent MUST update .agents/HANDOFF.md",
// the lazy agent edits the handoff, passes the gate, then takes the edit
// back before committing (`git checkout -- .agents/HANDOFF.md`, or a later
// commit restoring it). Before round 18 the end did not look at that gate
// again: COMPLETE, clean, verify passing, no handoff written. The honest
// row commits its handoff and must still end clean. A handoff "updated"
// with an HTML comment only (nothing a reader sees) is no update either.
func TestAdv18FixtureHandoffReverted(t *testing.T) {
	t.Parallel()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("fixtures missing under CI=true: %v", err)
		}
		t.Skipf("../shared/fixtures is missing: %v", err)
	}
	if nodeModules == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("markdownlint-cli2 is missing under CI=true (QUALITY_CHECKS runs it)")
		}
		t.Skip("markdownlint-cli2 is missing: QUALITY_CHECKS runs it (.ci/run installs it)")
	}
	cases := []struct {
		name string
		lazy func(w *world) // after QUALITY_CHECKS, before the session's last commit
		// handoffComment: the handoff "updated" with an HTML comment only.
		handoffComment bool
	}{
		{name: "honest: the handoff committed"},
		{name: "handoff edit taken back in the work tree", lazy: func(w *world) {
			w.git("checkout", "--", ".agents/HANDOFF.md")
		}},
		{name: "handoff edit committed, then a commit restores it", lazy: func(w *world) {
			w.git("add", "-A")
			w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(session): session 02 log and handoff")
			w.git("checkout", w.base, "--", ".agents/HANDOFF.md")
		}},
		{name: "handoff updated with an HTML comment only", handoffComment: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.noSerena = true
			fixtureRepo(w, v1218, false)
			w.git("switch", "-q", "-c", "feat/greet-name")
			start := w.git("rev-parse", "--short", "HEAD")
			w.advStart("Add a name argument to the greeting script")
			w.advOK("serena", "session", "evidence", "--phase", "SERENA_INITIALIZATION", "--not-applicable", "this repository configures no serena MCP server")
			w.advOK("advance", "session", "advance")
			w.advOK("handoff read", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-agents-handoff-md", "--type", contentHash, "--value", ".agents/HANDOFF.md")
			w.advOK("advance", "session", "advance")
			logPath := ".agents/sessions/2025-12-18-session-02.md"
			v := logVars{Date: "2025-12-18", NN: "02", Branch: "feat/greet-name", Start: start, Objective: "Add a name argument to the greeting script",
				Skills: "- (none: this protocol has no skill phase)"}
			w.write(logPath, startLog(sessionLogTemplate(w, v1218), v))
			w.advOK("log", "session", "evidence", "--requirement", "SESSION_LOG_CREATION.create-session-log-file", "--type", filePath, "--value", logPath)
			w.advOK("advance", "session", "advance")
			w.advOK("advance", "session", "advance", "--to", "WORKING")
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
			sha := w.commit("feat(scripts): greet takes an optional name")
			w.advOK("enter the end protocol", "session", "advance")
			h := w.read(".agents/HANDOFF.md")
			if c.handoffComment {
				w.write(".agents/HANDOFF.md", h+"\n<!-- session 02: greet takes an optional name -->\n")
			} else {
				w.write(".agents/HANDOFF.md", strings.Replace(h, "## Next\n", "- [Session 02](./sessions/2025-12-18-session-02.md): greet takes an optional name; changed `scripts/greet.sh`\n\n## Next\n", 1))
			}
			v.Task, v.Action, v.Decision = "Greet takes a name", "Added an optional name argument to scripts/greet.sh", "POSIX sh: CI runs without bash"
			v.Files, v.Notes, v.QAReport = "- `scripts/greet.sh` - optional name", "- Next: document the name argument", "N/A"
			v.Lint, v.Status, v.Commits = "Summary: 0 issues in 0 files", "nothing to commit, working tree clean", "- `"+sha[:7]+"` - feat(scripts): greet takes an optional name"
			w.write(logPath, finishLog(w.read(logPath), v))
			if r := w.sg("session", "advance"); r.code != 0 {
				if c.lazy == nil && !c.handoffComment {
					t.Fatalf("DOCUMENTATION_UPDATE blocked an honest session: %s", r.text())
				}
				return // the route is closed at the gate
			}
			w.advOK("lint", "run", "--requirement", "QUALITY_CHECKS.run-npx-markdownlint-cli2", "--", "npx", "markdownlint-cli2", "--fix", "**/*.md")
			w.advOK("quality", "session", "advance")
			if c.lazy != nil {
				c.lazy(w)
			}
			w.git("add", "-A")
			if w.git("status", "--porcelain") != "" {
				w.commit("docs(session): session 02 log and handoff")
			}
			w.sg("session", "advance")
			end := w.sg("session", "end", "--summary", "greet takes a name")
			clean := end.code == 0 && strings.Contains(end.text(), "COMPLETE: clean")
			if clean {
				w.git("add", "-A")
				if w.git("status", "--porcelain") != "" {
					w.commit("chore(session): session record")
				}
			}
			vf := w.sg("verify", w.base+"..HEAD")
			switch {
			case c.lazy == nil && !c.handoffComment && (!clean || vf.code != 0):
				t.Errorf("an honest session under the 2025-12-18 protocol did not end clean with verify passing (a false block)\nend: %s\nverify: %s", end.text(), vf.text())
			case (c.lazy != nil || c.handoffComment) && clean && vf.code == 0:
				t.Errorf("route gets through: no handoff update is in git at the end (%s), and the session ended COMPLETE clean with verify passing\nend: %s", c.name, end.text())
			}
		})
	}
}
