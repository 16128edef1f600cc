package session

import (
	"context"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// publishAbandoned writes the record of session id, just marked ABANDONED
// (expired, or superseded by a new session), onto the records ref. Its
// commits are on the branch and were pushed or will be: without a record
// CI's verify failed each of them as "no session record" (round 20: an
// honest session interrupted overnight and resumed the next day), where it
// can now see the abandoned session and the session that continued it
// (verify/continued.go). A failure is logged, never returned: the state
// change has happened either way.
func (e *Engine) publishAbandoned(ctx context.Context, id string) {
	if e.OpenRepo == nil || !IsRecordRef(e.Config.SessionRecord) {
		return
	}
	s, err := e.Store.GetSession(ctx, id)
	if err == nil {
		// A snapshot of the abandoned state: the commits reconciliation
		// recorded since the last one are in no snapshot otherwise, and
		// verify reads the record's commits from its final snapshot.
		var spec *protocolspec.Spec
		if spec, err = e.SpecFor(ctx, s.ProtocolSHA); err == nil {
			err = e.Store.Update(ctx, func(w Writer) error {
				_, err := e.takeSnapshot(ctx, w, s, spec)
				return err
			})
		}
	}
	if err == nil {
		_, err = e.writeRecord(ctx, s)
	}
	if err != nil {
		e.Logger.Warn("write the abandoned session's record to the records ref", "session", id, "err", err)
	}
}
