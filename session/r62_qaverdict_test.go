package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR62QAReportVerdict: under the team's 2025-12-22 protocol
// QA_VALIDATION's gate is a fresh file under .agents/qa/ ("QA report
// exists", "QA agent confirms validation passed"). A fresh report whose
// own verdict was "FAIL. Critical: ..." passed it (round 61, helper 353).
// The newest report the session wrote speaks for it.
func TestR62QAReportVerdict(t *testing.T) {
	requireGit(t)
	const pass = "# QA Report: greet\n\n- **Verdict**: PASS\n\nAll 3 checks passed.\n"
	const fail = "# QA Report\n\n## Verdict\n\nFAIL. Critical: the login flow drops the session cookie.\n"
	for _, tt := range []struct {
		name    string
		reports []string // written in this order, a second apart
		want    session.GateStatus
	}{
		{"lazy: a fresh report whose verdict fails the work", []string{fail}, session.StatusFail},
		{"lazy: a pass, then a failing report after the last change", []string{pass, fail}, session.StatusFail},
		{"honest: a failing report, the fix, then a passing one", []string{fail, pass}, session.StatusPass},
		{"honest: a passing report", []string{pass}, session.StatusPass},
		{"honest: a report that states no verdict", []string{"# QA report\n\nAll 12 checks passed.\n"}, session.StatusPass},
		{"honest: failing test output quoted, verdict PASS", []string{"# QA\n\n```text\n--- FAIL: TestGreet (first run)\n```\n\nFixed the expectation; re-ran.\n\n**Verdict**: PASS\n"}, session.StatusPass},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			id := e.start("qa verdict")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			at := time.Now().Add(-time.Minute)
			for i, body := range tt.reports {
				rel := ".agents/qa/2026-12-07-report-" + string(rune('a'+i)) + ".md"
				gittest.Write(t, e.root, rel, body)
				touch(t, e.root, rel, at.Add(time.Duration(i)*time.Second))
			}
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
			if tt.want == session.StatusFail && !strings.Contains(fileCheck.Message, `verdict "FAIL"`) {
				t.Fatalf("the failure does not name the report's verdict: %s", fileCheck.Message)
			}
		})
	}
}

// touch sets a work-tree file's modification time.
func touch(t *testing.T, root, rel string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), at, at); err != nil {
		t.Fatal(err)
	}
}

// TestR62QAReportVerdictAsEvidence: the same report named as a QA
// requirement's file evidence is refused, and a passing one is taken.
func TestR62QAReportVerdictAsEvidence(t *testing.T) {
	requireGit(t)
	e := newEnv(t, realProtocol(t, protoV14))
	ctx := context.Background()
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	id := e.start("qa verdict")
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
		t.Fatal(err)
	}
	const req = "QA_VALIDATION.invoke-qa-after-completing"
	gittest.Write(t, e.root, ".agents/qa/fail.md", "# QA\n\n**Verdict:** CRITICAL_FAIL\n")
	_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceFilePath, Evidence: ".agents/qa/fail.md"})
	if err == nil || !strings.Contains(err.Error(), "CRITICAL_FAIL") {
		t.Fatalf("a failing report as QA evidence: %v, want a refusal naming its verdict", err)
	}
	gittest.Write(t, e.root, ".agents/qa/pass.md", "# QA\n\n**Verdict:** PASS\n")
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceFilePath, Evidence: ".agents/qa/pass.md"}); err != nil {
		t.Fatalf("a passing report (honest): %v", err)
	}
}
