package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR62H359HonestQAReportOfRerun: under the team's 2025-12-22 protocol
// an honest QA report listing the failing run, the fix and the passing
// re-run (each with a bare "Result:") failed QA_VALIDATION's report check
// on its first "Result: FAIL" (helper 359). Its lazy twin, a re-run that
// failed too, still fails.
func TestR62H359HonestQAReportOfRerun(t *testing.T) {
	requireGit(t)
	const honest = "# QA Report: greet\n\n## First run\n\n**Result**: FAIL — TestGreet expected 'Hello, Ann'\n\n## Fix\n\nTrimmed the newline in scripts/greet.sh.\n\n## Re-run\n\n**Result**: PASS — 3/3 tests\n"
	const lazy = "# QA Report: greet\n\n## First run\n\n**Result**: FAIL — TestGreet expected 'Hello, Ann'\n\n## Re-run\n\n**Result**: FAIL — same test\n"
	for _, tt := range []struct {
		name, report string
		want         session.GateStatus
	}{
		{"honest: failing run, fix, passing re-run", honest, session.StatusPass},
		{"lazy: the re-run failed too", lazy, session.StatusFail},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			id := e.start("qa verdict")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			gittest.Write(t, e.root, ".agents/qa/2026-12-07-greet.md", tt.report)
			g := e.gate(id, "QA_VALIDATION")
			var fileCheck *session.CheckResult
			for i := range g.Checks {
				if g.Checks[i].Kind == "file_exists" && strings.HasPrefix(g.Checks[i].Arg, ".agents/qa/") {
					fileCheck = &g.Checks[i]
				}
			}
			if fileCheck == nil {
				t.Fatalf("no file_exists check on .agents/qa/ in %s", g.Message)
			}
			if fileCheck.Status != tt.want {
				t.Fatalf("the report check %s (%s), want %s", fileCheck.Status, fileCheck.Message, tt.want)
			}
		})
	}
}

// TestR62H359HonestSessionLogs: under the team's 2025-12-22 protocol two
// honest session logs of a session that changed and committed
// scripts/greet.sh failed DOCUMENTATION_UPDATE's session-log check
// (helper 359): one that continues "the session abandoned on
// 2026-11-20" (as the team's session 91b did), and one committed with the
// code that names the files by their folder ("scripts/"). Their lazy
// twins, a log saying this session was abandoned and one naming only the
// protocol's folders, still fail.
func TestR62H359HonestSessionLogs(t *testing.T) {
	const log = ".agents/sessions/2026-11-21-session-02.md"
	continued := "# Session 02 - 2026-11-21\n\n## Session Info\n\n- **Objective**: Greet takes a name\n- Continues the work of the session abandoned on 2026-11-20 (session 01).\n\n## Work Log\n\n- `scripts/greet.sh`: takes an optional name\n\n### Commits This Session\n\n- committed with this log\n"
	byFolder := "# Session 02 - 2026-11-21\n\n## Work Log\n\n- Added an optional name to the greeting script in `scripts/`.\n\n### Commits This Session\n\n- committed with this log\n"
	for _, tc := range []struct {
		name, log string
		want      string // "" passes
	}{
		{"honest: continues the abandoned session", continued, ""},
		{"honest: names the folder", byFolder, ""},
		{"lazy: this session was abandoned", strings.Replace(continued, "Continues the work of the session abandoned on 2026-11-20 (session 01).", "This session was abandoned on 2026-11-21.", 1), "abandoned"},
		{"lazy: names only the protocol's folders", "# Session 02\n\n| MUST | List skill scripts in `.claude/skills/github/scripts/` | [x] |\n\nRead `.agents/HANDOFF.md`.\n", "names none of the files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			e := newEnv(t, string(fixtureProtocol(t, protoV14)))
			e.commitFile("scripts/greet.sh", "#!/bin/sh\necho hello\n")
			id := e.start("Greet takes a name")
			gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho \"hello ${1:-world}\"\n")
			gittest.Write(t, e.root, log, tc.log)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-qm", "feat(scripts): greet takes a name, with the session log")
			c := sessionLogCheck(t, e.gate(id, "DOCUMENTATION_UPDATE"))
			if tc.want == "" {
				if c.Status != session.StatusPass {
					t.Fatalf("honest log: %s %s", c.Status, c.Message)
				}
				return
			}
			if c.Status != session.StatusFail || !strings.Contains(c.Message, tc.want) {
				t.Fatalf("lazy log: %s %q, want a failure naming %q", c.Status, c.Message, tc.want)
			}
		})
	}
}

// TestR62H359HonestSkillListing: the 2025-12-22 protocol's skill listing
// recorded as the agent saw it, naming the scripts and, by path, a test
// file of the skill's tests folder, was refused as naming a script the
// folder does not hold (helper 359). A made-up script is still refused.
func TestR62H359HonestSkillListing(t *testing.T) {
	doc := fixtureProtocol(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	ctx := context.Background()
	e := newEnv(t, string(doc))
	gittest.Write(t, e.root, ".claude/skills/github/scripts/pr/Get-PRContext.ps1", "# Get-PRContext\n")
	gittest.Write(t, e.root, ".claude/skills/github/scripts/issue/Post-IssueComment.ps1", "# Post-IssueComment\n")
	gittest.Write(t, e.root, ".claude/skills/github/tests/Get-PRContext.Tests.ps1", "# tests\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "skills")
	id := e.start("skills")
	const req = "SKILL_VALIDATION.list-available-github-skill"
	lazy := "Get-PRContext.ps1\nNew-Release.ps1\n(Pester tests in .claude/skills/github/tests/Get-PRContext.Tests.ps1)\n"
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceToolOutput, Evidence: lazy}); err == nil || !strings.Contains(err.Error(), "New-Release.ps1") {
		t.Fatalf("a made-up script: %v, want a refusal naming it", err)
	}
	honest := "Get-PRContext.ps1\nPost-IssueComment.ps1\n(Pester tests in .claude/skills/github/tests/Get-PRContext.Tests.ps1)\n"
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceToolOutput, Evidence: honest}); err != nil {
		t.Fatalf("the listing naming the skill's tests by path (honest): %v", err)
	}
}
