package verify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/verify"
)

// TestR56RewoundFutureDatedBase: the rewound-session check skips sessions
// "started before the range's base" by the base commit's committer time,
// which its writer chose. A commit on main dated ahead
// (GIT_COMMITTER_DATE=2030..., an agent's session commit fast-forwarded to
// main) makes every later session look older than the base of any range
// forked from it: a session of the branch that recorded a BYPASS and was
// rewound away (records_push had sent it) then passes. The same range with
// a truthful date fails (TestVerifyRewoundSession's first row).
func TestR56RewoundFutureDatedBase(t *testing.T) {
	const other = "0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec"
	t.Setenv("GIT_COMMITTER_DATE", "2030-01-01T00:00:00Z") // the base (and the range's commit) dated ahead
	repo, base, _, rec := setupRef(t)
	body := edit(t, rec, func(m map[string]any) {
		m["session_id"] = other
		s := m["session"].(map[string]any)
		m["violations"] = []any{map[string]any{"code": "BYPASS", "requirement": "pre-commit hook", "severity": "CRITICAL", "at": s["started_at"]}}
		s["state"] = "WORKING"
		delete(s, "ended_at")
		delete(s, "end_commit")
		for _, sn := range m["snapshots"].([]any) {
			st := sn.(map[string]any)["state"].(map[string]any)
			evs, _ := st["evidence"].([]any)
			for _, ev := range evs {
				if e := ev.(map[string]any); e["kind"] == "commit_sha" {
					e["sha256"] = strings.Repeat("ab", 32)
				}
			}
		}
	})
	replaceRecord(t, repo.Root(), other, body)
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, cr := range rep.Commits {
		text.WriteString(cr.Status + " " + strings.Join(cr.Problems, "; ") + "\n")
	}
	if rep.OK || !strings.Contains(text.String(), "never ended") {
		t.Fatalf("a rewound BYPASS session passes when the range's base is dated ahead (ok=%v):\n%s", rep.OK, text.String())
	}
}
