package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// A record that simply drops clock_version skipped the time check of
// clock.go (a downgrade: the field is the record's own word). The floor
// comes from the records ref's history instead, as the schema's does
// (downgrade.go): once the ref holds a clock_version 1 record, the
// sessiongate its clones run writes it, so a record without it first
// written on the ref at or after that one, or covering a commit that
// descends from that session's start commit, was edited. Rewriting the
// ref's history to move the floor is a non-fast-forward push.

// clockDropped returns a problem when rc lacks clock_version though the
// ref held one before it was written, judged for commit sha of session id.
func (t *protocolTrust) clockDropped(ctx context.Context, rc *recordCheck, id, sha string) string {
	if rc.ids == nil || rc.clock >= snapshot.ClockVersion || t.recordsTip == "" {
		return ""
	}
	if t.clockFloor == nil && t.clockErr == nil {
		t.clockFloor, t.clockErr = recordref.FindClockFloor(ctx, t.repo.Root(), t.recordsTip, snapshot.ClockVersion)
	}
	if t.clockErr != nil {
		return fmt.Sprintf("%s: cannot tell whether this record without clock_version was written after records carried it: %v", rc.path, t.clockErr)
	}
	f := t.clockFloor
	if !f.Found {
		return ""
	}
	why := ""
	switch {
	case f.WrittenSince(id):
		why = fmt.Sprintf("it was first written on the records ref at or after the first record of clock_version %d (records commit %s)", snapshot.ClockVersion, shorten.SHA(f.First.Commit))
	case f.StartCommit != "" && f.First.SessionID != id:
		if ok, err := t.repo.IsAncestor(ctx, f.StartCommit, sha); err == nil && ok {
			why = fmt.Sprintf("its commit descends from %s, where the first clock_version %d record's session (%s) started", shorten.SHA(f.StartCommit), snapshot.ClockVersion, f.First.SessionID)
		}
	}
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s: a record without clock_version written after this repository's records carried it: %s (clock_version dropped: its events' times would not be checked); a clone on an older sessiongate omits it: upgrade it", rc.path, why)
}
