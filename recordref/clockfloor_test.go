package recordref_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestFindClockFloorForgedDates: the floor and "written since" were read
// from git log's default order, which walks by committer date, and a
// committer date is the writer's word (GIT_COMMITTER_DATE). A record
// without clock_version written on a commit that descends from the first
// clock_version record, dated 2001 and merged in, was listed before the
// floor (not "since": the downgrade passed); a clock_version record dated
// 2001 on a side line moved the floor past a downgrade before it. Both
// failed on the old code (WrittenSince false), for the clock_version floor
// and the v2 schema's alike (one listing, findFloor). Honest twin: the same
// records in a linear history with true dates; the record written before
// the floor stays before it in every row; and an older clone's record
// written before the floor and merged after it (recordref.Merge, its tip
// the first parent) is not "since": a merged line that does not descend
// from the floor is listed in the merge's parent order, which no check
// here can tell from a writer's choice (verify's second test, the
// session's commit descending from the floor session's start, holds).
func TestFindClockFloorForgedDates(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	// The rows write records of the floor (newer) or without it, for the
	// floor under test: clock_version 1, or the v2 schema (FindSchemaFloor
	// reads the same listing).
	schemaFloor := false
	rec := func(id string, newer bool) recordref.Record {
		schema, cv := "sessiongate.session-record.v2", ""
		switch {
		case schemaFloor && !newer:
			schema = "sessiongate.session-record.v1"
		case !schemaFloor && newer:
			cv = `"clock_version":1,`
		}
		return recordref.Record{SessionID: id, Body: []byte(`{"schema":"` + schema + `",` + cv + `"session_id":"` + id + `","session":{"start_commit":"c0ffee"}}` + "\n")}
	}
	put := func(t *testing.T, dir string, r recordref.Record) string {
		tip, err := recordref.Put(ctx, dir, ref, []recordref.Record{r})
		if err != nil {
			t.Fatal(err)
		}
		return tip
	}
	// redate writes commit c again with committer date 2001 onto parents.
	redate := func(t *testing.T, dir, c string, parents ...string) string {
		args := []string{"commit-tree", c + "^{tree}", "-m", "sessiongate records: redated"}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2001-01-01T00:00:00Z")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git commit-tree: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	// Sessions: 0 written before the floor, 1 the floor, 2 a downgrade
	// after it, 3 a later clock_version record.
	rows := []struct {
		name  string
		build func(t *testing.T, dir string, ids []string) string // the ref's tip
		floor int                                                 // the floor's session
		since []bool                                              // WrittenSince per session
	}{
		{"honest: linear, true dates", func(t *testing.T, dir string, ids []string) string {
			put(t, dir, rec(ids[0], false))
			put(t, dir, rec(ids[1], true))
			put(t, dir, rec(ids[3], true))
			return put(t, dir, rec(ids[2], false))
		}, 1, []bool{false, true, true, true}},
		{"forged: a downgrade on the floor dated 2001, merged", func(t *testing.T, dir string, ids []string) string {
			put(t, dir, rec(ids[0], false))
			floor := put(t, dir, rec(ids[1], true))
			main := put(t, dir, rec(ids[3], true))
			run(t, dir, "update-ref", ref, floor)
			side := redate(t, dir, put(t, dir, rec(ids[2], false)), floor)
			// The merge holds every record: the main line's tree plus the side's record.
			run(t, dir, "update-ref", ref, main)
			m := put(t, dir, rec(ids[2], false))
			return redate(t, dir, m, main, side)
		}, 1, []bool{false, true, true, true}},
		{"forged: a later clock_version record dated 2001 moves the floor past a downgrade", func(t *testing.T, dir string, ids []string) string {
			put(t, dir, rec(ids[0], false))
			floor := put(t, dir, rec(ids[1], true))
			down := redate(t, dir, put(t, dir, rec(ids[2], false)), floor)
			run(t, dir, "update-ref", ref, down)
			later := redate(t, dir, put(t, dir, rec(ids[3], true)), down)
			run(t, dir, "update-ref", ref, floor)
			main := run(t, dir, "commit-tree", floor+"^{tree}", "-p", floor, "-m", "sessiongate records: main")
			return run(t, dir, "commit-tree", later+"^{tree}", "-p", main, "-p", later, "-m", "sessiongate records: merge")
		}, 1, []bool{false, true, true, true}},
		{"honest: an older clone's record written before the floor, merged after it", func(t *testing.T, dir string, ids []string) string {
			a := put(t, dir, rec(ids[0], false))
			side := put(t, dir, rec(ids[2], false)) // the older clone's tip
			run(t, dir, "update-ref", ref, a)
			put(t, dir, rec(ids[1], true))
			main := put(t, dir, rec(ids[3], true))
			// The older clone fetches and merges: its tip is the first parent.
			run(t, dir, "update-ref", ref, side)
			m, err := recordref.Merge(ctx, dir, ref, main)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, 1, []bool{false, true, false, true}},
	}
	for _, fl := range []struct {
		name   string
		schema bool
	}{{"clock_version", false}, {"v2 schema", true}} {
		for _, c := range rows {
			t.Run(fl.name+"/"+c.name, func(t *testing.T) {
				schemaFloor = fl.schema
				dir := newRepo(t)
				ids := []string{uuid(t), uuid(t), uuid(t), uuid(t)}
				tip := c.build(t, dir, ids)
				run(t, dir, "update-ref", ref, tip)
				find := func() (*recordref.SchemaFloor, error) { return recordref.FindClockFloor(ctx, dir, tip, 1) }
				if fl.schema {
					find = func() (*recordref.SchemaFloor, error) {
						return recordref.FindSchemaFloor(ctx, dir, tip, "sessiongate.session-record.v2")
					}
				}
				f, err := find()
				if err != nil {
					t.Fatal(err)
				}
				if !f.Found || f.First.SessionID != ids[c.floor] {
					t.Fatalf("floor %+v, want session %d's record (%s)", f.First, c.floor, ids[c.floor])
				}
				for i, want := range c.since {
					if got := f.WrittenSince(ids[i]); got != want {
						t.Errorf("session %d: written since the floor %v, want %v", i, got, want)
					}
				}
			})
		}
	}
}
