package verify_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/verify"
)

// withEndState returns rec with its final snapshot's state and the
// session's state set to state (ended_at kept), the snapshot ids and the
// envelope recomputed: a well-formed record, as the writer would make it.
// "" keeps the state and drops ended_at: a version written mid-session.
func withEndState(t *testing.T, rec []byte, state string) []byte {
	t.Helper()
	var r snapshot.Record
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	last := len(r.Snapshots) - 1
	switch state {
	case "":
		r.Snapshots[last].State.State = "WORKING"
		r.Session.State, r.Session.EndedAt = "WORKING", ""
	default:
		r.Snapshots[last].State.State = state
		r.Session.State = state
	}
	id, _, err := r.Snapshots[last].ID()
	if err != nil {
		t.Fatal(err)
	}
	r.Envelope.Snapshot.StateSnapshotID = id
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVerifyEndStateRewritten (round 21, played in CI with the real
// binary): a session abandoned with its QA never run (superseded by a
// new `session start`) has its record written ABANDONED onto the records
// ref; verify failed its commit. A second version of the record, the
// final snapshot's state set to COMPLETE and its mandatory gates PASSED,
// the ids recomputed with `sessiongate snapshot id` and end_commit set,
// pushed as a fast-forward of the ref: exit 0 on the old code, since only
// times and violations were compared across versions. A session ends
// once: the state of the first version that has an end is the session's.
// Honest twins: a version written mid-session (a violation published
// while WORKING) then the COMPLETE end, and an ended record written again
// unchanged (a violation found after the end is appended this way).
func TestVerifyEndStateRewritten(t *testing.T) {
	for _, c := range []struct {
		name     string
		versions []string // end states of the versions put before the tip ("" = mid-session)
		tip      string
		want     string // "" passes
	}{
		{"laundered: ABANDONED, then COMPLETE", []string{"ABANDONED"}, "COMPLETE", "version with an end on the records ref said ABANDONED"},
		{"laundered: TERMINATED, then COMPLETE", []string{"TERMINATED"}, "COMPLETE", "version with an end on the records ref said TERMINATED"},
		{"laundered: mid-session, ABANDONED, then COMPLETE", []string{"", "ABANDONED"}, "COMPLETE", "said ABANDONED"},
		{"honest: mid-session, then COMPLETE", []string{""}, "COMPLETE", ""},
		{"honest: COMPLETE written again", []string{"COMPLETE"}, "COMPLETE", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			// The versions come first: the ref as it was before the
			// session's end wrote its record (its pins kept).
			p, _ := recordref.Path(id)
			added := gittest.Git(t, dir, "log", "--format=%H", "--diff-filter=A", ref, "--", p)
			gittest.Git(t, dir, "update-ref", ref, added+"^")
			for _, st := range c.versions {
				replaceRecord(t, dir, id, withEndState(t, rec, st))
			}
			replaceRecord(t, dir, id, append(withEndState(t, rec, c.tip), '\n'))
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
			if err != nil {
				t.Fatal(err)
			}
			problems := strings.Join(rep.Commits[0].Problems, "\n")
			if c.want == "" {
				if !rep.OK {
					t.Fatalf("honest record failed:\n%s", problems)
				}
				return
			}
			if rep.OK || !strings.Contains(problems, c.want) || !strings.Contains(problems, p) {
				t.Fatalf("want a failure naming %q, got OK=%v:\n%s", c.want, rep.OK, problems)
			}
		})
	}
}
