package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// TestDowngradedRecord (issue 25 route 2): once the records ref holds a v2
// record, a v1 record written after it, or one for a commit that descends
// from the first v2 session's start, is a downgrade; a v1 record from
// before the upgrade, for an older commit, passes (honest legacy).
func TestDowngradedRecord(t *testing.T) {
	ctx := context.Background()
	dir := gittest.New(t, nil)
	old := gittest.Commit(t, dir, "old work", map[string]string{"a.txt": "a\n"})
	v2start := gittest.Commit(t, dir, "the upgrade", map[string]string{"b.txt": "b\n"})
	later := gittest.Commit(t, dir, "later work", map[string]string{"c.txt": "c\n"})
	const (
		legacy  = "00000000-0000-4000-8000-000000000001"
		upgrade = "00000000-0000-4000-8000-000000000002"
		after   = "00000000-0000-4000-8000-000000000003"
		early   = "00000000-0000-4000-8000-000000000004" // written before the upgrade, yet claims a later commit
	)
	put := func(id, schema, start string) string {
		body := `{"schema":"` + schema + `","session_id":"` + id + `","session":{"start_commit":"` + start + `"}}`
		tip, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: []byte(body)}})
		if err != nil {
			t.Fatal(err)
		}
		return tip
	}
	put(legacy, snapshot.RecordSchemaV1, old)
	put(early, snapshot.RecordSchemaV1, old)
	put(upgrade, snapshot.RecordSchema, v2start)
	tip := put(after, snapshot.RecordSchemaV1, later)
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	trust := &protocolTrust{repo: repo, recordsTip: tip}
	cases := []struct {
		name, id, schema, commit, want string
	}{
		{"honest: a v1 record from before the upgrade", legacy, snapshot.RecordSchemaV1, old, ""},
		{"honest: a record without schema from before the upgrade", legacy, "", old, ""},
		{"honest: a v2 record", upgrade, snapshot.RecordSchema, later, ""},
		{"a v1 record written after the first v2 one", after, snapshot.RecordSchemaV1, later, "first written on the records ref at or after the first"},
		{"a v1 record for a commit after the upgrade", early, snapshot.RecordSchemaV1, later, "its commit descends from " + v2start[:12]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc := &recordCheck{path: "rec", ids: map[string]bool{}, schema: c.schema}
			got := trust.downgraded(ctx, rc, c.id, c.commit)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("downgraded = %q, want %q", got, c.want)
			}
		})
	}
}
