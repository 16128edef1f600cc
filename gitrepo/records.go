package gitrepo

import (
	"context"

	"github.com/sessiongate/sessiongate/recordref"
)

// PutRecord writes a session record onto a records ref with git plumbing
// (recordref): the work tree, the index and HEAD are never touched and no
// hook runs. It implements session.RecordRefWriter.
func (r *Repo) PutRecord(ctx context.Context, ref, id string, body []byte) (string, error) {
	if _, err := recordref.Put(ctx, r.root, ref, []recordref.Record{{SessionID: id, Body: body}}); err != nil {
		return "", err
	}
	return recordref.Path(id)
}
