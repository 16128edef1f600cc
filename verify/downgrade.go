package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// A v1 record needs no file references, so a record rewritten as v1 with
// its file_refs dropped skipped the file re-check with only a note (issue
// 25 route 2). Once the repository's records ref holds a v2 record, the
// sessiongate its clones run writes v2: a pre-v2 record first written on
// the ref at or after the first v2 record (its own first version
// included), or covering a commit that descends from the first v2
// session's start commit, is a downgrade. Records from before the upgrade
// keep their note. What the ref's history says cannot be rewritten
// without rewriting the ref (a non-fast-forward push the remote can refuse).

// downgraded returns a problem when rc is a pre-v2 record written after v2
// existed in this repository, judged for commit sha of session id.
func (t *protocolTrust) downgraded(ctx context.Context, rc *recordCheck, id, sha string) string {
	if rc.ids == nil || rc.schema == snapshot.RecordSchema || t.recordsTip == "" {
		return ""
	}
	if t.floor == nil && t.floorErr == nil {
		t.floor, t.floorErr = recordref.FindSchemaFloor(ctx, t.repo.Root(), t.recordsTip, snapshot.RecordSchema)
	}
	if t.floorErr != nil {
		return fmt.Sprintf("%s: cannot tell whether this %s record was written after %s records existed: %v", rc.path, orNone(rc.schema), snapshot.RecordSchema, t.floorErr)
	}
	f := t.floor
	if !f.Found {
		return ""
	}
	why := ""
	switch {
	case f.WrittenSince(id):
		why = fmt.Sprintf("it was first written on the records ref at or after the first %s record (records commit %s)", snapshot.RecordSchema, shorten.SHA(f.First.Commit))
	case f.StartCommit != "" && f.First.SessionID != id:
		if ok, err := t.repo.IsAncestor(ctx, f.StartCommit, sha); err == nil && ok {
			why = fmt.Sprintf("its commit descends from %s, where the first %s record's session (%s) started", shorten.SHA(f.StartCommit), snapshot.RecordSchema, f.First.SessionID)
		}
	}
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s: a %s record written after this repository's records were %s: %s (record downgraded: a v1 record needs no file references, so git would not check its file evidence); a clone on an older sessiongate writes v1: upgrade it", rc.path, orNone(rc.schema), snapshot.RecordSchema, why)
}
