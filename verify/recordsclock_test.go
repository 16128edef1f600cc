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

// TestClockVersionDropped: a record that drops clock_version skipped the
// time check (clockDropped did not exist: the same record passed with no
// problem). Once the records ref holds a clock_version 1 record, a record
// without it written after, or for a commit descending from that
// session's start, fails; a record from before the ref carried it, for an
// older commit, passes (honest legacy), and so does one that carries it.
func TestClockVersionDropped(t *testing.T) {
	ctx := context.Background()
	dir := gittest.New(t, nil)
	old := gittest.Commit(t, dir, "old work", map[string]string{"a.txt": "a\n"})
	c1start := gittest.Commit(t, dir, "the upgrade", map[string]string{"b.txt": "b\n"})
	later := gittest.Commit(t, dir, "later work", map[string]string{"c.txt": "c\n"})
	const (
		legacy  = "00000000-0000-4000-8000-000000000001"
		upgrade = "00000000-0000-4000-8000-000000000002"
		after   = "00000000-0000-4000-8000-000000000003"
		early   = "00000000-0000-4000-8000-000000000004" // written before, yet claims a later commit
	)
	put := func(id string, clock int, start string) string {
		body := `{"schema":"` + snapshot.RecordSchema + `","session_id":"` + id + `","session":{"start_commit":"` + start + `"}`
		if clock > 0 {
			body += `,"clock_version":1`
		}
		tip, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: []byte(body + "}")}})
		if err != nil {
			t.Fatal(err)
		}
		return tip
	}
	put(legacy, 0, old)
	put(early, 0, old)
	put(upgrade, 1, c1start)
	tip := put(after, 0, later)
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, id string
		clock    int
		commit   string
		want     string
	}{
		{"honest: a record from before clock_version", legacy, 0, old, ""},
		{"honest: a record carrying it", upgrade, 1, later, ""},
		{"honest: a later record carrying it", after, 1, later, ""},
		{"dropped: written after the first clock_version 1 record", after, 0, later, "at or after the first record of clock_version 1"},
		{"dropped: for a commit after the upgrade", early, 0, later, "its commit descends from " + c1start[:12]},
	} {
		t.Run(c.name, func(t *testing.T) {
			trust := &protocolTrust{repo: repo, recordsTip: tip}
			rc := &recordCheck{path: "rec", ids: map[string]bool{}, clock: c.clock}
			got := trust.clockDropped(ctx, rc, c.id, c.commit)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("clockDropped = %q, want %q", got, c.want)
			}
		})
	}
	// A ref that never carried it: nothing to judge by.
	dir2 := gittest.New(t, nil)
	c := gittest.Commit(t, dir2, "w", map[string]string{"a.txt": "a\n"})
	body := `{"schema":"` + snapshot.RecordSchema + `","session_id":"` + legacy + `","session":{"start_commit":"` + c + `"}}`
	tip2, err := recordref.Put(ctx, dir2, recordref.DefaultRef, []recordref.Record{{SessionID: legacy, Body: []byte(body)}})
	if err != nil {
		t.Fatal(err)
	}
	repo2, err := gitrepo.Open(ctx, dir2)
	if err != nil {
		t.Fatal(err)
	}
	if got := (&protocolTrust{repo: repo2, recordsTip: tip2}).clockDropped(ctx, &recordCheck{path: "rec", ids: map[string]bool{}}, legacy, c); got != "" {
		t.Fatalf("a ref without clock_version records: %q", got)
	}
}
