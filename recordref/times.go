package recordref

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// StateAbandoned is session.StateAbandoned (recordref does not import
// session).
const StateAbandoned = "ABANDONED"

// Times is what one version of a session's record on the ref said of the
// session's time.
type Times struct {
	StartedAt, EndedAt string
	// Violations are the version's final snapshot's "CODE:PHASE" marks.
	Violations []string
	// State is the state the version says the session ended in (or is
	// in): ABANDONED when the record's session says so (an abandoned
	// session gets no snapshot of its own), else the final snapshot's.
	State string
	// ContentEvents are the version's events whose token begins with
	// ContentEventPrefix, by seq: what each of its PROTECTED_CHANGE
	// violations said the protected files held (verify/basecontent.go).
	ContentEvents map[int64]string
}

// ContentEventPrefix is session.TokProtectContent + ":" (recordref does
// not import session).
const ContentEventPrefix = "protect:content:"

// RecordTimes lists the started_at, ended_at and violations of every
// version of session id's record in the ref's history at tip, oldest first. A record
// rewritten on the ref keeps its first versions in the history a push can
// only add to, so the first end written is the session's, whatever a
// later version says (verify/recordstimes.go).
func RecordTimes(ctx context.Context, dir, tip, id string) ([]Times, error) {
	path, err := Path(id)
	if err != nil || tip == "" {
		return nil, err
	}
	blobs, err := versions(ctx, dir, tip, path, true)
	if err != nil {
		return nil, fmt.Errorf("list the versions of record %s: %w", id, err)
	}
	if len(blobs) == 0 {
		return nil, nil
	}
	bodies, err := catBatch(ctx, dir, blobs)
	if err != nil {
		return nil, fmt.Errorf("read the versions of record %s: %w", id, err)
	}
	var ts []Times
	for _, b := range blobs {
		var head struct {
			Session *struct {
				StartedAt string `json:"started_at"`
				EndedAt   string `json:"ended_at"`
				State     string `json:"state"`
			} `json:"session"`
			Snapshots []struct {
				State struct {
					State      string   `json:"state"`
					Violations []string `json:"violations"`
				} `json:"state"`
			} `json:"snapshots"`
			Events []struct {
				Seq   int64  `json:"seq"`
				Token string `json:"token"`
			} `json:"events"`
		}
		if json.Unmarshal(bodies[b], &head) != nil {
			continue
		}
		var t Times
		if head.Session != nil {
			t.StartedAt, t.EndedAt, t.State = head.Session.StartedAt, head.Session.EndedAt, head.Session.State
		}
		if n := len(head.Snapshots); n > 0 {
			t.Violations = head.Snapshots[n-1].State.Violations
			if t.State != StateAbandoned {
				t.State = head.Snapshots[n-1].State.State
			}
		}
		for _, ev := range head.Events {
			if strings.HasPrefix(ev.Token, ContentEventPrefix) {
				if t.ContentEvents == nil {
					t.ContentEvents = map[int64]string{}
				}
				t.ContentEvents[ev.Seq] = ev.Token
			}
		}
		ts = append(ts, t)
	}
	return ts, nil
}
