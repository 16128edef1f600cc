package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// Records off the working branch: a session_record setting that names a
// git ref ("refs/sessiongate/records") makes session_end write the record
// onto that ref instead of into the worktree (docs/team.md, "Records ref").

// RecordRefWriter writes a session record onto a records ref without
// touching the worktree, the index or HEAD; the git adapters implement it.
type RecordRefWriter interface {
	// PutRecord writes body as the record of session id on ref and
	// returns the record's path on the ref.
	PutRecord(ctx context.Context, ref, id string, body []byte) (string, error)
}

// IsRecordRef reports whether a session_record setting names a git ref
// rather than a path template in the worktree.
func IsRecordRef(setting string) bool { return strings.HasPrefix(setting, "refs/") }

// EventSource is the ADR-029 event source of a repository's sessions.
func EventSource(repoName string) string { return "sessiongate://" + repoName }

// maxRecordEvents bounds the events a record carries (the newest are kept):
// a record must stay well under the readers' size limit.
const maxRecordEvents = 20000

// refRecord is the session record plus what a team index needs: the
// session's metadata, events (token and time) and violations (no message).
func (e *Engine) refRecord(ctx context.Context, s *Session) (*snapshot.Record, error) {
	rec, err := e.Record(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	repo, err := e.Store.GetRepository(ctx, s.RepoID)
	if err != nil {
		return nil, fmt.Errorf("load repository: %w", err)
	}
	rec.Session = &snapshot.SessionMeta{
		Repository: repo.Name, Origin: portableOrigin(repo.Origin), Branch: s.Branch,
		StartCommit: s.StartCommit, EndCommit: s.EndCommit, State: string(s.State),
		StartedAt: stamp(s.CreatedAt), EndedAt: stamp(s.EndedAt),
		UserName: s.UserName, UserEmail: s.UserEmail, Host: s.Host,
	}
	evs, err := e.Store.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("load events: %w", err)
	}
	if len(evs) > maxRecordEvents {
		evs = evs[len(evs)-maxRecordEvents:]
	}
	for _, ev := range evs {
		rec.Events = append(rec.Events, snapshot.EventRef{Seq: ev.Seq, Token: ev.Token, At: stamp(ev.CreatedAt)})
	}
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Limit: 1000})
	if err != nil {
		return nil, fmt.Errorf("load violations: %w", err)
	}
	for _, v := range vs {
		rec.Violations = append(rec.Violations, snapshot.ViolationRef{Code: v.Code, Phase: v.Phase, Requirement: v.Requirement, Severity: v.Severity, At: stamp(v.CreatedAt)})
	}
	return rec, nil
}

// portableOrigin is the origin for a record: a remote that is a local path
// (a clone of a folder) names a place on one machine only, so it is left out.
func portableOrigin(o string) string {
	if o == "" || strings.HasPrefix(o, "/") || strings.HasPrefix(o, ".") || strings.HasPrefix(o, "~") || strings.HasPrefix(o, `\\`) ||
		(len(o) >= 2 && o[1] == ':') {
		return ""
	}
	return o
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// CodeForcedAdvance is the violation of a mandatory gate skipped with force.
const CodeForcedAdvance = "FORCED_ADVANCE"

// unlaunderable are the violations that reach the records ref when they
// are recorded, not only at session_end: a session that never ends (its
// database deleted, a new session started in its place) would otherwise
// take them with it (issue 25.8).
var unlaunderable = map[string]bool{CodeBypass: true, CodeForcedAdvance: true, CodeProtectedChange: true, CodeForeignAmend: true}

// publishViolations writes session id's record onto the records ref (when
// session_record names one) if one of vs must not be laundered. The record
// is rewritten with the final one at session_end. A failure is logged,
// never returned: the violation is in the database either way, and a hook
// must not fail on it.
func (e *Engine) publishViolations(ctx context.Context, id string, vs ...*Violation) {
	if id == "" || e.OpenRepo == nil || !IsRecordRef(e.Config.SessionRecord) ||
		!slices.ContainsFunc(vs, func(v *Violation) bool { return v != nil && unlaunderable[v.Code] }) {
		return
	}
	s, err := e.Store.GetSession(ctx, id)
	if err == nil {
		_, err = e.writeRecord(ctx, s)
	}
	if err != nil {
		e.Logger.Warn("write the session record with its violation to the records ref", "session", id, "err", err)
	}
}
