package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR62H358QAReportSpeaks: under the real 2025-12-22 protocol, which of
// the QA folder's files speaks for QA_VALIDATION's report check. A notes
// file or a test log written after a failing report states no verdict and
// must not hide it; an older report from before the session, newer by
// its file time (a checkout, a touch), must not speak over the session's
// own; a verdict in a third table column is read.
func TestR62H358QAReportSpeaks(t *testing.T) {
	requireGit(t)
	const fail = "# QA Report\n\n- **Verdict**: FAIL — the name argument is dropped\n"
	const pass = "# QA Report\n\n- **Verdict**: PASS\n"
	type file struct{ rel, body string }
	for _, tt := range []struct {
		name   string
		old    []file // committed before the session starts
		files  []file // written in the session, in this order, a second apart
		touch  []string
		want   session.GateStatus
		inFail string
	}{
		{"lazy: a failing report, then notes with no verdict", nil,
			[]file{{".agents/qa/report.md", fail}, {".agents/qa/notes.md", "# Notes\n\nRan the suite twice.\n"}}, nil, session.StatusFail, "report.md"},
		{"lazy: a failing report, then a test log", nil,
			[]file{{".agents/qa/report.md", fail}, {".agents/qa/test-output.txt", "ok  greet 0.01s\n"}}, nil, session.StatusFail, "report.md"},
		{"lazy: the verdict in a third table column", nil,
			[]file{{".agents/qa/report.md", "# QA\n\n| Field | Value | Notes |\n| --- | --- | --- |\n| Verdict | FAIL | 3 tests fail |\n"}}, nil, session.StatusFail, "report.md"},
		{"lazy: an old passing report touched after the session's failing one",
			[]file{{".agents/qa/2026-11-01-old.md", pass}},
			[]file{{".agents/qa/2026-12-07-report.md", fail}}, []string{".agents/qa/2026-11-01-old.md"}, session.StatusFail, "2026-12-07-report.md"},
		{"honest: a failing report, the fix, a passing report, then notes", nil,
			[]file{{".agents/qa/run1.md", fail}, {".agents/qa/run2.md", pass}, {".agents/qa/notes.md", "# Notes\n"}}, nil, session.StatusPass, ""},
		{"honest: an old failing report, the session's passing one",
			[]file{{".agents/qa/2026-11-01-old.md", fail}},
			[]file{{".agents/qa/2026-12-07-report.md", pass}}, []string{".agents/qa/2026-11-01-old.md"}, session.StatusPass, ""},
		{"honest: a report with no verdict", nil,
			[]file{{".agents/qa/report.md", "# QA\n\nAll 12 checks passed.\n"}}, nil, session.StatusPass, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			for _, f := range tt.old {
				e.commitFile(f.rel, f.body)
			}
			id := e.start("qa verdict")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			at := time.Now().Add(-time.Minute)
			for i, f := range tt.files {
				gittest.Write(t, e.root, f.rel, f.body)
				touch(t, e.root, f.rel, at.Add(time.Duration(i)*time.Second))
			}
			for _, rel := range tt.touch {
				touch(t, e.root, rel, time.Now())
			}
			g := e.gate(id, "QA_VALIDATION")
			var got *session.CheckResult
			for i := range g.Checks {
				if (g.Checks[i].Kind == "file_exists" || g.Checks[i].Kind == "changed_since_start") && strings.HasPrefix(g.Checks[i].Arg, ".agents/qa/") {
					got = &g.Checks[i]
				}
			}
			if got == nil {
				t.Fatalf("no check on .agents/qa/ in %s", g.Message)
			}
			if got.Status != tt.want || tt.inFail != "" && !strings.Contains(got.Message, tt.inFail) {
				t.Fatalf("the report check (%s %s) %s: %s; want %s naming %q", got.Kind, got.Arg, got.Status, got.Message, tt.want, tt.inFail)
			}
		})
	}
}

// TestR62H358QAReportOwnFirst: a QA phase's file_exists without fresh
// (fresh=false) judges the session's own report before an older one: an
// old passing report whose file time is newer (a checkout, a touch) does
// not speak over the session's failing one.
func TestR62H358QAReportOwnFirst(t *testing.T) {
	requireGit(t)
	const proto = "# Session Protocol\n\n## Session Start Protocol\n\n### Phase 1: Context (REQUIRED)\n\n- The agent MUST read the README.\n\n## Session End Protocol\n\n### Phase 2: QA Validation (REQUIRED)\n\n<!-- gate: file_exists \".agents/qa/*\" fresh=false -->\n\n- The agent MUST validate the work.\n"
	for _, tt := range []struct {
		name      string
		old, mine string
		want      session.GateStatus
	}{
		{"lazy: an old passing report touched after the session's failing one", "# QA\n\n**Verdict:** PASS\n", "# QA\n\n**Verdict:** FAIL\n", session.StatusFail},
		{"honest: an old failing report touched after the session's passing one", "# QA\n\n**Verdict:** FAIL\n", "# QA\n\n**Verdict:** PASS\n", session.StatusPass},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, proto)
			e.commitFile(".agents/qa/2026-11-01-old.md", tt.old)
			id := e.start("qa verdict")
			gittest.Write(t, e.root, ".agents/qa/2026-12-07-mine.md", tt.mine)
			touch(t, e.root, ".agents/qa/2026-12-07-mine.md", time.Now().Add(-time.Minute))
			touch(t, e.root, ".agents/qa/2026-11-01-old.md", time.Now())
			g := e.gate(id, "QA_VALIDATION")
			var got *session.CheckResult
			for i := range g.Checks {
				if g.Checks[i].Kind == "file_exists" {
					got = &g.Checks[i]
				}
			}
			if got == nil || got.Status != tt.want {
				t.Fatalf("%+v, want %s", got, tt.want)
			}
		})
	}
}
