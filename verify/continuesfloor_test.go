package verify

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
)

// TestPredatesContinues (round 22 c8's open item): records written before
// sessions recorded `session:continues:ID` carry no such event, so a
// session resumed across the upgrade failed verify on its first day's
// commits. A continuing record without continues_version is judged by the
// old rule only while the records ref's history says it predates the
// marker; a record that drops the field after the ref held one, or whose
// session started on a commit that descends from the first marked
// session's start, is a downgrade and gets nothing, and so do in-tree
// records (no ref history) and a ref that cannot be read.
func TestPredatesContinues(t *testing.T) {
	ctx := context.Background()
	dir := gittest.New(t, nil)
	old := gittest.Commit(t, dir, "old work", map[string]string{"a.txt": "a\n"})
	upStart := gittest.Commit(t, dir, "the upgrade", map[string]string{"b.txt": "b\n"})
	later := gittest.Commit(t, dir, "later work", map[string]string{"c.txt": "c\n"})
	const (
		legacy  = "00000000-0000-4000-8000-000000000001"
		upgrade = "00000000-0000-4000-8000-000000000002"
		after   = "00000000-0000-4000-8000-000000000003"
		early   = "00000000-0000-4000-8000-000000000004" // written before the upgrade, yet started after it
	)
	put := func(id string, marked bool, start string) string {
		cv := ""
		if marked {
			cv = `"continues_version":1,`
		}
		body := `{"schema":"sessiongate.session-record.v2",` + cv + `"session_id":"` + id + `","session":{"start_commit":"` + start + `"}}`
		tip, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: []byte(body)}})
		if err != nil {
			t.Fatal(err)
		}
		return tip
	}
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	first := put(legacy, false, old)
	put(early, false, later)
	put(upgrade, true, upStart)
	tip := put(after, false, later)
	for _, c := range []struct {
		name  string
		tip   string
		id    string
		start string
		cv    int
		want  bool // the old rule applies
	}{
		{"honest: a record from before the upgrade", tip, legacy, old, 0, true},
		{"honest: before any record carried the field", first, legacy, old, 0, true},
		{"a record with the field needs the marker", tip, upgrade, upStart, 1, false},
		{"lazy: the field dropped after the ref held it", tip, after, later, 0, false},
		{"lazy: an old-looking record for a session started after the upgrade", tip, early, later, 0, false},
		{"in-tree records: no history to tell", "", legacy, old, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			trust := &protocolTrust{repo: repo, recordsTip: c.tip}
			got := trust.predatesContinues(ctx, &recordCheck{continuesV: c.cv, start: c.start}, c.id)
			if (got != "") != c.want {
				t.Fatalf("predatesContinues = %q, want the old rule: %v", got, c.want)
			}
		})
	}
}
