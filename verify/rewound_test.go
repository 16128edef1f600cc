package verify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/verify"
)

// TestVerifyRewoundSession (issue 25 item 8, round 27): a session of the
// range's branch that recorded an unlaunderable violation, that no commit
// of the range names, and that never ended (its database erased) or whose
// recorded commits all left the branch, fails the range: its work was
// reset away and the branch's commits were made around it (the full
// rewind, once records_push put its record on the remote). Honest twins:
// another branch's session, a violation that is not unlaunderable, an
// ended session whose commits shipped, a session from before the base.
func TestVerifyRewoundSession(t *testing.T) {
	const other = "0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec"
	bypass := func(m map[string]any) {
		m["violations"] = []any{map[string]any{"code": "BYPASS", "requirement": "pre-commit hook", "severity": "CRITICAL", "at": m["session"].(map[string]any)["started_at"]}}
	}
	open := func(m map[string]any) {
		s := m["session"].(map[string]any)
		s["state"] = "WORKING"
		delete(s, "ended_at")
		delete(s, "end_commit")
	}
	commitsGone := func(m map[string]any) {
		for _, sn := range m["snapshots"].([]any) {
			st := sn.(map[string]any)["state"].(map[string]any)
			evs, _ := st["evidence"].([]any)
			for _, ev := range evs {
				e := ev.(map[string]any)
				if e["kind"] == "commit_sha" {
					e["sha256"] = strings.Repeat("ab", 32)
				}
			}
		}
	}
	for _, c := range []struct {
		name  string
		edits []func(m map[string]any)
		warn  bool
		want  string // "" passes
	}{
		{"lazy: never ended, BYPASS, this branch", []func(m map[string]any){bypass, open}, false, "never ended, and no commit of this range names it"},
		{"lazy: ended, BYPASS, its commits gone from the branch", []func(m map[string]any){bypass, commitsGone}, false, "none of the 1 commit(s) it recorded is in this branch's history"},
		{"lazy under verify.violations: warn", []func(m map[string]any){bypass, open}, true, ""},
		{"honest: another branch's open BYPASS session", []func(m map[string]any){bypass, open, func(m map[string]any) { m["session"].(map[string]any)["branch"] = "feat/other" }}, false, ""},
		{"honest: never ended, no unlaunderable violation", []func(m map[string]any){open, func(m map[string]any) {
			m["violations"] = []any{map[string]any{"code": "SEQUENCE", "severity": "LOW", "at": m["session"].(map[string]any)["started_at"]}}
		}}, false, ""},
		{"honest: ended, BYPASS, its commit on the branch", []func(m map[string]any){bypass}, false, ""},
		{"honest: never ended, BYPASS, started before the range's base", []func(m map[string]any){bypass, open, func(m map[string]any) {
			m["session"].(map[string]any)["started_at"] = time.Now().Add(-48 * time.Hour).UTC().Format(time.RFC3339Nano)
		}}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, _, rec := setupRef(t)
			body := edit(t, rec, func(m map[string]any) {
				m["session_id"] = other
				for _, f := range c.edits {
					f(m)
				}
			})
			replaceRecord(t, repo.Root(), other, body)
			opts := verify.Options{RecordPath: ref}
			if c.warn {
				opts.Violations = "warn"
			}
			// The range holds the first session's commit only: the other
			// session is named by none of them.
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", opts)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, cr := range rep.Commits {
				text.WriteString(cr.Status + " " + strings.Join(cr.Problems, "; ") + "\n")
			}
			switch {
			case c.want == "" && !rep.OK:
				t.Fatalf("a false FAIL:\n%s", text.String())
			case c.want != "" && (rep.OK || !strings.Contains(text.String(), c.want)):
				t.Fatalf("route gets through (ok=%v), want %q:\n%s", rep.OK, c.want, text.String())
			case c.warn && !strings.Contains(text.String(), "verify.violations: warn lets it pass"):
				t.Fatalf("warn mode says nothing:\n%s", text.String())
			}
		})
	}
}
