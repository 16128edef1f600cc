package recordref_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestFindSchemaFloor (issue 25 route 2): the first v2 record on a records
// ref marks where v1 records stop being honest. A v1 record written before
// it is not "since"; the v2 record, and a later v1 one, are; a v2 record
// later rewritten as v1 still is (its first version was v2); a ref of v1
// records only has no floor.
func TestFindSchemaFloor(t *testing.T) {
	const v1, v2 = "sessiongate.session-record.v1", "sessiongate.session-record.v2"
	rec := func(id, schema string) recordref.Record {
		return recordref.Record{SessionID: id, Body: []byte(`{"schema":"` + schema + `","session_id":"` + id + `","session":{"start_commit":"c0ffee"}}` + "\n")}
	}
	setEnv(t)
	ctx := context.Background()
	cases := []struct {
		name string
		// writes are the schemas written, one commit each, for sessions
		// 0, 1, 2, ... (a repeated index rewrites that session's record).
		writes []struct {
			i      int
			schema string
		}
		found bool
		since []bool // WrittenSince per session index
	}{
		{"v1, then v2, then v1", []struct {
			i      int
			schema string
		}{{0, v1}, {1, v2}, {2, v1}}, true, []bool{false, true, true}},
		{"v2 rewritten as v1", []struct {
			i      int
			schema string
		}{{0, v1}, {1, v2}, {1, v1}}, true, []bool{false, true}},
		{"v1 only", []struct {
			i      int
			schema string
		}{{0, v1}, {1, v1}}, false, []bool{false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := newRepo(t)
			var ids []string
			for range c.since {
				ids = append(ids, uuid(t))
			}
			var tip string
			for _, w := range c.writes {
				var err error
				if tip, err = recordref.Put(ctx, dir, ref, []recordref.Record{rec(ids[w.i], w.schema)}); err != nil {
					t.Fatal(err)
				}
			}
			f, err := recordref.FindSchemaFloor(ctx, dir, tip, v2)
			if err != nil {
				t.Fatal(err)
			}
			if f.Found != c.found {
				t.Fatalf("found %v, want %v", f.Found, c.found)
			}
			if c.found && (f.First.SessionID != ids[1] || f.StartCommit != "c0ffee") {
				t.Errorf("first v2 record %s (start %q), want %s", f.First.SessionID, f.StartCommit, ids[1])
			}
			for i, want := range c.since {
				if got := f.WrittenSince(ids[i]); got != want {
					t.Errorf("session %d: written since the first v2 record %v, want %v", i, got, want)
				}
			}
		})
	}
}
