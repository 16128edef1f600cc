package verify_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/verify"
)

// withViolation returns rec with a violation mark added to its final
// snapshot (after the one the commit names), the snapshot ids and the envelope recomputed: a well-formed
// record, as the writer would make it (the ids are content hashes anyone
// can compute).
func withViolation(t *testing.T, rec []byte, mark string) []byte {
	t.Helper()
	var r snapshot.Record
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	var last string
	for i := range r.Snapshots {
		if mark != "" && i == len(r.Snapshots)-1 {
			r.Snapshots[i].State.Violations = append(r.Snapshots[i].State.Violations, mark)
		}
		id, _, err := r.Snapshots[i].ID()
		if err != nil {
			t.Fatal(err)
		}
		last = id
	}
	r.Envelope.Snapshot.StateSnapshotID = last
	if mark != "" {
		code, phase, _ := strings.Cut(mark, ":")
		r.Violations = append(r.Violations, snapshot.ViolationRef{Code: code, Phase: phase, Severity: "HIGH", At: r.Session.StartedAt})
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVerifyViolationRewrittenAway (issue 25 item 8): a record on the ref
// that carried a violation, written again well-formed without it (its
// snapshot ids recomputed), passed verify: the tip was all verify read.
// A violation any version of the record carried must stay in it. Honest
// twins: a record written again with its violation kept still fails for
// the violation itself (under warn it passes), and one that never had one
// passes.
func TestVerifyViolationRewrittenAway(t *testing.T) {
	const mark = "FORCED_ADVANCE:CONTEXT_RETRIEVAL"
	for _, c := range []struct {
		name     string
		versions []string // violation marks of the versions put after the session's own
		want     string   // "" passes under verify.violations: warn
	}{
		{"laundered: a version had the violation, the tip does not", []string{mark, ""}, "no longer carries FORCED_ADVANCE:CONTEXT_RETRIEVAL"},
		{"honest: the violation kept", []string{mark, mark}, ""},
		{"honest: never a violation", []string{"", ""}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			for i, m := range c.versions {
				b := withViolation(t, rec, m)
				if i > 0 {
					b = append(b, '\n') // a new blob even when equal
				}
				replaceRecord(t, dir, id, b)
			}
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref, Violations: "warn"})
			if err != nil {
				t.Fatal(err)
			}
			cm := rep.Commits[0]
			problems := strings.Join(cm.Problems, "\n")
			if c.want == "" {
				if !rep.OK {
					t.Fatalf("honest record failed: %s\n%s", cm.Status, problems)
				}
				return
			}
			p, _ := recordref.Path(id)
			if rep.OK || !strings.Contains(problems, c.want) || !strings.Contains(problems, p) {
				t.Fatalf("want a failure naming %q, got %s:\n%s", c.want, cm.Status, problems)
			}
		})
	}
}

// TestVerifyViolationMergedAway: the versions were listed with `git log --
// PATH`, whose history simplification follows one TREESAME parent of a
// merge. A merge whose first parent is a side commit holding the record
// without its violation, and whose second is the ref's tip (so the push
// is a fast-forward), hid the version that carried it: the laundered row
// passed on the old code. Honest twin: the same merge keeping the
// violation (as sessiongate's own union of two clones' refs does) passes
// under warn.
func TestVerifyViolationMergedAway(t *testing.T) {
	const mark = "FORCED_ADVANCE:CONTEXT_RETRIEVAL"
	for _, c := range []struct {
		name   string
		merged string // the violation mark the merge's record carries
		want   string
	}{
		{"laundered: merged onto a side commit without it", "", "no longer carries FORCED_ADVANCE:CONTEXT_RETRIEVAL"},
		{"honest: the merge keeps it", mark, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			replaceRecord(t, dir, id, withViolation(t, rec, mark))
			marked := gittest.Git(t, dir, "rev-parse", ref)
			// The side commit: the marked version's parent, the record
			// written again with c.merged's marks.
			gittest.Git(t, dir, "update-ref", ref, marked+"^")
			replaceRecord(t, dir, id, append(withViolation(t, rec, c.merged), '\n'))
			side := gittest.Git(t, dir, "rev-parse", ref)
			m := gittest.Git(t, dir, "commit-tree", side+"^{tree}", "-p", side, "-p", marked, "-m", "merge")
			gittest.Git(t, dir, "update-ref", ref, m)
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref, Violations: "warn"})
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
			if rep.OK || !strings.Contains(problems, c.want) {
				t.Fatalf("want a failure naming %q, got OK=%v:\n%s", c.want, rep.OK, problems)
			}
		})
	}
}

// TestVerifyRecordTimesMergedIn: started_at and ended_at are what the
// record's first versions on the ref said, and "first" is git's date
// order. A side commit dated earlier, holding the record with its end
// moved past a forged late event, merged onto the ref's tip (a
// fast-forward, the merge's tree the side's), came first: the laundered
// row passed on the old code (OK). A session starts and ends once, so
// versions that disagree fail. Honest twin: the same merge of a side
// commit that only re-writes the record as it was passes.
func TestVerifyRecordTimesMergedIn(t *testing.T) {
	for _, c := range []struct {
		name string
		side func(t *testing.T, rec []byte) []byte
		want string
	}{
		{"laundered: the end moved on an earlier-dated side commit", func(t *testing.T, rec []byte) []byte {
			return edit(t, rec, func(m map[string]any) {
				lateEvent(m)
				end, _ := time.Parse(time.RFC3339Nano, m["session"].(map[string]any)["ended_at"].(string))
				m["session"].(map[string]any)["ended_at"] = end.Add(2 * time.Hour).Format(time.RFC3339Nano)
			})
		}, "say different ended_at"},
		{"honest: the side commit re-writes the record unchanged", func(t *testing.T, rec []byte) []byte { return append(append([]byte{}, rec...), '\n') }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			tip := gittest.Git(t, dir, "rev-parse", ref)
			gittest.Git(t, dir, "update-ref", ref, tip+"^")
			t.Setenv("GIT_COMMITTER_DATE", "2001-01-01T00:00:00Z")
			replaceRecord(t, dir, id, c.side(t, rec))
			side := gittest.Git(t, dir, "rev-parse", ref)
			m := gittest.Git(t, dir, "commit-tree", side+"^{tree}", "-p", side, "-p", tip, "-m", "merge")
			gittest.Git(t, dir, "update-ref", ref, m)
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
			if rep.OK || !strings.Contains(problems, c.want) {
				t.Fatalf("want a failure naming %q, got OK=%v:\n%s", c.want, rep.OK, problems)
			}
		})
	}
}
