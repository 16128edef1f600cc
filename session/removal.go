package session

import (
	"context"
	"fmt"
)

// A session terminated or deleted leaves its record on the records ref
// (session_record: refs/...), with the event that ended it: the database
// is a local file the agent can delete, the ref is pushed with the work,
// and a session removed and started afresh (to leave a transcript's
// refusals or a broken transcript behind) stays visible to the team index,
// the dashboard and verify (issue 25 route 1; docs/security.md).

// recordRemoval writes session id's record, as it is now, onto the
// records ref when one is configured. The caller appends the event first.
func (e *Engine) recordRemoval(ctx context.Context, id string) error {
	if !IsRecordRef(e.Config.SessionRecord) || e.OpenRepo == nil {
		return nil
	}
	s, err := e.Store.GetSession(ctx, id)
	if err != nil {
		return fmt.Errorf("session %s: %w", id, err)
	}
	if _, err := e.writeRecord(ctx, s); err != nil {
		return fmt.Errorf("record the removal of session %s: %w", id, err)
	}
	return nil
}
